import * as zlib from 'node:zlib';
import type { ZipArchive } from 'archiver';

/**
 * Deflates archive entries ahead of archiver, in parallel on the libuv thread pool.
 *
 * Why: archiver's zip writer (zip-stream on compress-commons' ZipArchiveOutputStream) takes
 * one entry at a time and deflates it through a fresh zlib stream; each entry is a thread
 * pool round trip the main thread waits for, so packaging uses about one core and idles
 * ~40 % of the time. It has no supported way to take data that is already compressed: it
 * knows only STORED (writes the bytes as they are) and DEFLATED (always deflates itself).
 *
 * How: the caller starts `deflateRaw` for an entry's bytes as soon as they are read (many
 * entries in flight at once) and then appends the *uncompressed* buffer to archiver as
 * usual. The writer's `_appendBuffer` is wrapped, on this one writer instance only: for a
 * buffer started here it waits for the deflated bytes and writes exactly what archiver's
 * own DEFLATED path writes (local header, data, data descriptor with crc and sizes); every
 * other entry goes to archiver's own code. If the internals this relies on are not there
 * (an archiver/zip-stream/compress-commons update), nothing is wrapped and archiver
 * deflates everything itself: the archive stays correct, only slower, and
 * test/unit/workspace/zip.test.ts fails loudly so the wrapper gets updated.
 */
export interface Predeflater {
  /** False when archiver's internals did not match (or zlib.crc32 is missing): archiver deflates itself. */
  readonly active: boolean;
  /** Starts deflating `raw`; append that same Buffer object to the archive afterwards. Keep `raw` unchanged until its 'entry' event. */
  start(raw: Buffer): void;
  /** Entries written from predeflated bytes so far. */
  readonly written: number;
  /** Frees the zlib streams; call once the archive is finished or abandoned. */
  close(): void;
}

const METHOD_DEFLATED = 8;
/** Deflate lanes (running at once); libuv's thread pool has 4 threads by default. */
const MAX_DEFLATES_IN_FLIGHT = 4;

interface Job {
  promise: Promise<Buffer[]>;
  crc: number;
  size: number;
}

/** The part of compress-commons' ZipArchiveOutputStream (and its entries) the wrapper uses. */
export interface ZipWriterInternals {
  _appendBuffer(ae: ZipEntryInternals, source: Buffer, callback: (err: Error | null, ae?: ZipEntryInternals) => void): void;
  _writeLocalFileHeader(ae: ZipEntryInternals): void;
  _afterAppend(ae: ZipEntryInternals): void;
  write(chunk: Buffer): boolean;
  /** Bytes handed to the writer so far (headers, data, descriptors); compress-commons' own count. */
  getBytesWritten(): number;
  once(event: 'drain', fn: () => void): unknown;
  destroyed?: boolean;
}
interface ZipEntryInternals {
  getMethod(): number;
  setCrc(crc: number): void;
  setSize(n: number): void;
  setCompressedSize(n: number): void;
  getGeneralPurposeBit(): { usesDataDescriptor(): boolean };
}

/** The zip writer inside a ZipArchive, when it has the shape this file relies on. */
export function zipWriterOf(archive: ZipArchive): ZipWriterInternals | undefined {
  const engine = (archive as unknown as { _module?: { engine?: Record<string, unknown> } })._module?.engine;
  if (!engine) return undefined;
  const needed = ['_appendBuffer', '_writeLocalFileHeader', '_afterAppend', 'write', 'getBytesWritten', 'once'];
  return needed.every((m) => typeof engine[m] === 'function') ? (engine as unknown as ZipWriterInternals) : undefined;
}

export function installPredeflater(archive: ZipArchive, level: number): Predeflater {
  const writer = zipWriterOf(archive);
  const crc32 = (zlib as { crc32?: (data: Buffer) => number }).crc32;
  // Level 0 makes archiver store everything: nothing to deflate.
  if (!writer || typeof crc32 !== 'function' || level === 0) return { active: false, start: () => undefined, written: 0, close: () => undefined };

  const jobs = new WeakMap<Buffer, Job>();
  const state = { written: 0 };
  const original = writer._appendBuffer;
  writer._appendBuffer = function (this: ZipWriterInternals, ae, source, callback) {
    const job = jobs.get(source);
    // Method DEFLATED with a data descriptor is what archiver's _normalizeEntry sets for a
    // non-empty entry not marked `store`; anything else is archiver's business.
    if (!job || ae.getMethod() !== METHOD_DEFLATED || !ae.getGeneralPurposeBit().usesDataDescriptor()) {
      original.call(this, ae, source, callback);
      return;
    }
    jobs.delete(source);
    job.promise.then(
      (deflated) => {
        if (this.destroyed) return callback(null, ae); // aborted meanwhile: write nothing
        this._writeLocalFileHeader(ae);
        let ok = true;
        let compressed = 0;
        for (const piece of deflated) {
          ok = this.write(piece);
          compressed += piece.length;
        }
        ae.setCrc(job.crc);
        ae.setSize(job.size);
        ae.setCompressedSize(compressed);
        this._afterAppend(ae); // writes the data descriptor, as archiver's own deflate path does
        state.written++;
        // Respect back-pressure like archiver's stream path does (its pipe waits for drain).
        if (ok) callback(null, ae);
        else this.once('drain', () => callback(null, ae));
      },
      (err: Error) => callback(err),
    );
  };

  // Deflating goes through a few long-lived zlib streams ("lanes"), each reset between
  // entries. A fresh zlib handle per entry (zlib.deflateRaw) allocates and frees ~256 KB of
  // native state (window, hash chains, pending buffer: 64 KB blocks) 20,000 times on the
  // main malloc arena, interleaved with longer-lived buffers; measured ~30 MB of RSS left
  // in fragmented arena. A lane also hands out its output as views of one 16 KB buffer
  // rather than a fresh buffer plus a concatenated copy per entry.
  // Each entry is written, then flushed with Z_FINISH: the same calls archiver's own
  // DeflateCRC32Stream makes (write, then end), so the bytes are the same.
  interface Lane { z: zlib.DeflateRaw; collect: Buffer[] | undefined }
  const lanes: Lane[] = [];
  const idle: Lane[] = [];
  const waiting: { raw: Buffer; resolve: (b: Buffer[]) => void; reject: (e: Error) => void }[] = [];
  let closed = false;
  const newLane = (): Lane => {
    const lane: Lane = { z: zlib.createDeflateRaw({ level }), collect: undefined };
    lane.z.on('data', (c: Buffer) => lane.collect?.push(c));
    lanes.push(lane);
    return lane;
  };
  const pump = () => {
    while (!closed && waiting.length > 0 && (idle.length > 0 || lanes.length < MAX_DEFLATES_IN_FLIGHT)) {
      const lane = idle.pop() ?? newLane();
      const w = waiting.shift()!;
      const out: Buffer[] = [];
      lane.collect = out;
      const onError = (e: Error) => {
        // A broken lane is dropped; the entry fails (and with it the archive).
        lanes.splice(lanes.indexOf(lane), 1);
        w.reject(e);
        pump();
      };
      lane.z.once('error', onError);
      lane.z.write(w.raw);
      lane.z.flush(zlib.constants.Z_FINISH, () => {
        lane.z.off('error', onError);
        if (closed) return;
        lane.collect = undefined;
        lane.z.reset();
        idle.push(lane);
        w.resolve(out);
        pump();
      });
    }
  };
  return {
    active: true,
    get written() {
      return state.written;
    },
    start(raw: Buffer) {
      const promise = new Promise<Buffer[]>((resolve, reject) => waiting.push({ raw, resolve, reject }));
      // Settled later by the writer; a failure after a cancel must not be an unhandled rejection.
      promise.catch(() => undefined);
      jobs.set(raw, { promise, crc: crc32(raw) >>> 0, size: raw.length });
      pump();
    },
    close() {
      closed = true;
      waiting.length = 0;
      for (const lane of lanes) {
        lane.z.on('error', () => undefined);
        lane.z.close();
      }
      lanes.length = 0;
      idle.length = 0;
    },
  };
}

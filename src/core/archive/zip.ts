import { createHash } from 'node:crypto';
import { closeSync, createReadStream, promises as fsp, readSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { ZipArchive, type ZipEntryData } from 'archiver';
import { openRegularFileSync } from '../workspace/safeOpen';
import { absolutePathOf, type SelectedFile, type Selection, type SkippedFile } from '../workspace/selectFiles';
import { ByteRing } from './byteRing';
import { looksIncompressible } from './compressibility';
import { shareEntryFunctions } from './entryFootprint';
import { installPredeflater, zipWriterOf } from './predeflate';
import { SCRATCH_BYTES, takeScratch } from '../scratch';

export interface BuiltArchive {
  path: string;
  /** File name sent to the service, e.g. `project.zip`. */
  name: string;
  size: number;
  sha256: string;
  /** Archive paths actually written, in archive order. */
  entries: string[];
  /** Files that vanished or became unreadable between selection and packaging. */
  skipped: SkippedFile[];
  /** Deletes the archive and its private directory. Safe to call more than once. */
  dispose(): Promise<void>;
}

export interface BuildZipOptions {
  /** Parent of the private temporary directory. Default: the OS temp dir. */
  tmpRoot?: string;
  name?: string;
  /** Deflate level, 0-9. Default 6, the same as Info-ZIP's default. */
  level?: number;
  signal?: AbortSignal;
}

/** Every entry gets this timestamp so the same files always give the same bytes. */
const FIXED_DATE = new Date(2000, 0, 1, 0, 0, 0);

/**
 * Files up to this size are read whole (synchronously) into the slab and deflated or stored
 * from there. Bigger ones are streamed with fresh read buffers, garbage until V8 collects
 * it; few files in a source tree are this big.
 */
const SYNC_READ_MAX_FILE = 1024 * 1024;
/** The output is gathered in buffers of this size before it goes to disk (two at most in use). */
const SINK_BUFFER_BYTES = 2 * 1024 * 1024;
/**
 * Size of the slab small files are read into ahead of the zip writer; this bounds memory.
 * Slab and both output buffers are one scratch buffer of SCRATCH_BYTES, the same memory
 * the upload then uses for its chunks.
 */
const PREFETCH_BUDGET = SCRATCH_BYTES - 2 * SINK_BUFFER_BYTES;
/** Read size for big files; large reads mean fewer trips through the stream machinery. */
const STREAM_HIGH_WATER_MARK = 1024 * 1024;

/**
 * Zips the selected files into a temporary file in a private (0700) directory. Entries
 * are in the selection's sorted order with a fixed date and mode, so the archive is
 * deterministic. Memory stays bounded by PREFETCH_BUDGET whatever the workspace size.
 */
export async function buildZip(selection: Selection, opts: BuildZipOptions = {}): Promise<BuiltArchive> {
  const name = opts.name ?? 'project.zip';
  if (!/\.zip$/i.test(name) || name.includes('/') || name.includes('\\')) {
    throw new Error(`The archive name "${name}" must be a plain file name ending in .zip.`);
  }
  const level = opts.level ?? 6;
  const dir = await fsp.mkdtemp(path.join(opts.tmpRoot ?? os.tmpdir(), 'code-scanner-'));
  await fsp.chmod(dir, 0o700);
  const archivePath = path.join(dir, name);
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await fsp.rm(dir, { recursive: true, force: true });
  };
  try {
    const result = await writeZip(selection, archivePath, level, opts.signal);
    const size = (await fsp.stat(archivePath)).size;
    return { path: archivePath, name, size, sha256: result.sha256, entries: result.entries, skipped: result.skipped, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

async function writeZip(selection: Selection, archivePath: string, level: number, signal?: AbortSignal) {
  const archive = new ZipArchive({ zlib: { level }, forceZip64: false, highWaterMark: STREAM_HIGH_WATER_MARK });
  const scratch = takeScratch(PREFETCH_BUDGET + 2 * SINK_BUFFER_BYTES);
  const memory = scratch.buffer;
  const sink = new HashingFileSink(
    await fsp.open(archivePath, 'wx', 0o600).catch((e: unknown) => {
      scratch.release();
      throw e;
    }),
    memory.subarray(PREFETCH_BUDGET, PREFETCH_BUDGET + SINK_BUFFER_BYTES),
    memory.subarray(PREFETCH_BUDGET + SINK_BUFFER_BYTES, PREFETCH_BUDGET + 2 * SINK_BUFFER_BYTES),
  );
  const written = pipeline(archive, sink);
  // Deflates small entries ahead of archiver on the thread pool, so both cores work.
  const predeflate = installPredeflater(archive, level);
  // The zip writer inside archiver, when its internals have the expected shape (tested).
  const writer = zipWriterOf(archive);
  shareEntryFunctions(writer);
  const warnings: Error[] = [];
  archive.on('warning', (e: Error) => warnings.push(e));

  const entries: string[] = [];
  const skipped: SkippedFile[] = [];
  let wake: (() => void) | undefined;
  let archiveError: Error | undefined;
  archive.on('error', (e: Error) => {
    archiveError ??= e;
    wake?.();
  });

  // Small files are read into one reused slab. Each appended entry holds one place in
  // `slots` (a slab region, or nothing for streamed data). A region is given back once the
  // sink has taken in every byte archiver had been handed when the entry completed: by then
  // deflate has consumed it and stored bytes have been copied out, wherever they were
  // buffered on the way. Stored data thus needs no copy of its own (fresh buffers of mixed
  // sizes, freed only at GC, were the largest source of packaging RSS).
  const ring = new ByteRing(memory.subarray(0, PREFETCH_BUDGET));
  const slots: { region: boolean; end?: number }[] = [];
  const release = () => {
    while (slots.length && slots[0].end !== undefined && sink.consumed >= slots[0].end) {
      if (slots.shift()!.region) ring.releaseOldest();
    }
    wake?.();
  };
  archive.on('entry', () => {
    const slot = slots.find((x) => x.end === undefined);
    // Without the writer's byte count (archiver internals changed), an entry is done when archiver says so.
    if (slot) slot.end = writer ? writer.getBytesWritten() : 0;
    release();
  });
  sink.onConsumed = release;
  const waitForEntry = () => new Promise<void>((r) => (wake = r));
  let streamedInFlight = 0;

  try {
    for (const f of selection.files) {
      if (signal?.aborted) throw signal.reason ?? new Error('Packaging was cancelled.');
      if (archiveError) break;
      const data: ZipEntryData = { name: f.path, date: FIXED_DATE, mode: 0o644 };
      let small: ReturnType<typeof readSmallFile>;
      for (;;) {
        small = readSmallFile(selection.root, f, (n) => ring.take(n));
        // No room in the slab: wait until archiver is done with the oldest entry.
        if (typeof small === 'object' && 'slot' in small && small.slot === undefined && ring.outstanding > 0 && !archiveError) {
          await waitForEntry();
          continue;
        }
        break;
      }
      if (typeof small === 'string') {
        skipped.push({ path: f.path, reason: small });
        continue;
      }
      if ('fd' in small) {
        // Big files are streamed from the descriptor already opened and checked; at most a
        // couple wait in archiver's queue at a time.
        const { fd } = small;
        let sample: Buffer;
        try {
          while (streamedInFlight > 0 && slots.some((x) => x.end === undefined) && !archiveError) await waitForEntry();
          sample = readSample(fd);
        } catch {
          closeSync(fd);
          skipped.push({ path: f.path, reason: 'unreadable' });
          continue;
        }
        data.store = looksIncompressible(sample);
        streamedInFlight++;
        archive.append(lazyFileStream(fd, () => streamedInFlight--), data);
        slots.push({ region: false });
      } else if (small.slot) {
        const bytes = small.slot.subarray(0, small.length);
        data.store = looksIncompressible(bytes);
        if (!data.store && bytes.length > 0) predeflate.start(bytes);
        // Without the writer's byte count, stored bytes may outlive the entry in a stream buffer: copy them.
        archive.append(data.store && !writer ? Buffer.from(bytes) : bytes, data);
        slots.push({ region: true });
      } else {
        // Bigger than the whole slab (cannot happen with the sizes chosen) or unreadable.
        skipped.push({ path: f.path, reason: 'unreadable' });
        continue;
      }
      entries.push(f.path);
    }
    if (archiveError) throw archiveError;
    await archive.finalize();
    await written;
    if (archiveError) throw archiveError;
  } catch (e) {
    // Cancelled or failed: stop archiver and close the file before the caller deletes it.
    archive.abort();
    sink.destroy();
    await written.catch(() => undefined);
    throw e;
  } finally {
    predeflate.close();
    scratch.release();
  }
  return { sha256: sink.digest(), entries, skipped };
}

/**
 * Reads a file synchronously into a region from `take` (from the page cache this costs a
 * few microseconds, far less than four thread-pool round trips, and the main thread is
 * otherwise idle while zlib deflates the previous entry). The file is opened without
 * following a link and without blocking on a FIFO, and must be the very file selected
 * (same inode); otherwise the reason it is skipped. `{ fd }` (open, for the caller to
 * stream and close) when it is too big to read whole, `{ slot: undefined }` when `take`
 * had no room.
 */
function readSmallFile(root: string, file: SelectedFile, take: (n: number) => Buffer | undefined): { slot: Buffer | undefined; length: number } | { fd: number } | 'missing' | 'unreadable' | 'not-a-file' | 'changed' {
  const opened = openRegularFileSync(absolutePathOf(root, file), { ino: file.ino });
  if (typeof opened === 'string') return opened;
  const { fd } = opened;
  let keepOpen = false;
  try {
    const size = opened.stats.size;
    if (size > SYNC_READ_MAX_FILE) {
      keepOpen = true;
      return { fd };
    }
    const slot = take(size);
    if (!slot) return { slot: undefined, length: 0 };
    let got = 0;
    while (got < size) {
      const n = readSync(fd, slot, got, size - got, got);
      if (n === 0) break; // shrank meanwhile: archive what is there
      got += n;
    }
    return { slot, length: got };
  } catch {
    return 'unreadable'; // e.g. EIO; the slab region is given back with the next entry
  } finally {
    if (!keepOpen) closeSync(fd);
  }
}

/** Streams an open descriptor once archiver starts reading it, and closes it at the end. */
function lazyFileStream(fd: number, onDone: () => void): Readable {
  return Readable.from(
    (async function* () {
      try {
        yield* createReadStream('', { fd, start: 0, autoClose: true, highWaterMark: STREAM_HIGH_WATER_MARK });
      } finally {
        onDone();
      }
    })(),
    { objectMode: false },
  );
}

/** The first bytes, to judge whether deflating is worth it. */
function readSample(fd: number): Buffer {
  const buf = Buffer.allocUnsafe(4096);
  return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
}

/**
 * Writes the archive and hashes it in one step. archiver emits a great many tiny chunks
 * (every header field is its own Buffer, and the central directory is written in one
 * synchronous burst of ~20 chunks per entry). Queued one by one in a stream, 20,000 entries
 * cost ~100 MB of bookkeeping. Here they are copied into a large buffer and acknowledged at
 * once; the file sees a few large writes, and only a full buffer (while the previous one is
 * still being written) makes archiver wait.
 */
class HashingFileSink extends Writable {
  private readonly hash = createHash('sha256');
  private position = 0;
  private used = 0;
  private flushing: Promise<void> | undefined;
  private failed: Error | undefined;
  /** Bytes taken in so far: copied into a buffer or written out. */
  consumed = 0;
  onConsumed: () => void = () => undefined;

  /** Two buffers of the same size: one fills while the other is being written, then they swap. */
  constructor(
    private readonly fh: FileHandle,
    private buf: Buffer,
    private spare: Buffer,
  ) {
    super({ highWaterMark: buf.length });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.failed) return cb(this.failed);
    if (this.used + chunk.length <= this.buf.length) {
      chunk.copy(this.buf, this.used);
      this.used += chunk.length;
      this.took(chunk.length);
      return cb();
    }
    // Full: hand the buffer to the disk (after the previous write), then take the chunk.
    this.flush()
      .then(() => {
        if (chunk.length > this.buf.length) return Promise.resolve(this.flushing).then(() => this.writeOut(chunk));
        chunk.copy(this.buf, 0);
        this.used = chunk.length;
      })
      .then(() => this.took(chunk.length))
      .then(() => cb(), (e: Error) => cb(e));
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.flush()
      .then(() => this.flushing)
      .then(() => this.fh.close())
      .then(() => cb(), (e: Error) => cb(e));
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.fh.close().then(() => cb(err), () => cb(err));
  }

  private took(n: number): void {
    this.consumed += n;
    this.onConsumed();
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  /** Starts writing the current buffer and switches to a fresh one; waits for the previous write. */
  private async flush(): Promise<void> {
    await this.flushing;
    if (this.used === 0) return;
    const full = this.buf.subarray(0, this.used);
    // The spare is free: the write that used it has finished (awaited above).
    [this.buf, this.spare] = [this.spare, this.buf];
    this.used = 0;
    this.flushing = this.writeOut(full).catch((e: Error) => {
      this.failed = e;
      throw e;
    });
  }

  private async writeOut(data: Buffer): Promise<void> {
    this.hash.update(data);
    let off = 0;
    while (off < data.length) {
      const { bytesWritten } = await this.fh.write(data, off, data.length - off, this.position);
      off += bytesWritten;
      this.position += bytesWritten;
    }
  }
}

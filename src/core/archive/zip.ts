// Packaging a selection into a zip archive. The main thread opens and reads each file (with
// the checks of safeOpen.ts) into batches; worker threads compute CRCs and deflate (a
// fresh zlib state per file, so the same files always give the same bytes); the main
// thread writes the entries in the selection's order. Files unchanged since the folder's
// last full scan are not read at all: their compressed bytes are copied from that archive.
import { closeSync, promises as fsp, openSync, readSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { openRegularFileSync } from '../workspace/safeOpen';
import { absolutePathOf, type SelectedFile, type Selection, type SkippedFile } from '../workspace/selectFiles';
import { looksIncompressible } from './compressibility';
import { DeflatePool, deflateBatch, defaultWorkerCount, type BatchResult } from './deflatePool';
import { HashingFileSink } from './fileSink';
import { mayReuse, type IndexedEntry, type ReusableArchive } from './reuseCache';
import { METHOD_DEFLATE, METHOD_STORE, ZipWriter } from './zipFormat';
import { takeScratch } from '../scratch';

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
  /** Where every entry's bytes are, for the next scan to reuse (ReuseCache.keep). */
  index: IndexedEntry[];
  /** When packaging started (ms since the epoch). */
  madeAtMs: number;
  level: number;
  /** How many entries were copied from the previous archive instead of read and deflated. */
  reused: number;
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
  /** The folder's last archive, whose entries may be copied (ReuseCache.load). */
  previous?: ReusableArchive;
  /** Threads deflating besides the main thread; default one per further core (1-4). */
  workers?: number;
}

/** Files up to a batch's size are read whole and deflated in one piece; bigger ones are streamed. */
/** Info-ZIP's default level: about its ratio and speed. */
export const DEFAULT_LEVEL = 6;
/** Above this, a quick look at the first bytes decides whether deflating is worth trying. */
const SAMPLE_ABOVE = 64 * 1024;
/** Batches handed to the workers and not yet written, per worker: enough to keep them busy. */
const IN_FLIGHT_PER_WORKER = 2;
/** Files are handed to the deflate workers in batches of this many bytes; bigger files are streamed. */
const BATCH_BYTES = 256 * 1024;
/**
 * The first bytes to deflate are deflated on the main thread: starting workers takes longer
 * than deflating a few files (a re-scan with a handful of changed files, a small folder).
 */
const INLINE_BYTES = 1024 * 1024;
/** The main thread yields to the event loop at least this often (ms) while packaging. */
const YIELD_MS = 10;
const BLOCK = 2 * 1024 * 1024;

/**
 * Zips the selected files into a temporary file in a private (0700) directory. Entries are
 * in the selection's sorted order with a fixed date, so the same files give the same bytes.
 */
export async function buildZip(selection: Selection, opts: BuildZipOptions = {}): Promise<BuiltArchive> {
  const name = opts.name ?? 'project.zip';
  if (!/\.zip$/i.test(name) || name.includes('/') || name.includes('\\')) {
    throw new Error(`The archive name "${name}" must be a plain file name ending in .zip.`);
  }
  const level = opts.level ?? DEFAULT_LEVEL;
  const madeAtMs = Date.now();
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
    const r = await writeZip(selection, archivePath, level, opts);
    const size = (await fsp.stat(archivePath)).size;
    return { path: archivePath, name, size, ...r, madeAtMs, level, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** One file's place in a batch. */
interface Member { path: string; mode: number; length: number; stat: { size: number; mtimeMs: number; ctimeMs: number; ino: number } }

type Job =
  | { kind: 'batch'; members: Member[]; result: Promise<BatchResult> }
  | { kind: 'reused'; members: Member[]; from: IndexedEntry[]; bytes: Buffer }
  | { kind: 'stream'; member: Member; fd: number; store: boolean };

function modeOf(statMode: number): number {
  return statMode & 0o111 ? 0o755 : 0o644;
}

async function writeZip(selection: Selection, archivePath: string, level: number, opts: BuildZipOptions) {
  const { signal, previous } = opts;
  const scratch = takeScratch(2 * BLOCK);
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(archivePath, 'wx', 0o600);
  } catch (e) {
    scratch.release();
    throw e;
  }
  const sink = new HashingFileSink(fh, scratch.buffer.subarray(0, BLOCK), scratch.buffer.subarray(BLOCK, 2 * BLOCK));
  const zip = new ZipWriter(sink);
  // Started on the first file that has to be read: a re-scan of an unchanged tree needs no worker.
  const workerCount = opts.workers ?? defaultWorkerCount();
  let started: DeflatePool | undefined;
  const pool = () => (started ??= new DeflatePool(level, workerCount, BATCH_BYTES));
  const maxInFlight = IN_FLIGHT_PER_WORKER * workerCount + 1;
  const prevFd = previous ? tryOpen(previous.path) : undefined;
  const prevReader = prevFd === undefined ? undefined : new WindowedReader(prevFd);
  const entries: string[] = [];
  const skipped: SkippedFile[] = [];
  const index: IndexedEntry[] = [];
  let reused = 0;
  const jobs: Job[] = [];
  const streamBuffer = Buffer.allocUnsafe(256 * 1024);
  let lastYield = performance.now();

  const record = (m: Member, e: { crc: number; method: number; compressedSize: number }, dataAt: number) => {
    entries.push(m.path);
    const st = m.stat;
    index.push({
      path: m.path, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: m.mode,
      crc: e.crc, method: e.method, compressedSize: e.compressedSize, dataAt,
    });
  };

  /** Writes finished jobs in order until at most `keep` are outstanding. */
  const drain = async (keep: number) => {
    while (jobs.length > keep) {
      const job = jobs.shift()!;
      if (job.kind === 'batch') {
        const r = await job.result;
        let at = 0;
        for (let i = 0; i < job.members.length; i++) {
          const m = job.members[i];
          const e = { name: m.path, method: r.method[i], crc: r.crc[i], compressedSize: r.compressedSize[i], size: m.length, mode: m.mode };
          const dataAt = await zip.add(e, r.output.subarray(at, at + e.compressedSize));
          record(m, e, dataAt);
          at += e.compressedSize;
        }
        r.recycle();
      } else if (job.kind === 'reused') {
        let at = 0;
        for (let i = 0; i < job.members.length; i++) {
          const m = job.members[i];
          const f = job.from[i];
          const e = { name: m.path, method: f.method, crc: f.crc, compressedSize: f.compressedSize, size: f.size, mode: m.mode };
          const dataAt = await zip.add(e, job.bytes.subarray(at, at + f.compressedSize));
          record(m, e, dataAt);
          at += f.compressedSize;
        }
        reused += job.members.length;
      } else {
        await writeStreamed(zip, job, level, streamBuffer, record);
      }
    }
  };

  // The batch being filled: files read one after the other into its input buffer.
  let buffers: { input: ArrayBuffer; output: ArrayBuffer } | undefined;
  let input = Buffer.alloc(0);
  let used = 0;
  let members: Member[] = [];
  let store: boolean[] = [];
  let inlined = 0;
  const dispatch = () => {
    if (!members.length) return;
    const lengths = members.map((m) => m.length);
    if (!started && inlined + used <= INLINE_BYTES) {
      inlined += used;
      const output = Buffer.allocUnsafe(used);
      const r = deflateBatch(zlib, level, input, output, lengths, store);
      jobs.push({ kind: 'batch', members, result: Promise.resolve({ output, crc: r.crc, compressedSize: r.csize, method: r.method, recycle: () => undefined }) });
      // The input was only read from: the next batch fills it again.
      used = 0;
      members = [];
      store = [];
      return;
    }
    // A batch read before the workers started has no output buffer yet.
    const sent = buffers!.output.byteLength >= BATCH_BYTES ? buffers! : { input: buffers!.input, output: new ArrayBuffer(BATCH_BYTES) };
    jobs.push({ kind: 'batch', members, result: pool().run(sent, lengths, store) });
    buffers = undefined;
    input = Buffer.alloc(0);
    used = 0;
    members = [];
    store = [];
  };
  // Reused entries are copied from the previous archive into a buffer of their own.
  let reuseBytes = Buffer.allocUnsafe(BATCH_BYTES);
  let reuseUsed = 0;
  let reuseMembers: Member[] = [];
  let reuseFrom: IndexedEntry[] = [];
  const dispatchReused = () => {
    if (!reuseMembers.length) return;
    jobs.push({ kind: 'reused', members: reuseMembers, from: reuseFrom, bytes: reuseBytes.subarray(0, reuseUsed) });
    reuseBytes = Buffer.allocUnsafe(BATCH_BYTES);
    reuseUsed = 0;
    reuseMembers = [];
    reuseFrom = [];
  };
  /** Keeps the archive's order: what is pending of the other kind goes first. */
  const flushBoth = (next: 'batch' | 'reused') => {
    if (next === 'batch') dispatchReused();
    else dispatch();
  };

  try {
    for (let n = 0; n < selection.files.length; n++) {
      const f = selection.files[n];
      if (signal?.aborted) throw signal.reason ?? new Error('Packaging was cancelled.');
      if ((n & 63) === 0 && performance.now() - lastYield > YIELD_MS) {
        await new Promise<void>((r) => setImmediate(r));
        lastYield = performance.now();
      }
      const before = previous?.entries.get(f.path);
      if (prevReader && mayReuse(before, f, previous!.madeAtMs)) {
        flushBoth('reused');
        if (reuseUsed + before.compressedSize > reuseBytes.length) dispatchReused();
        // A big entry gets a buffer of its own for the moment it is copied.
        if (before.compressedSize > reuseBytes.length) reuseBytes = Buffer.allocUnsafe(before.compressedSize);
        if (prevReader.copy(before.dataAt, before.compressedSize, reuseBytes, reuseUsed)) {
          reuseUsed += before.compressedSize;
          reuseMembers.push({ path: f.path, mode: before.mode, length: before.size, stat: statOf(f) });
          reuseFrom.push(before);
          await drain(maxInFlight);
          continue;
        }
      }
      const opened = openRegularFileSync(absolutePathOf(selection.root, f), { ino: f.ino });
      if (typeof opened === 'string') {
        skipped.push({ path: f.path, reason: opened });
        continue;
      }
      const { fd, stats } = opened;
      const member: Member = {
        path: f.path, mode: modeOf(stats.mode), length: 0,
        stat: { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino },
      };
      if (stats.size > BATCH_BYTES) {
        flushBoth('batch');
        dispatch();
        let sample: Buffer;
        try {
          sample = readSample(fd);
        } catch {
          closeSync(fd);
          skipped.push({ path: f.path, reason: 'unreadable' });
          continue;
        }
        jobs.push({ kind: 'stream', member, fd, store: looksIncompressible(sample) });
        await drain(0);
        continue;
      }
      flushBoth('batch');
      if (buffers && used + stats.size > input.length) dispatch();
      if (!buffers) {
        // Before the workers start, batches are read into one buffer of our own.
        buffers = started || inlined >= INLINE_BYTES ? pool().inputBuffer(0) : { input: new ArrayBuffer(BATCH_BYTES), output: new ArrayBuffer(0) };
        input = Buffer.from(buffers.input);
        used = 0;
      }
      const offset = used;
      let length: number;
      try {
        length = readInto(fd, input, offset, stats.size);
      } catch {
        skipped.push({ path: f.path, reason: 'unreadable' });
        continue;
      } finally {
        closeSync(fd);
      }
      member.length = length;
      const storeIt = length > SAMPLE_ABOVE && looksIncompressible(input.subarray(offset, offset + Math.min(length, 4096)));
      members.push(member);
      store.push(storeIt);
      used += length;
      await drain(maxInFlight);
    }
    dispatch();
    dispatchReused();
    await drain(0);
    await zip.finish();
    const sha256 = await sink.end();
    return { sha256, entries, skipped, index, reused };
  } catch (e) {
    for (const j of jobs) {
      if (j.kind === 'stream') closeSync(j.fd);
      if (j.kind === 'batch') j.result.catch(() => undefined);
    }
    await sink.abort();
    throw e;
  } finally {
    if (prevFd !== undefined) closeSync(prevFd);
    await started?.close();
    scratch.release();
  }
}

function statOf(f: SelectedFile): Member['stat'] {
  return { size: f.size, mtimeMs: f.mtimeMs ?? 0, ctimeMs: f.ctimeMs ?? 0, ino: f.ino ?? 0 };
}

function tryOpen(p: string): number | undefined {
  try {
    return openSync(p, 'r');
  } catch {
    return undefined;
  }
}

/**
 * Reads ranges of the previous archive through a window of a megabyte: entries come in the
 * same order in both archives, so one read serves hundreds of small entries instead of a
 * system call each.
 */
class WindowedReader {
  private readonly window = Buffer.allocUnsafe(1024 * 1024);
  private start = 0;
  private end = 0;

  constructor(private readonly fd: number) {}

  copy(position: number, length: number, into: Buffer, at: number): boolean {
    try {
      if (length > this.window.length) return readFully(this.fd, into, at, length, position);
      if (position < this.start || position + length > this.end) {
        this.start = position;
        this.end = position + readAvailable(this.fd, this.window, position);
        if (position + length > this.end) return false;
      }
      this.window.copy(into, at, position - this.start, position - this.start + length);
      return true;
    } catch {
      return false;
    }
  }
}

function readAvailable(fd: number, buf: Buffer, position: number): number {
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

function readFully(fd: number, buf: Buffer, at: number, length: number, position: number): boolean {
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, at + got, length - got, position + got);
    if (n === 0) return false;
    got += n;
  }
  return true;
}

/** Reads up to `size` bytes (a file that shrank meanwhile gives what is there). */
function readInto(fd: number, buf: Buffer, at: number, size: number): number {
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, at + got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** The first bytes, to judge whether deflating is worth it. */
function readSample(fd: number): Buffer {
  const buf = Buffer.allocUnsafe(4096);
  return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
}

/** A file bigger than a batch: streamed through zlib on the thread pool, sizes in a data descriptor. */
async function writeStreamed(
  zip: ZipWriter,
  job: { member: Member; fd: number; store: boolean },
  level: number,
  readBuffer: Buffer,
  record: (m: Member, e: { crc: number; method: number; compressedSize: number }, dataAt: number) => void,
): Promise<void> {
  const { member, fd } = job;
  let crc = 0;
  let size = 0;
  // One reused read buffer: a stream would allocate a fresh one per read (garbage the size of the file).
  const pieces = (function* () {
    try {
      for (;;) {
        const n = readSync(fd, readBuffer, 0, readBuffer.length, size);
        if (n === 0) return;
        const piece = readBuffer.subarray(0, n);
        crc = zlib.crc32(piece, crc);
        size += n;
        yield piece;
      }
    } finally {
      closeSync(fd);
    }
  })();
  const method = job.store ? METHOD_STORE : METHOD_DEFLATE;
  const data: AsyncIterable<Uint8Array> = job.store ? toAsync(pieces) : deflatePieces(pieces, level);
  const { dataAt, compressedSize } = await zip.addStreamed({ name: member.path, method, mode: member.mode }, data, () => ({ crc, size }));
  member.length = size;
  record(member, { crc, method, compressedSize }, dataAt);
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

/**
 * Deflates pieces of a reused buffer: each piece is handed to zlib and fully consumed
 * (its write callback) before the next is read into the same memory.
 */
async function* deflatePieces(pieces: Iterable<Buffer>, level: number): AsyncGenerator<Uint8Array> {
  const deflate = zlib.createDeflateRaw({ level, chunkSize: 64 * 1024 });
  const out: Buffer[] = [];
  let error: Error | undefined;
  deflate.on('data', (c: Buffer) => out.push(c));
  deflate.on('error', (e: Error) => { error = e; });
  try {
    for (const piece of pieces) {
      await new Promise<void>((resolve, reject) => deflate.write(piece, (e) => (e ? reject(e) : resolve())));
      while (out.length) yield out.shift()!;
    }
    await new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
      deflate.end();
    });
    if (error) throw error;
    while (out.length) yield out.shift()!;
  } finally {
    deflate.destroy();
  }
}

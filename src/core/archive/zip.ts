// Packaging a selection into a zip archive. The main thread opens and reads each file (with
// the checks of safeOpen.ts) into batches; worker threads compute CRCs and deflate (a fresh
// zlib state per file, so the same files always give the same bytes), and the main thread
// deflates a batch itself whenever the workers have enough; it writes the entries in the
// selection's order. Files unchanged since the
// folder's last full scan are not read at all: runs of them are copied from that archive as
// they are stored there (headers, data and descriptors), a few reads for thousands of files.
/* eslint-disable max-lines, max-lines-per-function -- writeZip's shared state is still to become an object of named fields, and the writer a room of its own (issue 58) */
import { closeSync, promises as fsp, openSync, readSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { comparePaths, pathStart, type FileList } from '../workspace/fileList';
import { isNotFound, openRegularFileSync } from '../workspace/safeOpen';
import { absolutePathOf, followLinkInside, lstatQuiet, type Selection, type SkippedFile } from '../workspace/selectFiles';
import { ArchiveIndexBuilder, type ArchiveIndex } from './archiveIndex';
import { looksIncompressible } from './compressibility';
import { DeflatePool, DeflateWorkerOutOfMemory, PART_LAST, PART_MORE, WORKER_OLD_GENERATION_MB, deflateBatch, deflateOnThreadPool, deflateWhole, defaultWorkerCount, nativeDeflate, type BatchResult, type NativeDeflateClass } from './deflatePool';
import { HashingFileSink } from './fileSink';
import { mayReuse, type ReusableArchive } from './reuseCache';
import { FLAG_DATA_DESCRIPTOR, METHOD_DEFLATE, METHOD_STORE, ZipWriter, type StreamedEntry } from './zipFormat';
import { takeScratch } from '../scratch';
import { BINARY_SNIFF_BYTES, isBinaryContent } from '../workspace/binaryContent';

/** An archive on disk as an upload needs it. */
export interface ArchiveRef {
  path: string;
  /** File name sent to the service, e.g. `project.zip`. */
  name: string;
  size: number;
  sha256: string;
}

export interface BuiltArchive extends ArchiveRef {
  /** Every entry written, in archive order: its path, where its bytes are, the file it was made from (ReuseCache.keep). */
  index: ArchiveIndex;
  /**
   * Files that vanished or became unreadable between selection and packaging; with the
   * selection's look at each file left to packaging (Selection.statsLater), also those it
   * would have left out: over the size limit, not a regular file, a link leading out.
   */
  skipped: SkippedFile[];
  /** When packaging started (ms since the epoch). */
  madeAtMs: number;
  level: number;
  /** How many entries were copied from the previous archive instead of deflated. */
  reused: number;
  /** Deletes the archive and its private directory. Safe to call more than once. */
  dispose(): Promise<void>;
}

export interface BuildZipOptions {
  /** Parent of the private temporary directory. Default: the OS temp dir. */
  tmpRoot?: string;
  name?: string;
  /** Deflate level, 0-9. Default DEFAULT_LEVEL. */
  level?: number;
  signal?: AbortSignal;
  /** The folder's last archive, whose entries may be copied (ReuseCache.load). */
  previous?: ReusableArchive;
  /** Threads deflating besides the main thread; default one per further core (1-3). */
  workers?: number;
  /**
   * Deflate workers started ahead (startDeflateWorkers), typically when the selection
   * started: packaging takes them over (unless they deflate at another level) and stops
   * them when it is done, whether it succeeded or not.
   */
  workersStarted?: DeflatePool;
  /**
   * The deflate workers' old generation limit in MB; default WORKER_OLD_GENERATION_MB, 0 for
   * V8's own. Should a worker run out, packaging starts again once without a limit.
   */
  workerOldGenerationMb?: number;
  /**
   * Bytes deflated on the main thread alone before workers start, when none were started
   * ahead; default INLINE_BYTES, which also packages a folder with no more than that to
   * deflate without workers.
   */
  inlineBytes?: number;
}

/**
 * zlib's level 5, one below Info-ZIP's default: on the bench trees it deflates in 65-75 %
 * of level 6's time (babel's files: 0.96-0.99 s against 1.32-1.46 s of one core; the small
 * library's 78-84 against 119-139 ms) for 0.4-2.4 % more deflated bytes, and the archive
 * stays smaller than Info-ZIP's at its default -6 (babel 18.2 against 19.3 MiB). Level 4
 * would save another quarter of the time for 4-6 % more bytes, which a slow uplink pays
 * back in the upload.
 */
export const DEFAULT_LEVEL = 5;

/**
 * Starts the deflate workers of a packaging that is about to come: a worker takes 60-130 ms
 * to come online in a fresh process (Node 24, 2 cores), time the selection before packaging
 * hides when they start with it. Hand them to buildZip (`workersStarted`), or close() them
 * when there is nothing to package. WorkersAhead decides whether a first scan needs them.
 */
export function startDeflateWorkers(level = DEFAULT_LEVEL, workers = defaultWorkerCount()): DeflatePool {
  return new DeflatePool(level, workers, BATCH_BYTES);
}

/**
 * A first scan of a folder with this many files starts its deflate workers while the
 * selection runs; a smaller one is packaged on the main thread alone up to INLINE_BYTES.
 * A worker's start costs more than it saves on a small library (hundreds of files) and
 * less on one of thousands. How many files git tracks is known early (its index is listed
 * first), how many bytes only at the selection's end.
 */
export const EARLY_WORKER_FILES = 2_500;

/**
 * The deflate workers of a first scan: started as soon as the selection tells how many
 * files the folder has (SelectOptions.onCount), when that is EARLY_WORKER_FILES or more.
 */
export class WorkersAhead {
  private started: DeflatePool | undefined;
  /** For SelectOptions.onCount; told again (a selection run twice), it starts nothing more. */
  readonly onCount = (files: number): void => {
    if (files >= EARLY_WORKER_FILES) this.started ??= startDeflateWorkers();
  };

  /** The workers, once started: buildZip's `workersStarted`. */
  get pool(): DeflatePool | undefined {
    return this.started;
  }

  /** Stops them, if started and not handed to packaging (which stops them itself). */
  async close(): Promise<void> {
    await this.started?.close();
  }
}

/** Above this, a quick look at the first bytes decides whether deflating is worth trying. */
const SAMPLE_ABOVE = 64 * 1024;
/** Batches handed to the workers and not yet written, per worker: enough to keep them busy. */
const IN_FLIGHT_PER_WORKER = 2;
/** Files are handed to the deflate workers in batches of this many bytes; bigger files are deflated on their own. */
const BATCH_BYTES = 256 * 1024;
/**
 * The first bytes to deflate are deflated on the main thread: starting workers takes longer
 * than deflating a few files (a re-scan with a handful of changed files, a small folder). A
 * folder with no more than this to deflate is packaged without workers, unless they were
 * started ahead (EARLY_WORKER_FILES). A worker in a fresh process comes online 60-130 ms
 * after its start, while this thread deflates ~30 MB/s of source code.
 */
const INLINE_BYTES = 4 * 1024 * 1024;
/** The main thread yields to the event loop at least this often (ms) while packaging. */
const YIELD_MS = 10;
const BLOCK = 2 * 1024 * 1024;
/**
 * Without deflate workers (a small folder), files of this size or more are deflated on
 * libuv's thread pool while the main thread reads and deflates the rest: the small library
 * bench tree has 39 such files, half its bytes.
 */
const THREAD_POOL_BYTES = 16 * 1024;
/**
 * The first this many files the main thread deflates, it takes a batch as soon as every
 * worker has one waiting behind the one it works on (see deflateHereNow); after them, only
 * when each has two. A fresh host's worker comes online tens of milliseconds after it is
 * started, and this thread would otherwise wait for it. Each deflate here left garbage
 * until the host's next full collection with deflateRawSync (Node's handle, used since,
 * leaves a small wrapper; the bound was not measured again): without a bound a tree of many
 * small files packaged faster for megabytes more of peak RSS. The bound keeps that to a few
 * megabytes whatever the tree.
 */
const SOONER_FILES = 4_000;
/**
 * A file bigger than a batch is deflated in parts of this many bytes, each with the 32 KB
 * before it as dictionary (DICTIONARY_BYTES): the parts go to the workers or the main thread
 * as batches do, so a big file no longer keeps one core busy while the rest wait for it
 * to be written, and each part is written as soon as its turn comes, so no file's
 * compressed bytes are held whole. Part and dictionary fill one batch buffer.
 */
const DICTIONARY_BYTES = 32 * 1024;
const PART_BYTES = BATCH_BYTES - DICTIONARY_BYTES;

/**
 * Zips the selected files into a temporary file in a private (0700) directory. Entries are
 * in the selection's sorted order with a fixed date, so the same files give the same bytes.
 */
export async function buildZip(selection: Selection, opts: BuildZipOptions = {}): Promise<BuiltArchive> {
  try {
    return await packageSelection(selection, opts);
  } finally {
    // Workers handed over stop here whatever happened (writeZip stops them already when it used them).
    await opts.workersStarted?.close();
  }
}

async function packageSelection(selection: Selection, opts: BuildZipOptions): Promise<BuiltArchive> {
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
    let r: Awaited<ReturnType<typeof writeZip>> | undefined;
    for (let attempt: BuildZipOptions = opts; !r;) {
      try {
        r = await writeZip(selection, archivePath, level, attempt);
      } catch (e) {
        // Package from scratch once more (the workers of the first attempt were stopped with
        // it) when the kept archive was replaced or damaged since its index was written, or
        // when a deflate worker ran out of the memory it was given.
        if (e instanceof PreviousArchiveMismatch && attempt.previous) attempt = { ...attempt, previous: undefined, workersStarted: undefined };
        else if (e instanceof DeflateWorkerOutOfMemory && attempt.workerOldGenerationMb !== 0) attempt = { ...attempt, workerOldGenerationMb: 0, workersStarted: undefined };
        else throw e;
        await fsp.rm(archivePath, { force: true });
      }
    }
    const size = (await fsp.stat(archivePath)).size;
    return { path: archivePath, name, size, ...r, madeAtMs, level, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** One file read for the archive (a big one, on its own): which file of the selection, and what it was when opened. */
interface Member { file: number; mode: number; mtimeMs: number; ctimeMs: number; ino: number }

/** At most this many files in one batch (empty and tiny files fill no bytes). */
const MAX_BATCH_FILES = 1024;

/**
 * The files of a batch, in typed arrays: the files in flight (a few batches of hundreds)
 * live through young-generation collections, and as objects they made V8 grow it.
 */
class BatchFiles {
  readonly file = new Uint32Array(MAX_BATCH_FILES);
  readonly length = new Float64Array(MAX_BATCH_FILES);
  readonly mode = new Uint16Array(MAX_BATCH_FILES);
  readonly mtimeMs = new Float64Array(MAX_BATCH_FILES);
  readonly ctimeMs = new Float64Array(MAX_BATCH_FILES);
  readonly ino = new Float64Array(MAX_BATCH_FILES);
  /** 1 when the file is stored as it is (it does not look compressible). */
  readonly store = new Uint8Array(MAX_BATCH_FILES);
  count = 0;

  push(file: number, length: number, mode: number, st: { mtimeMs: number; ctimeMs: number; ino: number }, store: boolean): void {
    const k = this.count++;
    this.file[k] = file;
    this.length[k] = length;
    this.mode[k] = mode;
    this.mtimeMs[k] = st.mtimeMs;
    this.ctimeMs[k] = st.ctimeMs;
    this.ino[k] = st.ino;
    this.store[k] = store ? 1 : 0;
  }

  get full(): boolean {
    return this.count === MAX_BATCH_FILES;
  }
}

type Job =
  | { kind: 'batch'; files: BatchFiles; result: Promise<BatchResult> }
  /** Entries `from`.. of the previous archive for files `file`.. of the selection; `member` when the file was read (same content, other times). */
  | { kind: 'copy'; from: number; file: number; count: number; member?: Member }
  /**
   * A part of a file bigger than a batch, written into its entry when its turn comes: the
   * first begins the entry, the last ends it with the file's CRC and size (a data descriptor).
   */
  | { kind: 'part'; member: Member; result: Promise<BatchResult>; first: boolean; end?: { crc: number; size: number } }
  /** A file bigger than a batch that does not compress: read and stored when its turn comes. */
  | { kind: 'stored'; member: Member; fd: number };

let mainThreadNative: NativeDeflateClass | null | undefined;
/** This thread's zlib handle class for deflateWhole, looked for once (null: none). */
function thisThreadNative(): NativeDeflateClass | undefined {
  if (mainThreadNative === undefined) mainThreadNative = nativeDeflate(zlib, deflateWhole) ?? null;
  return mainThreadNative ?? undefined;
}

function modeOf(statMode: number): number {
  return statMode & 0o111 ? 0o755 : 0o644;
}

/**
 * Whether `data` is exactly the content entry `j` of the previous archive was made from:
 * same size and CRC-32, and the same bytes once the entry is inflated (done only for files
 * whose times changed, which are few: a branch switched back, a tool rewriting a file).
 */
function sameContent(fd: number, p: ArchiveIndex, j: number, data: Buffer): boolean {
  const c = p.columns;
  if (c.size[j] !== data.length || c.crc[j] !== zlib.crc32(data)) return false;
  const stored = Buffer.allocUnsafe(c.compressedSize[j]);
  if (!readFully(fd, stored, 0, stored.length, c.dataAt[j])) return false;
  try {
    return (c.method[j] === METHOD_STORE ? stored : zlib.inflateRawSync(stored, { maxOutputLength: Math.max(1, data.length) })).equals(data);
  } catch {
    return false;
  }
}

async function writeZip(selection: Selection, archivePath: string, level: number, opts: BuildZipOptions) {
  const { signal, previous } = opts;
  const files = selection.files;
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
  // A re-scan starts workers once it has read INLINE_BYTES that must be deflated (an
  // unchanged tree needs none); a first scan of more than that starts them at once (if not
  // started ahead), so they come online while the main thread deflates the first files itself.
  let started = opts.workersStarted?.level === level ? opts.workersStarted : undefined;
  const workerCount = started?.size ?? opts.workers ?? defaultWorkerCount();
  const pool = () => (started ??= new DeflatePool(level, workerCount, BATCH_BYTES, opts.workerOldGenerationMb ?? WORKER_OLD_GENERATION_MB));
  const inlineBytes = opts.inlineBytes ?? INLINE_BYTES;
  // Files whose sizes the selection left to packaging (Selection.statsLater) are in a folder
  // big enough to have its workers started ahead.
  const later = selection.statsLater;
  if (!previous && (selection.totalBytes > inlineBytes || later)) pool();
  const maxInFlight = IN_FLIGHT_PER_WORKER * workerCount + 1;
  // Parts of a big file the main thread deflates while the workers hold theirs wait to be
  // written after those: with the batches' limit, this thread stopped for a worker's part
  // every other part (the 100,000-file bench tree's packaging 5.0-5.4 s; 3.5-4.8 s with this).
  const maxPartsInFlight = 2 * maxInFlight + 1;
  const prevFd = previous ? tryOpen(previous.path) : undefined;
  const prev = prevFd === undefined ? undefined : previous!.index;
  const index = new ArchiveIndexBuilder(files.length, files);
  const skipped: SkippedFile[] = [];
  let reused = 0;
  const jobs: Job[] = [];
  const storeBuffer = Buffer.allocUnsafe(256 * 1024);
  const spareFiles: BatchFiles[] = [];
  let lastYield = performance.now();

  /** The index row of an entry just written (its data ends at the writer's offset). */
  const record = (file: number, size: number, mode: number, st: { mtimeMs: number; ctimeMs: number; ino: number }, e: { crc: number; method: number; compressedSize: number; flags: number }, headerAt: number) => {
    const nameLen = files.ends[file] - pathStart(files, file);
    const endAt = zip.offset;
    // A header with known sizes of 4 GiB or more carries them in a ZIP64 extra field (a streamed one never does).
    const streamed = (e.flags & FLAG_DATA_DESCRIPTOR) !== 0;
    const zip64Extra = !streamed && (size >= 0xffffffff || e.compressedSize >= 0xffffffff) ? 20 : 0;
    const dataAt = headerAt + 30 + nameLen + zip64Extra;
    index.add(files, file, { size, mode, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, crc: e.crc, method: e.method, compressedSize: e.compressedSize, flags: e.flags, headerAt, dataAt, endAt });
  };

  /** Entries of the previous archive, appended as they are stored there. */
  const copyEntries = async (job: Extract<Job, { kind: 'copy' }>) => {
    const p = prev!;
    const c = p.columns;
    const first = job.from;
    const last = job.from + job.count - 1;
    const start = c.headerAt[first];
    checkLocalHeader(prevFd!, p, first);
    if (last !== first) checkLocalHeader(prevFd!, p, last);
    const base = zip.offset;
    await zip.copyRaw(prevFd!, start, c.endAt[last] - start);
    reused += job.count;
    // Unchanged files: the same paths and numbers as before, only where they are moved.
    if (!job.member) {
      index.addRun(p, first, job.count, base - start, job.file);
      return;
    }
    for (let k = 0; k < job.count; k++) {
      const j = first + k;
      const i = job.file + k;
      const m = job.member;
      index.add(files, i, {
        size: c.size[j], mtimeMs: m ? m.mtimeMs : files.mtimeMs(i), ctimeMs: m ? m.ctimeMs : files.ctimeMs(i), ino: m ? m.ino : files.ino(i), mode: m ? m.mode : c.mode[j],
        crc: c.crc[j], method: c.method[j], compressedSize: c.compressedSize[j], flags: c.flags[j],
        headerAt: base + (c.headerAt[j] - start), dataAt: base + (c.dataAt[j] - start), endAt: base + (c.endAt[j] - start),
      });
    }
  };

  /** The entry of a big file whose parts are being written. */
  let open: { headerAt: number; entry: StreamedEntry } | undefined;
  /** Writes finished jobs in order until at most `keep` are outstanding. */
  const drain = async (keep: number) => {
    while (jobs.length > keep) {
      const job = jobs.shift()!;
      if (job.kind === 'batch') {
        const r = await job.result;
        const b = job.files;
        let at = 0;
        for (let k = 0; k < b.count; k++) {
          const e = { method: r.method[k], crc: r.crc[k], compressedSize: r.compressedSize[k], size: b.length[k] };
          const headerAt = zip.offset;
          const flags = await zip.write(files, b.file[k], e, r.output.subarray(at, at + e.compressedSize));
          record(b.file[k], b.length[k], b.mode[k], { mtimeMs: b.mtimeMs[k], ctimeMs: b.ctimeMs[k], ino: b.ino[k] }, { ...e, flags }, headerAt);
          at += e.compressedSize;
        }
        r.recycle();
        b.count = 0;
        spareFiles.push(b);
      } else if (job.kind === 'copy') {
        await copyEntries(job);
      } else if (job.kind === 'part') {
        if (job.first) open = { headerAt: zip.offset, entry: await zip.beginStreamed(files, job.member.file, METHOD_DEFLATE) };
        const r = await job.result;
        await zip.appendStreamed(r.output.subarray(0, r.compressedSize[0]));
        r.recycle();
        if (job.end) {
          const m = job.member;
          const e = await zip.endStreamed(open!.entry, job.end.crc, job.end.size);
          record(m.file, job.end.size, m.mode, m, { method: METHOD_DEFLATE, crc: job.end.crc, compressedSize: e.compressedSize, flags: e.flags }, open!.headerAt);
          open = undefined;
        }
      } else {
        const headerAt = zip.offset;
        const w = await writeStored(zip, files, job, storeBuffer);
        record(job.member.file, w.size, job.member.mode, job.member, { crc: w.crc, method: METHOD_STORE, compressedSize: w.compressedSize, flags: w.flags }, headerAt);
      }
    }
  };

  // The batch being filled: files read one after the other into its input buffer.
  let buffers: { input: ArrayBuffer; output: ArrayBuffer } | undefined;
  let input = Buffer.alloc(0);
  let used = 0;
  let batch = new BatchFiles();
  let inlined = 0;
  /** Bytes of the selection's files the loop has passed, whatever it did with them. */
  let bytesSeen = 0;
  /** Files the loop has passed when their sizes are packaging's to learn (Selection.statsLater). */
  let filesSeen = 0;
  /** Bytes of the selection's files still to come; with sizes left to packaging, as many more as the average so far. */
  const bytesLeft = () => !later ? selection.totalBytes - bytesSeen : filesSeen ? bytesSeen / filesSeen * (files.length - filesSeen) : Infinity;
  const finishBatch = (result: Promise<BatchResult>, keepInput: boolean) => {
    jobs.push({ kind: 'batch', files: batch, result });
    if (!keepInput) {
      buffers = undefined;
      input = Buffer.alloc(0);
    }
    used = 0;
    batch = spareFiles.pop() ?? new BatchFiles();
  };
  /** Entries laid out in `from` deflated on this thread, as a worker's answer would give them. */
  const deflateOnThisThread = (from: Buffer, output: Buffer, lengths: ArrayLike<number>, store: ArrayLike<number>, recycle: () => void, dict?: ArrayLike<number>): Promise<BatchResult> => {
    const r = deflateBatch(zlib, deflateWhole, thisThreadNative(), level, from, output, lengths, store, dict);
    return Promise.resolve({ output, crc: r.crc, compressedSize: r.csize, method: r.method, recycle });
  };
  /** A whole file deflated on the thread pool (deflateOnThreadPool), as a batch of one would give it back. */
  const deflateOwnOnThreadPool = async (data: Buffer): Promise<BatchResult> => {
    const output = Buffer.allocUnsafe(data.length);
    const crc = Uint32Array.of(zlib.crc32(data));
    const n = await deflateOnThreadPool(zlib, thisThreadNative()!, data, output, level);
    if (n < 0) data.copy(output);
    return { output, crc, compressedSize: Float64Array.of(n < 0 ? data.length : n), method: Uint8Array.of(n < 0 ? 0 : 8), recycle: () => undefined };
  };
  const deflateHere = (output: Buffer, recycle: () => void) =>
    deflateOnThisThread(input, output, batch.length.subarray(0, batch.count), batch.store.subarray(0, batch.count), recycle);
  /**
   * Whether this thread deflates the next batch (or part) itself rather than hand it to a
   * worker: when every worker has as many batches waiting as it may, not sooner, as each
   * deflate here leaves memory behind until the host's next full collection; sooner for
   * the first files it deflates (SOONER_FILES). Near the end too: once what is left to read
   * (`left` bytes) fits in what the workers have waiting, a batch posted now would be
   * deflated after them while this thread sat idle.
   */
  let deflatedHere = 0;
  const deflateHereNow = (left: number) => {
    const backlog = started ? started.backlog : 0;
    return backlog >= (deflatedHere < SOONER_FILES ? 1 : IN_FLIGHT_PER_WORKER) || (backlog >= 1 && left <= backlog * BATCH_BYTES);
  };
  const dispatch = () => {
    if (!batch.count) return;
    if (!started && inlined + used <= inlineBytes) {
      inlined += used;
      // The input was only read from: the next batch fills it again.
      finishBatch(deflateHere(Buffer.allocUnsafe(used), () => undefined), true);
      return;
    }
    // Whatever its files, a batch is deflated here when the workers are behind: this thread
    // takes their share when the other core gives less. It once took batches of 64 files or
    // fewer only, as each deflate with deflateRawSync left its stream object on this thread's
    // heap until a full collection; Node's handle (deflateWhole) leaves its small wrapper, and
    // without the bound packaging is faster for the same peak RSS (bench HISTORY, 2026-11-27).
    if (started && deflateHereNow(bytesLeft()) && buffers!.output.byteLength >= used) {
      const taken = buffers!;
      const p = started;
      deflatedHere += batch.count;
      finishBatch(deflateHere(Buffer.from(taken.output), () => p.giveBack(taken)), false);
      return;
    }
    // A batch read before the workers started has no output buffer yet.
    const sent = buffers!.output.byteLength >= BATCH_BYTES ? buffers! : { input: buffers!.input, output: new ArrayBuffer(BATCH_BYTES) };
    // Copies of just the batch's part (a view would carry its whole buffer to the worker).
    finishBatch(pool().run(sent, batch.length.slice(0, batch.count), batch.store.slice(0, batch.count)), false);
  };

  /**
   * One part of a big file, read into `bufs` after its dictionary: deflated here or by a
   * worker by the rule batches follow. Before the workers start (the first INLINE_BYTES
   * without workers started ahead), here, in buffers of its own.
   */
  const deflatePart = (bufs: { input: ArrayBuffer; output: ArrayBuffer }, dictionary: number, length: number, last: boolean, left: number): Promise<BatchResult> => {
    const lengths = Float64Array.of(length);
    const what = Uint8Array.of(last ? PART_LAST : PART_MORE);
    const dict = Float64Array.of(dictionary);
    if (!started || deflateHereNow(left)) {
      if (!started) inlined += length;
      else deflatedHere++;
      const p = started;
      return deflateOnThisThread(Buffer.from(bufs.input, 0, dictionary + length), Buffer.from(bufs.output), lengths, what, () => p?.giveBack(bufs), dict);
    }
    return started.run(bufs, lengths, what, dict);
  };
  /**
   * Reads a big file part by part (the last part ends at the size it had when opened, or
   * where it ends if it shrank since), each deflated as soon as it is read and queued to be
   * written in its turn; the CRC is computed here over the whole file. Yields to the event
   * loop as the file loop does (a file of hundreds of megabytes is seconds of work), and
   * writes what is ready as it goes, so at most a few parts are held. False when the first
   * read fails (the file is left out as unreadable); a read that fails later fails the
   * packaging, as the entry is begun. Closes the descriptor.
   */
  const readBig = async (fd: number, member: Member, size: number, left: number): Promise<boolean> => {
    let crc = 0;
    let at = 0;
    try {
      for (let last = false; !last;) {
        if (performance.now() - lastYield > YIELD_MS) {
          await new Promise<void>((r) => setImmediate(r));
          lastYield = performance.now();
          if (signal?.aborted) throw signal.reason ?? new Error('Packaging was cancelled.');
        }
        // Workers start once what is read here (on a re-scan, after INLINE_BYTES) needs them.
        if (!started && inlined >= inlineBytes) pool();
        const bufs = started ? started.inputBuffer(0) : { input: new ArrayBuffer(BATCH_BYTES), output: new ArrayBuffer(BATCH_BYTES) };
        const input = Buffer.from(bufs.input);
        const dictionary = Math.min(DICTIONARY_BYTES, at);
        const want = Math.min(PART_BYTES, size - at);
        let read: number;
        try {
          read = readInto(fd, input, 0, dictionary + want, at - dictionary);
        } catch (e) {
          started?.giveBack(bufs);
          if (at === 0) return false;
          throw new Error(`${files.path(member.file)} could not be read while it was packaged: ${e instanceof Error ? e.message : String(e)}`);
        }
        // A file that shrank to where the part before ended gets an empty last part, which ends the stream.
        const got = Math.max(0, read - dictionary);
        last = got < want || at + got >= size;
        crc = zlib.crc32(input.subarray(dictionary, dictionary + got), crc);
        const result = deflatePart(bufs, dictionary, got, last, left - at);
        // A part that fails (a worker stopped) rejects where it is written, or nowhere if packaging stops first.
        result.catch(() => undefined);
        jobs.push({ kind: 'part', member, result, first: at === 0, ...(last ? { end: { crc, size: at + got } } : {}) });
        at += got;
        await drain(maxPartsInFlight);
      }
    } finally {
      closeSync(fd);
    }
    return true;
  };

  // A run of files unchanged since the previous archive: copied as one range when written.
  let run: Extract<Job, { kind: 'copy' }> | undefined;
  const endRun = () => {
    if (run) jobs.push(run);
    run = undefined;
  };

  try {
    let j = 0;
    for (let n = 0; n < files.length; bytesSeen += files.size(n++)) {
      if (signal?.aborted) throw signal.reason ?? new Error('Packaging was cancelled.');
      if ((n & 63) === 0 && performance.now() - lastYield > YIELD_MS) {
        await new Promise<void>((r) => setImmediate(r));
        lastYield = performance.now();
      }
      // Both lists are in ascending byte order: the previous entry of this path, if any, is
      // found walking forward, unless the selection found it there already.
      let before = prev ? files.positionIn(prev, n) : -1;
      if (before >= 0) {
        j = before;
      } else if (prev) {
        let c = -1;
        while (j < prev.length && (c = comparePaths(prev, j, files, n)) < 0) j++;
        if (c === 0) before = j;
      }
      if (before >= 0 && mayReuse(previous!, before, files, n)) {
        dispatch();
        if (run && run.from + run.count === before && run.file + run.count === n) {
          run.count++;
        } else {
          endRun();
          run = { kind: 'copy', from: before, file: n, count: 1 };
        }
        continue;
      }
      endRun();
      filesSeen = n;
      const opened = later ? openLater(selection.root, later.realRoot, files.path(n)) : openRegularFileSync(absolutePathOf(selection.root, files.target(n) ?? files.path(n)), { ino: files.ino(n) });
      if (typeof opened === 'string') {
        // Gone since git listed it: dropped, as the selection drops a file deleted (a broken link is 'missing').
        if (opened !== 'gone') skipped.push({ path: files.path(n), reason: opened });
        continue;
      }
      const { fd, stats } = opened;
      if (later) {
        if (stats.size > later.maxSize) {
          closeSync(fd);
          skipped.push({ path: files.path(n), reason: 'too-large' });
          continue;
        }
        // The loop counts it into bytesSeen from there, as it does a size the selection found.
        files.learnStats(n, stats);
      }
      if (stats.size > BATCH_BYTES) {
        let sample: Buffer;
        try {
          sample = readSample(fd);
        } catch {
          closeSync(fd);
          skipped.push({ path: files.path(n), reason: 'unreadable' });
          continue;
        }
        if (isBinaryContent(sample)) {
          closeSync(fd);
          skipped.push({ path: files.path(n), reason: 'binary' });
          continue;
        }
        dispatch();
        const member: Member = { file: n, mode: modeOf(stats.mode), mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
        if (looksIncompressible(sample)) {
          jobs.push({ kind: 'stored', member, fd });
        } else {
          if (!await readBig(fd, member, stats.size, bytesLeft())) {
            skipped.push({ path: files.path(n), reason: 'unreadable' });
            continue;
          }
        }
        await drain(maxInFlight);
        continue;
      }
      if (buffers && (used + stats.size > input.length || batch.full)) dispatch();
      if (!buffers) {
        // Before the workers start, batches are read into one buffer of our own.
        buffers = started || inlined >= inlineBytes ? pool().inputBuffer(0) : { input: new ArrayBuffer(BATCH_BYTES), output: new ArrayBuffer(0) };
        input = Buffer.from(buffers.input);
        used = 0;
      }
      const offset = used;
      let length: number;
      try {
        length = readInto(fd, input, offset, stats.size);
      } catch {
        skipped.push({ path: files.path(n), reason: 'unreadable' });
        continue;
      } finally {
        closeSync(fd);
      }
      const data = input.subarray(offset, offset + length);
      // Binary by its content (a NUL near the start), whatever its name: left out, like a binary asset.
      if (isBinaryContent(data)) {
        skipped.push({ path: files.path(n), reason: 'binary' });
        continue;
      }
      // Touched but not changed (a branch switched back, a tool rewriting the same bytes): the old entry still holds.
      if (before >= 0 && sameContent(prevFd!, prev!, before, data)) {
        dispatch();
        jobs.push({ kind: 'copy', from: before, file: n, count: 1, member: { file: n, mode: modeOf(stats.mode), mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino } });
        await drain(maxInFlight);
        continue;
      }
      const store = length > SAMPLE_ABOVE && looksIncompressible(data.subarray(0, Math.min(length, 4096)));
      if (!started && !store && length >= THREAD_POOL_BYTES && inlined + used + length <= inlineBytes && thisThreadNative()) {
        // No workers: this file goes to the thread pool, in its own buffers, after the files before it.
        const own = Buffer.from(data);
        dispatch();
        inlined += length;
        const single = spareFiles.pop() ?? new BatchFiles();
        single.push(n, length, modeOf(stats.mode), stats, false);
        const result = deflateOwnOnThreadPool(own);
        // Awaited when its turn comes, or never when packaging fails first: no unhandled rejection meanwhile.
        result.catch(() => undefined);
        jobs.push({ kind: 'batch', files: single, result });
        await drain(maxInFlight);
        continue;
      }
      batch.push(n, length, modeOf(stats.mode), stats, store);
      used += length;
      await drain(maxInFlight);
    }
    dispatch();
    endRun();
    await drain(0);
    const built = index.build(selection.rulesKey);
    await zip.finish(built);
    const sha256 = await sink.end();
    return { sha256, index: built, skipped, reused };
  } catch (e) {
    for (const job of jobs) if (job.kind === 'stored') closeSync(job.fd);
    await sink.abort();
    throw e;
  } finally {
    if (prevFd !== undefined) closeSync(prevFd);
    await started?.close();
    scratch.release();
  }
}

/** The kept archive does not hold what its index says: nothing may be copied from it. */
class PreviousArchiveMismatch extends Error {}

/**
 * The previous archive must hold, where its index says, a local header of the entry with
 * that name: otherwise the index and the archive do not belong together and nothing is copied.
 */
function checkLocalHeader(fd: number, p: ArchiveIndex, j: number): void {
  const nameStart = pathStart(p, j);
  const nameLen = p.ends[j] - nameStart;
  const head = Buffer.allocUnsafe(30 + nameLen);
  const at = p.columns.headerAt[j];
  if (!readFully(fd, head, 0, head.length, at) || head.readUInt32LE(0) !== 0x04034b50 || head.readUInt16LE(26) !== nameLen
    || head.compare(p.names, nameStart, p.ends[j], 30, 30 + nameLen) !== 0 || at + 30 + nameLen + head.readUInt16LE(28) !== p.columns.dataAt[j]) {
    throw new PreviousArchiveMismatch();
  }
}

function tryOpen(p: string): number | undefined {
  try {
    return openSync(p, 'r');
  } catch {
    return undefined;
  }
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

/**
 * Opens a file the selection judged by name and folder only (Selection.statsLater), as the
 * selection would have looked at it: a regular file as it is, a link only to a regular file
 * inside the folder (its target opened), anything else refused.
 */
function openLater(root: string, realRoot: string, rel: string): ReturnType<typeof openRegularFileSync> | 'symlink-outside' | 'gone' {
  const abs = absolutePathOf(root, rel);
  const opened = openRegularFileSync(abs);
  if (opened === 'missing') return 'gone';
  // O_NOFOLLOW refuses a link as not-a-file: only then is it worth an lstat to tell.
  if (opened !== 'not-a-file') return opened;
  const st = lstatQuiet(abs);
  if (st instanceof Error || !st.isSymbolicLink()) return st instanceof Error && isNotFound(st) ? 'gone' : 'not-a-file';
  const followed = followLinkInside(realRoot, abs);
  if (typeof followed === 'string') return followed;
  return followed.st.isFile() ? openRegularFileSync(absolutePathOf(realRoot, followed.target), { ino: followed.st.ino }) : 'not-a-file';
}

/** Reads up to `size` bytes from `position` (a file that shrank meanwhile gives what is there). */
function readInto(fd: number, buf: Buffer, at: number, size: number, position = 0): number {
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, at + got, size - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** The first bytes, to judge whether deflating is worth it. */
function readSample(fd: number): Buffer {
  const buf = Buffer.allocUnsafe(BINARY_SNIFF_BYTES);
  return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
}

/** A big file that does not compress: stored, read piece by piece into the archive, sizes in a data descriptor. */
async function writeStored(zip: ZipWriter, files: FileList, job: { member: Member; fd: number }, readBuffer: Buffer): Promise<{ crc: number; size: number; compressedSize: number; flags: number }> {
  const { member, fd } = job;
  let crc = 0;
  let size = 0;
  // One reused read buffer: each piece is copied into the archive's block before the next read.
  const pieces = (async function* () {
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
  const { flags, compressedSize } = await zip.writeStreamed(files, member.file, METHOD_STORE, pieces, () => ({ crc, size }));
  return { crc, size, compressedSize, flags };
}

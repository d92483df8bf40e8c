// Packaging a selection into a zip archive. The main thread opens and reads each file (with
// the checks of safeOpen.ts) into batches (filePacker.ts); worker threads compute CRCs and
// deflate (a fresh zlib state per file, so the same files always give the same bytes), and
// the main thread deflates a batch itself whenever the workers have enough (batchDeflater.ts);
// the entries are written in the selection's order (entryQueue.ts). Files unchanged since the
// folder's last full scan are not read at all: runs of them are copied from that archive as
// they are stored there (headers, data and descriptors), a few reads for thousands of files.
import { closeSync, promises as fsp, openSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SkippedFile, Selection } from '../workspace/selection';
import { ArchiveIndexBuilder, type ArchiveIndex } from './archiveIndex';
import { BATCH_BYTES } from './batchDeflater';
import { DeflatePool, DeflateWorkerOutOfMemory, defaultWorkerCount } from './deflatePool';
import { EntryQueue, PreviousArchiveMismatch } from './entryQueue';
import { FilePacker } from './filePacker';
import { HashingFileSink } from './fileSink';
import type { ReusableArchive } from './reuseCache';
import { ZipWriter } from './zipFormat';
import { takeScratch } from '../scratch';
import { l10n } from '../text/l10n';

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
    throw new Error(l10n.t('The archive name "{0}" must be a plain file name ending in .zip.', name));
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

/** One sink block; the sink holds two, one filled while the other is written. */
const BLOCK = 2 * 1024 * 1024;

async function writeZip(selection: Selection, archivePath: string, level: number, opts: BuildZipOptions) {
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
  const prevFd = opts.previous ? tryOpen(opts.previous.path) : undefined;
  const prev = prevFd === undefined ? undefined : { fd: prevFd, index: opts.previous!.index };
  const files = selection.files;
  const index = new ArchiveIndexBuilder(files.length, files);
  const queue = new EntryQueue(files, zip, index, prev);
  const packer = new FilePacker(selection, level, opts, prev, queue);
  try {
    await packer.packAll();
    const built = index.build(selection.rulesKey);
    await zip.finish(built);
    const sha256 = await sink.end();
    return { sha256, index: built, skipped: packer.skipped, reused: queue.reused };
  } catch (e) {
    queue.closeWaiting();
    await sink.abort();
    throw e;
  } finally {
    if (prevFd !== undefined) closeSync(prevFd);
    await packer.close();
    scratch.release();
  }
}

function tryOpen(p: string): number | undefined {
  try {
    return openSync(p, 'r');
  } catch {
    return undefined;
  }
}

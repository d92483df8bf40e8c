// Where the files read for an archive are deflated: in batches on the deflate workers, or on
// this thread when the workers are behind or not started yet, or (a small folder's bigger
// files) on libuv's thread pool. Big files go in parts, each with the bytes before it as
// dictionary, by the same rule. Whatever deflates them, the same files give the same bytes.
import { closeSync, readSync } from 'node:fs';
import * as zlib from 'node:zlib';
import { DeflatePool, PART_LAST, PART_MORE, WORKER_OLD_GENERATION_MB, deflateBatch, deflateOnThreadPool, deflateWhole, defaultWorkerCount, nativeDeflate, type BatchResult, type NativeDeflateClass } from './deflatePool';
import type { BatchFiles, EntryQueue, Member } from './entryQueue';
import { l10n } from '../text/l10n';

/** Batches handed to the workers and not yet written, per worker: enough to keep them busy. */
const IN_FLIGHT_PER_WORKER = 2;
/** Files are handed to the deflate workers in batches of this many bytes; bigger files are deflated on their own. */
export const BATCH_BYTES = 256 * 1024;
/**
 * The first bytes to deflate are deflated on the main thread: starting workers takes longer
 * than deflating a few files (a re-scan with a handful of changed files, a small folder). A
 * folder with no more than this to deflate is packaged without workers, unless they were
 * started ahead (EARLY_WORKER_FILES). A worker in a fresh process comes online 60-130 ms
 * after its start, while this thread deflates ~30 MB/s of source code.
 */
const INLINE_BYTES = 4 * 1024 * 1024;
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

let mainThreadNative: NativeDeflateClass | null | undefined;
/** This thread's zlib handle class for deflateWhole, looked for once (null: none). */
function thisThreadNative(): NativeDeflateClass | undefined {
  if (mainThreadNative === undefined) mainThreadNative = nativeDeflate(zlib, deflateWhole) ?? null;
  return mainThreadNative ?? undefined;
}

export interface DeflaterOptions {
  workersStarted?: DeflatePool;
  workers?: number;
  workerOldGenerationMb?: number;
  inlineBytes?: number;
}

type Buffers = { input: ArrayBuffer; output: ArrayBuffer };

export class BatchDeflater {
  /** Deflate jobs outstanding that keep every worker busy; more are written before another is read. */
  readonly maxInFlight: number;
  /**
   * Parts of a big file the main thread deflates while the workers hold theirs wait to be
   * written after those: with the batches' limit, this thread stopped for a worker's part
   * every other part.
   */
  readonly maxPartsInFlight: number;
  readonly inlineBytes: number;
  /** The deflate workers, once started (or as handed over). */
  private started: DeflatePool | undefined;
  private readonly workerCount: number;
  /** The batch being filled: files read one after the other into its input buffer. */
  private buffers: Buffers | undefined;
  private input = Buffer.alloc(0);
  private used = 0;
  private batch: BatchFiles;
  /** Bytes deflated on this thread before the workers started. */
  private inlined = 0;
  /** Files (and parts) this thread deflated itself once the workers had started. */
  private deflatedHere = 0;

  /** `bytesLeft`: the bytes of the selection's files still to come (an estimate when packaging learns their sizes). */
  constructor(private readonly level: number, private readonly opts: DeflaterOptions, private readonly queue: EntryQueue, private readonly bytesLeft: () => number) {
    // A re-scan starts workers once it has read INLINE_BYTES that must be deflated (an
    // unchanged tree needs none); a first scan of more than that starts them at once (if not
    // started ahead), so they come online while the main thread deflates the first files itself.
    this.started = opts.workersStarted?.level === level ? opts.workersStarted : undefined;
    this.workerCount = this.started?.size ?? opts.workers ?? defaultWorkerCount();
    this.inlineBytes = opts.inlineBytes ?? INLINE_BYTES;
    this.maxInFlight = IN_FLIGHT_PER_WORKER * this.workerCount + 1;
    this.maxPartsInFlight = 2 * this.maxInFlight + 1;
    this.batch = queue.batchFiles();
  }

  /** The deflate workers, started now if they were not. */
  pool(): DeflatePool {
    return (this.started ??= new DeflatePool(this.level, this.workerCount, BATCH_BYTES, this.opts.workerOldGenerationMb ?? WORKER_OLD_GENERATION_MB));
  }

  /** Stops the workers, if any were started or handed over. */
  async close(): Promise<void> {
    await this.started?.close();
  }

  /**
   * Reads a file of `size` bytes (at most a batch) into the batch being filled, after the
   * batch is handed on if the file does not fit; what was read, or undefined when the read
   * failed. Closes the descriptor. The file joins the batch only with `add`.
   */
  readIntoBatch(fd: number, size: number): Buffer | undefined {
    if (this.buffers && (this.used + size > this.input.length || this.batch.full)) this.dispatch();
    if (!this.buffers) {
      // Before the workers start, batches are read into one buffer of our own.
      this.buffers = this.started || this.inlined >= this.inlineBytes ? this.pool().inputBuffer(0) : { input: new ArrayBuffer(BATCH_BYTES), output: new ArrayBuffer(0) };
      this.input = Buffer.from(this.buffers.input);
      this.used = 0;
    }
    const offset = this.used;
    let length: number;
    try {
      length = readInto(fd, this.input, offset, size);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
    return this.input.subarray(offset, offset + length);
  }

  /** The file just read (readIntoBatch) joins the batch. */
  add(file: number, data: Buffer, mode: number, st: { mtimeMs: number; ctimeMs: number; ino: number }, store: boolean): void {
    this.batch.push(file, data.length, mode, st, store);
    this.used += data.length;
  }

  /**
   * With no workers, a file just read (readIntoBatch) that is big enough goes to the thread
   * pool, in its own buffers, after the files before it; false when it is not for it.
   */
  deflateOnItsOwn(file: number, data: Buffer, mode: number, st: { mtimeMs: number; ctimeMs: number; ino: number }, store: boolean): boolean {
    const length = data.length;
    if (this.started || store || length < THREAD_POOL_BYTES || this.inlined + this.used + length > this.inlineBytes || !thisThreadNative()) return false;
    const own = Buffer.from(data);
    this.dispatch();
    this.inlined += length;
    const single = this.queue.batchFiles();
    single.push(file, length, mode, st, false);
    const result = this.deflateOwnOnThreadPool(own);
    // Awaited when its turn comes, or never when packaging fails first: no unhandled rejection meanwhile.
    result.catch(() => undefined);
    this.queue.push({ kind: 'batch', files: single, result });
    return true;
  }

  /** Hands the batch being filled on to be deflated, here or by a worker; nothing when it is empty. */
  dispatch(): void {
    const batch = this.batch;
    if (!batch.count) return;
    const started = this.started;
    if (!started && this.inlined + this.used <= this.inlineBytes) {
      this.inlined += this.used;
      // The input was only read from: the next batch fills it again.
      this.finishBatch(this.deflateHere(Buffer.allocUnsafe(this.used), () => undefined), true);
      return;
    }
    const buffers = this.buffers!;
    // Whatever its files, a batch is deflated here when the workers are behind: this thread
    // takes their share when the other core gives less. It once took batches of 64 files or
    // fewer only, as each deflate with deflateRawSync left its stream object on this thread's
    // heap until a full collection; Node's handle (deflateWhole) leaves its small wrapper, and
    // without the bound packaging is faster for the same peak RSS (bench HISTORY, 2026-11-27).
    if (started && this.deflateHereNow(this.bytesLeft()) && buffers.output.byteLength >= this.used) {
      this.deflatedHere += batch.count;
      this.finishBatch(this.deflateHere(Buffer.from(buffers.output), () => started.giveBack(buffers)), false);
      return;
    }
    // A batch read before the workers started has no output buffer yet.
    const sent = buffers.output.byteLength >= BATCH_BYTES ? buffers : { input: buffers.input, output: new ArrayBuffer(BATCH_BYTES) };
    // Copies of just the batch's part (a view would carry its whole buffer to the worker).
    this.finishBatch(this.pool().run(sent, batch.length.slice(0, batch.count), batch.store.slice(0, batch.count)), false);
  }

  /**
   * Reads a big file part by part (the last part ends at the size it had when opened, or
   * where it ends if it shrank since), each deflated as soon as it is read and queued to be
   * written in its turn; the CRC is computed here over the whole file. `pause` before each
   * part lets the event loop run (a file of hundreds of megabytes is seconds of work); what
   * is ready is written as it goes, so at most a few parts are held. False when the first
   * read fails (the file is left out as unreadable); a read that fails later fails the
   * packaging (`name` says which file), as the entry is begun. Closes the descriptor.
   */
  async readBig(fd: number, member: Member, size: number, left: number, name: string, pause: () => Promise<void>): Promise<boolean> {
    let crc = 0;
    let at = 0;
    try {
      for (let last = false; !last;) {
        await pause();
        // Workers start once what is read here (on a re-scan, after INLINE_BYTES) needs them.
        if (!this.started && this.inlined >= this.inlineBytes) this.pool();
        const bufs = this.started ? this.started.inputBuffer(0) : { input: new ArrayBuffer(BATCH_BYTES), output: new ArrayBuffer(BATCH_BYTES) };
        const input = Buffer.from(bufs.input);
        const dictionary = Math.min(DICTIONARY_BYTES, at);
        const want = Math.min(PART_BYTES, size - at);
        let read: number;
        try {
          read = readInto(fd, input, 0, dictionary + want, at - dictionary);
        } catch (e) {
          this.started?.giveBack(bufs);
          if (at === 0) return false;
          throw new Error(l10n.t('{0} could not be read while it was packaged: {1}', name, e instanceof Error ? e.message : String(e)));
        }
        // A file that shrank to where the part before ended gets an empty last part, which ends the stream.
        const got = Math.max(0, read - dictionary);
        last = got < want || at + got >= size;
        crc = zlib.crc32(input.subarray(dictionary, dictionary + got), crc);
        const result = this.deflatePart(bufs, dictionary, got, last, left - at);
        // A part that fails (a worker stopped) rejects where it is written, or nowhere if packaging stops first.
        result.catch(() => undefined);
        this.queue.push({ kind: 'part', member, result, first: at === 0, ...(last ? { end: { crc, size: at + got } } : {}) });
        at += got;
        await this.queue.drain(this.maxPartsInFlight);
      }
    } finally {
      closeSync(fd);
    }
    return true;
  }

  private finishBatch(result: Promise<BatchResult>, keepInput: boolean): void {
    this.queue.push({ kind: 'batch', files: this.batch, result });
    if (!keepInput) {
      this.buffers = undefined;
      this.input = Buffer.alloc(0);
    }
    this.used = 0;
    this.batch = this.queue.batchFiles();
  }

  /** Entries laid out in `from` deflated on this thread, as a worker's answer would give them. */
  private deflateOnThisThread(from: Buffer, output: Buffer, lengths: ArrayLike<number>, store: ArrayLike<number>, recycle: () => void, dict?: ArrayLike<number>): Promise<BatchResult> {
    const r = deflateBatch(zlib, deflateWhole, thisThreadNative(), this.level, from, output, lengths, store, dict);
    return Promise.resolve({ output, crc: r.crc, compressedSize: r.csize, method: r.method, recycle });
  }

  /** A whole file deflated on the thread pool (deflateOnThreadPool), as a batch of one would give it back. */
  private async deflateOwnOnThreadPool(data: Buffer): Promise<BatchResult> {
    const output = Buffer.allocUnsafe(data.length);
    const crc = Uint32Array.of(zlib.crc32(data));
    const n = await deflateOnThreadPool(zlib, thisThreadNative()!, data, output, this.level);
    if (n < 0) data.copy(output);
    return { output, crc, compressedSize: Float64Array.of(n < 0 ? data.length : n), method: Uint8Array.of(n < 0 ? 0 : 8), recycle: () => undefined };
  }

  private deflateHere(output: Buffer, recycle: () => void): Promise<BatchResult> {
    const batch = this.batch;
    return this.deflateOnThisThread(this.input, output, batch.length.subarray(0, batch.count), batch.store.subarray(0, batch.count), recycle);
  }

  /**
   * Whether this thread deflates the next batch (or part) itself rather than hand it to a
   * worker: when every worker has as many batches waiting as it may, not sooner, as each
   * deflate here leaves memory behind until the host's next full collection; sooner for
   * the first files it deflates (SOONER_FILES). Near the end too: once what is left to read
   * (`left` bytes) fits in what the workers have waiting, a batch posted now would be
   * deflated after them while this thread sat idle.
   */
  private deflateHereNow(left: number): boolean {
    const backlog = this.started ? this.started.backlog : 0;
    return backlog >= (this.deflatedHere < SOONER_FILES ? 1 : IN_FLIGHT_PER_WORKER) || (backlog >= 1 && left <= backlog * BATCH_BYTES);
  }

  /**
   * One part of a big file, read into `bufs` after its dictionary: deflated here or by a
   * worker by the rule batches follow. Before the workers start (the first INLINE_BYTES
   * without workers started ahead), here, in buffers of its own.
   */
  private deflatePart(bufs: Buffers, dictionary: number, length: number, last: boolean, left: number): Promise<BatchResult> {
    const lengths = Float64Array.of(length);
    const what = Uint8Array.of(last ? PART_LAST : PART_MORE);
    const dict = Float64Array.of(dictionary);
    const started = this.started;
    if (!started || this.deflateHereNow(left)) {
      if (!started) this.inlined += length;
      else this.deflatedHere++;
      return this.deflateOnThisThread(Buffer.from(bufs.input, 0, dictionary + length), Buffer.from(bufs.output), lengths, what, () => started?.giveBack(bufs), dict);
    }
    return started.run(bufs, lengths, what, dict);
  }
}

/** Reads up to `size` bytes from `position` (a file that shrank meanwhile gives what is there). */
export function readInto(fd: number, buf: Buffer, at: number, size: number, position = 0): number {
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, at + got, size - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

// Deflating on other cores. The main thread reads the files (it alone opens them, with the
// checks of safeOpen.ts) and writes the archive; worker threads compute each file's CRC and
// deflate it with a fresh zlib state per file (deflateRawSync), so the same bytes always
// give the same archive. Files travel in batches (one message per ~half a megabyte, not per
// file) in buffers that go back and forth by transfer, not by copy; a file bigger than a
// batch travels in parts, each deflated on its own with the bytes before it as dictionary.
import { Worker } from 'node:worker_threads';
import { availableParallelism, cpus } from 'node:os';
import type * as zlibTypes from 'node:zlib';
import { l10n } from '../text/l10n';

type ZlibModule = Pick<typeof zlibTypes, 'crc32' | 'deflateRawSync' | 'constants' | 'DeflateRaw'>;

/** Node's own zlib handle (the one a deflate stream holds): made, used once and freed per file. */
type NativeDeflate = {
  init(windowBits: number, level: number, memLevel: number, strategy: number, state: Uint32Array, done: () => void, dictionary: undefined): void;
  writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void;
  close(): void;
  onerror?: (message: string, errno: number) => void;
};
export type NativeDeflateClass = new (mode: number) => NativeDeflate;

/**
 * Deflates a whole file (`data`, a fresh zlib state, the window given) into `output` from
 * `at`, and gives the deflated length, or -1 when the deflated bytes would not be fewer
 * than the file's (it is then stored).
 *
 * With `native` (from nativeDeflate), zlib runs without the stream object Node's
 * deflateRawSync builds around each call: the same native zlib state, made, used once and
 * freed at once, the same bytes, written straight where they go. On babel's 13,161 deflated
 * files the stream objects, their output chunks and the copy out of them were 15-20 % of
 * deflating's CPU (Node 24: 635-654 against 741-821 ms, identical bytes), and each stream
 * object stayed on the heap until a full collection. Self-contained (no names from outside
 * it, no named inner functions): the worker's program holds it as text.
 */
export function deflateWhole(zlib: ZlibModule, native: NativeDeflateClass | undefined, data: Buffer, output: Buffer, at: number, level: number, windowBits: number): number {
  if (!native) {
    // An output chunk about the size source code deflates to (a quarter), not zlib's 16 KB
    // default nor the input's size: the stream object keeps its first chunk until V8's
    // next full collection, whatever we copy out.
    const deflated = zlib.deflateRawSync(data, { level, windowBits, chunkSize: Math.min(65536, Math.max(1024, (data.length >> 2) + 256)) });
    if (deflated.length >= data.length) return -1;
    deflated.copy(output, at);
    return deflated.length;
  }
  // [output bytes left, input bytes left] after the write: where Node's handle reports them.
  const state = new Uint32Array([0, 1]);
  const room = Math.min(data.length, output.length - at);
  let failure: string | undefined;
  const h = new native(zlib.constants.DEFLATERAW);
  h.onerror = (message) => { failure = message; };
  // Straight after its making and outside any try: a handle closed, or collected, before its
  // init aborts the whole process. A failure of zlib's own init comes through onerror.
  h.init(windowBits, level, 8, zlib.constants.Z_DEFAULT_STRATEGY, state, () => undefined, undefined);
  try {
    if (failure === undefined) h.writeSync(zlib.constants.Z_FINISH, data, 0, data.length, output, at, room);
  } finally {
    h.close();
  }
  if (failure !== undefined) throw new Error(`zlib: ${failure}`);
  // Z_FINISH deflates until the stream ends or the room is full: room left over means it
  // ended, in fewer bytes than the file's.
  if (state[0] === 0 || state[1] !== 0) return -1;
  return room - state[0];
}

/**
 * The window for deflating a whole file of `size` bytes: just big enough for it (matches can
 * never reach further back than its start), the same bytes as the default 32 KB window and
 * ~25 % faster on small files, which no longer allocate and touch the whole window.
 * deflateBatch spells the same out in its own text (the worker runs it alone).
 */
export function windowBitsFor(size: number): number {
  return Math.max(9, Math.min(15, Math.ceil(Math.log2(size + 262))));
}

/**
 * deflateWhole's native way, on libuv's thread pool instead of this thread: the same fresh
 * zlib state and bytes, written into `output` from 0; resolves to the deflated length, or
 * -1 when the deflated bytes would not be fewer than the file's. `data` and `output` must
 * be left alone until it settles. For a folder packaged without deflate workers, whose
 * bigger files can so be deflated on the other core while this thread goes on reading and
 * deflating the rest: a worker takes 60-130 ms to start in a fresh process, the pool's
 * threads none.
 */
export function deflateOnThreadPool(zlib: ZlibModule, native: NativeDeflateClass, data: Buffer, output: Buffer, level: number): Promise<number> {
  const windowBits = windowBitsFor(data.length);
  return new Promise<number>((resolve, reject) => {
    const state = new Uint32Array([0, 1]);
    const room = Math.min(data.length, output.length);
    let settled = false;
    // zlib works on the buffers' memory on another thread: they stay referenced until it is done.
    const inUse: Buffer[] = [data, output];
    const h = new native(zlib.constants.DEFLATERAW) as NativeDeflate & { write(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void };
    const settle = (n: number | Error) => {
      if (settled) return;
      settled = true;
      inUse.length = 0;
      h.close();
      if (n instanceof Error) reject(n);
      else resolve(n);
    };
    h.onerror = (message) => settle(new Error(`zlib: ${message}`));
    // As in deflateWhole: init straight after the making, outside any try.
    h.init(windowBits, level, 8, zlib.constants.Z_DEFAULT_STRATEGY, state, () => settle(state[0] === 0 || state[1] !== 0 ? -1 : room - state[0]), undefined);
    try {
      h.write(zlib.constants.Z_FINISH, data, 0, data.length, output, 0, room);
    } catch (e) {
      settle(e instanceof Error ? e : new Error(String(e)));
    }
  });
}

/**
 * Node's zlib handle class for deflateWhole, or undefined to go through deflateRawSync. Not
 * a public API: it is taken on the Node versions it was checked on, and only once it gave
 * deflateRawSync's bytes here for a sample, so another Node or a changed internal leaves
 * deflateRawSync in charge. Self-contained, as deflateWhole, which it is given (`whole`) so
 * that its text names nothing of this module: the worker's program holds both as text, and
 * a minified bundle renames what they would call each other by.
 */
export function nativeDeflate(zlib: ZlibModule, whole: typeof deflateWhole): NativeDeflateClass | undefined {
  // Only the Node versions whose handle is known to take init's seven arguments: a
  // different count fails a native check, which aborts the process instead of throwing.
  const major = Number(process.versions.node.split('.')[0]);
  if (!(major >= 20 && major <= 24)) return undefined;
  try {
    const probe = new zlib.DeflateRaw() as unknown as { _handle?: { constructor?: unknown }; close(): void };
    const found = probe._handle?.constructor;
    probe.close();
    if (typeof found !== 'function') return undefined;
    const native = found as NativeDeflateClass;
    // Text like source code, deflated both ways, whole and cut short, at two window sizes.
    const words = ['const', 'return', 'function', '(x)', '{', '}', ';', 'value', 'index', '\n  '];
    const parts: string[] = [];
    for (let i = 0, r = 7; i < 900; i++) {
      r = (r * 1103515245 + 12345) & 0x7fffffff;
      parts.push(words[r % words.length], String(r % 97));
    }
    const sample = Buffer.from(parts.join(' '));
    for (const windowBits of [12, 15]) {
      for (const size of [sample.length, 300]) {
        const part = sample.subarray(0, size);
        const out = Buffer.alloc(size);
        const n = whole(zlib, native, part, out, 0, 5, windowBits);
        if (n < 0 || !out.subarray(0, n).equals(zlib.deflateRawSync(part, { level: 5, windowBits }))) return undefined;
      }
    }
    return native;
  } catch {
    return undefined;
  }
}

/**
 * What deflateBatch does with an entry (`store[i]`): a whole file, deflated or, when it does
 * not compress, stored (0); a whole file stored as it is (1); a part of a big file, deflated
 * with the bytes before it as dictionary and ending where the next part goes on (PART_MORE)
 * or where the file ends (PART_LAST).
 */
export const PART_MORE = 2;
export const PART_LAST = 3;

/**
 * Compresses the entries laid out one after the other in `input` into `output`: each
 * file's CRC, and its deflated bytes (a fresh zlib state per file, so the same file always
 * gives the same bytes) or, when the file is under 128 bytes, deflating does not make it
 * smaller or `store[i]` says so, the bytes as they are. A part of a big file (`store[i]`
 * PART_MORE or PART_LAST) follows its dictionary (`dict[i]` bytes, the 32 KB of the file
 * before it) in `input`; its deflated bytes go on from the part before and end on a byte
 * boundary, so the parts of a file, deflated anywhere, join into one deflate stream, as
 * pigz does. Its CRC is left to the caller, who reads the whole file. Self-contained (whole
 * files deflated by `whole`, deflateWhole, given as nativeDeflate is): it becomes part of
 * the worker's program as text, and the main thread calls it for the batches it deflates
 * itself.
 */
export function deflateBatch(
  zlib: ZlibModule, whole: typeof deflateWhole, native: NativeDeflateClass | undefined, level: number, input: Buffer, output: Buffer, lengths: ArrayLike<number>, store: ArrayLike<number | boolean>, dict?: ArrayLike<number>,
): { crc: Uint32Array; csize: Float64Array; method: Uint8Array } {
  // Files this small are stored: deflating one saved ~3 bytes on average on the babel-shaped
  // bench tree (at most its size), against the ~180 bytes of headers its entry has anyway,
  // and each zlib call has a fixed cost in time and in memory held until V8's next full
  // collection. Half of a real JavaScript repository's files can be this small (babel:
  // 14,500 of 27,674 are fixtures under 128 bytes). Literals: this function runs as text.
  const minDeflateBytes = 128;
  const partMore = 2;
  const partLast = 3;
  const n = lengths.length;
  const crc = new Uint32Array(n);
  const csize = new Float64Array(n);
  const method = new Uint8Array(n);
  let at = 0;
  let out = 0;
  for (let i = 0; i < n; i++) {
    const skip = dict ? dict[i] : 0;
    const data = input.subarray(at + skip, at + skip + lengths[i]);
    const part = +store[i] === partMore || +store[i] === partLast;
    /** Deflated bytes written to `output` at `out`, or -1 for none: the file is stored. */
    let written = -1;
    if (part) {
      // The whole window and the dictionary: the same parts give the same bytes wherever they are deflated.
      const deflated = zlib.deflateRawSync(data, {
        level, windowBits: 15, chunkSize: Math.max(1024, (data.length >> 2) + 256),
        ...(skip ? { dictionary: input.subarray(at, at + skip) } : {}),
        finishFlush: +store[i] === partLast ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
      });
      deflated.copy(output, out);
      written = deflated.length;
    } else {
      crc[i] = zlib.crc32(data);
      if (data.length >= minDeflateBytes && !store[i]) {
        // windowBitsFor, spelled out: this function runs as text in the worker.
        const windowBits = Math.max(9, Math.min(15, Math.ceil(Math.log2(data.length + 262))));
        written = whole(zlib, native, data, output, out, level, windowBits);
      }
    }
    at += skip + data.length;
    method[i] = written < 0 ? 0 : 8;
    if (written < 0) {
      data.copy(output, out);
      written = data.length;
    }
    out += written;
    csize[i] = written;
  }
  return { crc, csize, method };
}

/** The worker's whole program: plain CommonJS with Node built-ins only, run from a string. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
const deflateWhole = ${deflateWhole.toString()};
const deflateBatch = ${deflateBatch.toString()};
const native = (${nativeDeflate.toString()})(zlib, deflateWhole);
// This thread yields a core to the extension host's: ten below the thread that started it, whose
// niceness it starts with. On Linux a thread's niceness is its own (elsewhere it would be the
// whole process's, the host's too, so it is left alone there).
if (process.platform === 'linux') { try { const os = require('node:os'); os.setPriority(0, Math.min(19, os.getPriority(0) + 10)); } catch {} }
parentPort.on('message', (m) => {
  const r = deflateBatch(zlib, deflateWhole, native, workerData.level, Buffer.from(m.input), Buffer.from(m.output), m.lengths, m.store, m.dict);
  Atomics.add(workerData.finished, workerData.slot, 1);
  parentPort.postMessage({ id: m.id, input: m.input, output: m.output, crc: r.crc, csize: r.csize, method: r.method }, [m.input, m.output]);
});
`;

export interface BatchResult {
  /** The deflated or stored bytes of every file, one after the other. */
  output: Buffer;
  crc: Uint32Array;
  compressedSize: Float64Array;
  method: Uint8Array;
  /** Gives the batch's buffers back for the next batch. */
  recycle(): void;
}

interface Pending { resolve(r: BatchResult): void; reject(e: Error): void }

/**
 * A worker's old generation, in MB. Each deflateRawSync left a zlib stream object that only
 * a full collection frees, with ~1.7 KB of native memory behind it on Node 24 (deflateWhole's
 * handle frees zlib's memory at once; where deflateRawSync is still used, it holds); a worker with
 * V8's default limit collected so rarely that they piled up (babel-shaped bench tree: peak
 * RSS growth 60-65 MB with the default, 52-54 MB with 12, no slower). The worker's live
 * heap is its bootstrap and one batch's small arrays: it runs out at 4-6 MB (a catchable
 * error, and packaging starts again without a limit), never at 8. Far from the ~2 MB under
 * which Node 24 aborts the whole process while a worker's heap is deserialized.
 */
export const WORKER_OLD_GENERATION_MB = 12;

/** A deflate worker reached its heap limit: packaging again without the limit will do. */
export class DeflateWorkerOutOfMemory extends Error {
  constructor(cause: Error) {
    super(l10n.t('a deflate worker ran out of memory ({0})', cause.message), { cause });
  }
}

/**
 * Threads that deflate besides the main thread: one per further core, at most three. The
 * main thread reads the files and deflates a batch itself whenever every worker's queue is
 * full, so all cores work without a worker per core: a busy worker costs
 * 15-19 MB of resident memory (its isolate, zlib's buffers), and on 2 cores one worker and
 * the main thread packaged the babel-shaped bench tree as fast as two workers.
 */
export function defaultWorkerCount(): number {
  const cores = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;
  return Math.max(1, Math.min(3, cores - 1));
}

export class DeflatePool {
  private readonly workers: Worker[] = [];
  /** Batches posted to each worker. */
  private readonly posted: number[] = [];
  /**
   * Batches each worker has finished, counted by the worker itself in shared memory: its
   * answer is read only when this thread next yields, and this thread, busy reading and
   * deflating between yields, took a worker that had finished everything for a busy one
   * and deflated the next batch itself while the worker sat idle (babel-shaped bench tree:
   * the worker busy ~60 % of packaging; ~93 % with this count).
   */
  private readonly finished: Int32Array;
  private readonly pending = new Map<number, Pending>();
  private readonly spares: { input: ArrayBuffer; output: ArrayBuffer }[] = [];
  private nextId = 0;
  private failed: Error | undefined;

  /** `oldGenerationMb`: the workers' old generation limit (WORKER_OLD_GENERATION_MB); 0 leaves V8's default. */
  constructor(readonly level: number, readonly size = defaultWorkerCount(), readonly batchBytes = 256 * 1024, oldGenerationMb = WORKER_OLD_GENERATION_MB) {
    this.finished = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, size)));
    for (let i = 0; i < size; i++) {
      // A small young generation: each deflate leaves an object behind (a stream with
      // deflateRawSync, a handle's wrapper now), and a worker's default nursery let megabytes
      // of streams pile up before a collection.
      // No inherited execArgv: the program needs no loader or flag of the host's (a
      // TypeScript loader alone took ~20 ms of each worker's start, an inspector port would clash).
      const resourceLimits = { maxYoungGenerationSizeMb: 1, ...(oldGenerationMb > 0 ? { maxOldGenerationSizeMb: oldGenerationMb } : {}) };
      const w = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { level, finished: this.finished, slot: i }, resourceLimits });
      w.on('message', (m: { id: number; input: ArrayBuffer; output: ArrayBuffer; crc: Uint32Array; csize: Float64Array; method: Uint8Array }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.resolve({
          output: Buffer.from(m.output),
          crc: m.crc,
          compressedSize: m.csize,
          method: m.method,
          recycle: () => { if (m.input.byteLength === this.batchBytes) this.spares.push({ input: m.input, output: m.output }); },
        });
      });
      w.on('error', (e: Error & { code?: string }) => this.fail(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new DeflateWorkerOutOfMemory(e) : e));
      this.workers.push(w);
      this.posted.push(0);
    }
  }

  /** A buffer to read a batch into: at least `bytes` long (reused ones are batchBytes). */
  inputBuffer(bytes: number): { input: ArrayBuffer; output: ArrayBuffer } {
    if (bytes <= this.batchBytes) {
      const spare = this.spares.pop();
      if (spare) return spare;
      return { input: new ArrayBuffer(this.batchBytes), output: new ArrayBuffer(this.batchBytes) };
    }
    return { input: new ArrayBuffer(bytes), output: new ArrayBuffer(bytes) };
  }

  /**
   * Batches every worker has waiting beyond the one it works on, as the workers count
   * them: at 1 or more, a batch the caller deflates itself costs no worker time.
   */
  get backlog(): number {
    let least = Infinity;
    for (let i = 0; i < this.workers.length; i++) least = Math.min(least, this.waiting(i));
    return least - 1;
  }

  /** Batches worker `i` has not finished yet, the one it works on included. */
  private waiting(i: number): number {
    return this.posted[i] - Atomics.load(this.finished, i);
  }

  /** Buffers of a batch deflated elsewhere (the main thread), for the next batch. */
  giveBack(buffers: { input: ArrayBuffer; output: ArrayBuffer }): void {
    if (buffers.input.byteLength === this.batchBytes && buffers.output.byteLength === this.batchBytes) this.spares.push(buffers);
  }

  /**
   * Deflates the entries laid out one after the other in `input` as deflateBatch does
   * (lengths, what to do with each, dictionaries of parts). Posted at once to the worker with the fewest batches: a worker takes
   * its next batch from its own message queue, so it never waits for this thread (busy
   * reading or deflating) to hand it one.
   */
  run(buffers: { input: ArrayBuffer; output: ArrayBuffer }, lengths: Float64Array, store: Uint8Array, dict?: Float64Array): Promise<BatchResult> {
    const result = this.failed ? Promise.reject(this.failed) : this.post(buffers, lengths, store, dict);
    // A failed worker rejects every batch at once, while the caller awaits one of them or
    // none (it may be writing an entry): the rest must not count as unhandled rejections,
    // which end the process. Each still rejects where it is awaited.
    result.catch(() => undefined);
    return result;
  }

  private post(buffers: { input: ArrayBuffer; output: ArrayBuffer }, lengths: Float64Array, store: Uint8Array, dict?: Float64Array): Promise<BatchResult> {
    return new Promise<BatchResult>((resolve, reject) => {
      const id = this.nextId++;
      let k = 0;
      for (let i = 1; i < this.workers.length; i++) if (this.waiting(i) < this.waiting(k)) k = i;
      this.pending.set(id, { resolve, reject });
      this.posted[k]++;
      this.workers[k].postMessage({ id, input: buffers.input, output: buffers.output, lengths, store, dict }, [buffers.input, buffers.output]);
    });
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  async close(): Promise<void> {
    this.fail(new Error(l10n.t('the deflate workers were stopped')));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

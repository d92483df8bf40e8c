import { createReadStream, promises as fsp } from 'node:fs';
import { ServiceError, isRetryable, validateMetadata, type ServiceClient, type UploadFields } from '../api';
import { sha256File } from '../archive/hash';
import { backoffDelay, sleep } from './backoff';
import type { SavedTransfer, TransferStore } from './transferStore';

export interface UploadProgress {
  /** Bytes the service holds (or is receiving in the current chunk). */
  sentBytes: number;
  totalBytes: number;
  /** Average rate of this session's bytes; 0 until something was sent. */
  bytesPerSecond: number;
}

export interface ArchiveRef {
  path: string;
  name: string;
  size: number;
  sha256: string;
}

export interface UploadOptions {
  client: ServiceClient;
  archive: ArchiveRef;
  fields: UploadFields;
  store: TransferStore;
  /** Bytes per PATCH. Default DEFAULT_CHUNK_SIZE. */
  chunkSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: UploadProgress) => void;
  /** Consecutive failed attempts (without progress) before giving up. Default 5. */
  maxRetries?: number;
  /** First backoff delay; doubles per attempt. Default 500 ms. */
  baseDelayMs?: number;
  /** Longest Retry-After the engine waits out itself; beyond it the upload is interrupted (resumable). */
  maxRetryAfterMs?: number;
  /** Workspace folder, kept with the saved transfer for messages. */
  folder?: string;
}

export type UploadOutcome =
  | { kind: 'complete'; scanId: string; projectId: string | number }
  | { kind: 'in-progress'; message: string };

/**
 * Default bytes per PATCH. Chosen from `npm run bench` (see test/bench/README.md): 8 MiB
 * keeps the per-request overhead (multipart framing, HEAD-free round trip, disk write on the
 * server) negligible against a single whole-archive upload, while a failed chunk costs at
 * most 8 MiB of re-sending and progress still moves every few seconds on a slow link.
 */
export const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_AFTER_MS = 5 * 60_000;
/** Read size of chunk streams: large enough that a chunk is a handful of reads. */
const READ_HIGH_WATER_MARK = 1024 * 1024;

/** The upload stopped but the service keeps what it received: `resumeUpload` continues it. */
export class UploadInterruptedError extends Error {
  readonly resumable = true as const;
  constructor(
    message: string,
    readonly transferId: string,
    readonly sentBytes: number,
    readonly totalBytes: number,
    readonly cancelled: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UploadInterruptedError';
  }
}

/**
 * Uploads the archive with the spec's client procedure (POST start, HEAD offset, PATCH
 * chunks from the server's offset until a scan_id comes back). When the store holds a
 * transfer of this very archive, it is resumed instead of started again.
 */
export async function uploadArchive(opts: UploadOptions): Promise<UploadOutcome> {
  const chunkSize = checkOptions(opts);
  checkFields(opts.fields);
  const { archive } = opts;
  const st = await fsp.stat(archive.path).catch(() => undefined);
  if (!st?.isFile()) throw new Error(`The archive ${archive.path} is missing; package the workspace again.`);
  if (st.size !== archive.size) {
    throw new Error(`The archive ${archive.path} is ${st.size} bytes, not the ${archive.size} bytes it was built with; package the workspace again.`);
  }
  const saved = await opts.store.load();
  const same = saved && saved.sha256 === archive.sha256 && saved.size === archive.size && saved.archiveName === archive.name && sameFields(saved.fields, opts.fields);
  const transfer: SavedTransfer = same
    ? { ...saved, archivePath: archive.path }
    : await startTransfer(opts, archive, opts.fields);
  if (same) await opts.store.save(transfer);
  return runTransfer(opts, transfer, chunkSize);
}

/** Continues the transfer saved in the store; refuses when the archive changed since. */
export async function resumeUpload(opts: Omit<UploadOptions, 'archive' | 'fields'>): Promise<UploadOutcome> {
  const chunkSize = checkOptions(opts);
  const saved = await opts.store.load();
  if (!saved) throw new Error('There is no interrupted upload to resume. Start a new scan instead.');
  const st = await fsp.stat(saved.archivePath).catch(() => undefined);
  if (!st?.isFile()) {
    await opts.store.clear();
    throw new Error(`The archive of the interrupted upload (${saved.archivePath}) no longer exists, so the upload cannot be resumed. Start a new scan.`);
  }
  if (st.size !== saved.size || (await sha256File(saved.archivePath)) !== saved.sha256) {
    await opts.store.clear();
    throw new Error(`The archive of the interrupted upload (${saved.archivePath}) changed since the upload started, so it cannot be resumed. Start a new scan.`);
  }
  checkFields(saved.fields);
  return runTransfer(opts, saved, chunkSize);
}

// ---------------------------------------------------------------------------------------

function checkOptions(opts: Omit<UploadOptions, 'archive' | 'fields'>): number {
  const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
    throw new Error(`The upload chunk size must be a whole number of bytes, at least 1 (got ${String(opts.chunkSize)}).`);
  }
  const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) throw new Error(`maxRetries must be a whole number, 0 or more (got ${String(maxRetries)}).`);
  return chunkSize;
}

/** Metadata is checked before the first request, so a bad value never starts a transfer. */
function checkFields(fields: UploadFields): void {
  if (fields.metadata !== undefined) validateMetadata(fields.metadata);
}

function sameFields(a: UploadFields, b: UploadFields): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function startTransfer(opts: UploadOptions, archive: ArchiveRef, fields: UploadFields): Promise<SavedTransfer> {
  const { transferId } = await withRetries(opts, () => opts.client.startTransfer(archive.name, opts.signal), {
    onGiveUp: (e) => e,
  });
  const t: SavedTransfer = {
    transferId,
    archivePath: archive.path,
    archiveName: archive.name,
    size: archive.size,
    sha256: archive.sha256,
    fields,
    createdAt: new Date().toISOString(),
    ...(opts.folder !== undefined ? { folder: opts.folder } : {}),
  };
  await opts.store.save(t);
  return t;
}

/**
 * Retries `fn` on network errors, timeouts, 5xx and 429 (honouring Retry-After) with
 * exponential backoff; other errors and cancellation go straight through.
 */
async function withRetries<T>(
  opts: Omit<UploadOptions, 'archive' | 'fields'>,
  fn: () => Promise<T>,
  o: { onGiveUp: (e: unknown) => unknown },
): Promise<T> {
  const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (opts.signal?.aborted || !isRetryable(e) || attempt > maxRetries) throw o.onGiveUp(e);
      await waitBeforeRetry(opts, e, attempt);
    }
  }
}

async function waitBeforeRetry(opts: Omit<UploadOptions, 'archive' | 'fields'>, e: unknown, attempt: number): Promise<void> {
  let wait = backoffDelay(attempt, opts.baseDelayMs ?? DEFAULT_BASE_DELAY_MS);
  const retryAfter = e instanceof ServiceError ? e.retryAfterMs : undefined;
  if (retryAfter !== undefined) {
    if (retryAfter > (opts.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS)) throw e;
    wait = Math.max(wait, retryAfter);
  }
  await sleep(wait, opts.signal);
}

async function runTransfer(opts: Omit<UploadOptions, 'archive' | 'fields'>, initial: SavedTransfer, chunkSize: number): Promise<UploadOutcome> {
  const { client, signal, store } = opts;
  const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
  let t = initial;
  const total = t.size;
  const started = Date.now();
  let sessionStartOffset: number | undefined;
  let lastProgressAt = 0;
  const progress = (sentBytes: number, force = false) => {
    if (!opts.onProgress) return;
    const now = Date.now();
    if (!force && now - lastProgressAt < 100) return;
    lastProgressAt = now;
    const elapsed = (now - started) / 1000;
    const sessionBytes = Math.max(0, sentBytes - (sessionStartOffset ?? sentBytes));
    opts.onProgress({ sentBytes, totalBytes: total, bytesPerSecond: elapsed > 0 ? Math.round(sessionBytes / elapsed) : 0 });
  };

  let offset = 0;
  let failures = 0; // consecutive failed attempts since the last byte of progress
  let restartedTransfer = false;
  let needOffset = true; // "when in doubt, ask the server"

  const interrupted = (e: unknown): UploadInterruptedError => {
    const cancelled = !!signal?.aborted;
    const where = `${offset} of ${total} bytes`;
    const why = cancelled ? 'was cancelled' : `stopped after ${failures} failed attempt${failures === 1 ? '' : 's'} (${e instanceof Error ? e.message : String(e)})`;
    return new UploadInterruptedError(
      `The upload ${why} with ${where} on the service. It can be resumed: the service keeps what it received.`,
      t.transferId, offset, total, cancelled, { cause: e },
    );
  };

  for (;;) {
    if (signal?.aborted) throw interrupted(signal.reason);
    try {
      if (needOffset) {
        offset = await client.readOffset(t.transferId, signal);
        needOffset = false;
        if (offset > total) {
          // The service holds more than this archive has: it is not our transfer any more.
          throw new ServiceError({ kind: 'not-found', operation: 'readOffset', message: `The service holds ${offset} bytes for an archive of ${total} bytes.` });
        }
        sessionStartOffset ??= offset;
        progress(offset, true);
      }
      const len = Math.min(chunkSize, total - offset);
      const chunkStart = offset;
      const result = await client.sendChunk(t.transferId, {
        offset: chunkStart,
        totalLength: total,
        archiveName: t.archiveName,
        bodyLength: len,
        fields: t.fields,
        signal,
        // A factory, so a retried request reopens the file; the chunk is never held whole.
        // An empty chunk (everything is on the service, only the final answer was lost)
        // asks the service for the transfer's outcome.
        body: len === 0 ? Buffer.alloc(0) : () => {
          const s = createReadStream(t.archivePath, { start: chunkStart, end: chunkStart + len - 1, highWaterMark: READ_HIGH_WATER_MARK });
          let read = 0;
          s.on('data', (c: Buffer | string) => {
            read += c.length;
            progress(chunkStart + read);
          });
          return s;
        },
      });
      if (result.kind === 'complete') {
        progress(total, true);
        await store.clear();
        return { kind: 'complete', scanId: result.scanId, projectId: result.projectId };
      }
      if (result.kind === 'in-progress') {
        // The service already runs a scan for this transfer; there is nothing left to send.
        await store.clear();
        return { kind: 'in-progress', message: result.message };
      }
      if (result.nextOffset > chunkStart && result.nextOffset <= total) {
        offset = result.nextOffset;
        failures = 0;
        progress(offset, true);
      } else {
        needOffset = true; // an offset that does not move forward: ask again
        if (++failures > maxRetries) throw interrupted(new Error(`the service answered with offset ${result.nextOffset} after a chunk at ${chunkStart}`));
      }
    } catch (e) {
      if (e instanceof UploadInterruptedError) throw e;
      if (signal?.aborted) throw interrupted(e);
      if (!(e instanceof ServiceError)) throw e; // local trouble (archive unreadable): not the network's fault
      if (e.kind === 'conflict') {
        // 409: the service holds another offset; continue from there (or ask, if not said).
        if (++failures > maxRetries) throw interrupted(e);
        if (e.serverOffset !== undefined && e.serverOffset <= total) offset = e.serverOffset;
        else needOffset = true;
        continue;
      }
      if (e.kind === 'not-found' && !restartedTransfer) {
        // The service no longer knows the transfer (expired or lost): start over once.
        restartedTransfer = true;
        t = await startTransfer({ ...opts, fields: t.fields, archive: { path: t.archivePath, name: t.archiveName, size: t.size, sha256: t.sha256 } } as UploadOptions,
          { path: t.archivePath, name: t.archiveName, size: t.size, sha256: t.sha256 }, t.fields);
        sessionStartOffset = undefined;
        needOffset = true;
        continue;
      }
      // A garbled answer to a PATCH leaves us in doubt whether the chunk was stored: ask.
      if (isRetryable(e) || (e.kind === 'bad-response' && e.operation === 'sendChunk')) {
        if (++failures > maxRetries) throw interrupted(e);
        try {
          await waitBeforeRetry(opts, e, failures);
        } catch (waitErr) {
          throw interrupted(signal?.aborted ? waitErr : e);
        }
        needOffset = true;
        continue;
      }
      if (e.kind === 'bad-request' || e.kind === 'unprocessable' || e.kind === 'validation') {
        // The service refuses this transfer's values; resuming would be refused again.
        await store.clear();
      }
      throw e;
    }
  }
}

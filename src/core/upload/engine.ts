import { promises as fsp } from 'node:fs';
import { Readable } from 'node:stream';
import { ServiceError, TransferCookies, isRetryable, retryReason, type RetryNotice, type ServiceClient, type UploadFields } from '../api';
import { uploadFieldParts } from '../api/chunk';
import { sha256File } from '../archive/hash';
import { formatBytes } from '../text/bytes';
import { backoffDelay, sleep } from '../async';
import { ChunkReader } from './chunkReader';
import type { SavedTransfer, TransferStore } from './transferStore';
import { errorMessage } from '../errors';

export interface UploadProgress {
  /** Bytes the service holds (or is receiving in the current chunk). */
  sentBytes: number;
  totalBytes: number;
  /** Average rate of this session's bytes; 0 until something was sent. */
  bytesPerSecond: number;
}

import type { ArchiveRef } from '../archive/zip';
import { plural } from '../text/plural';

export type { ArchiveRef };

export interface UploadOptions {
  client: ServiceClient;
  archive: ArchiveRef;
  fields: UploadFields;
  store: TransferStore;
  /** Bytes per PATCH. Default DEFAULT_CHUNK_SIZE. */
  chunkSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: UploadProgress) => void;
  /** Told before each retry (of a chunk, a start or an offset read), so the wait can be shown. */
  onRetry?: (r: RetryNotice) => void;
  /** Consecutive failed attempts (without progress) before giving up. Default 5. */
  maxRetries?: number;
  /** First backoff delay; doubles per attempt. Default 500 ms. */
  baseDelayMs?: number;
  /** Longest Retry-After the engine waits out itself; beyond it the upload is interrupted (resumable). */
  maxRetryAfterMs?: number;
  /** Workspace folder, kept with the saved transfer for messages. */
  folder?: string;
  /** Kept with the saved transfer for a resumed upload's message (SavedTransfer). */
  leftOut?: SavedTransfer['leftOut'];
  gitIgnoredNotListed?: boolean;
  /**
   * Holds back the archive's last bytes until it resolves: the rest is sent meanwhile, so the
   * service starts the scan only once the caller knows the archive is the one to scan (a
   * re-scan told by the file watcher waits for writes reported late). A rejection stops the
   * upload with that error, the transfer left incomplete; it should heed `signal`.
   */
  holdLast?: Promise<void>;
  /**
   * A transfer started while the archive was being made (openTransfer), taken instead of
   * starting one when it is for this service and archive name; when it is not, or did not
   * start, the upload starts its own as ever.
   */
  opened?: Promise<OpenedTransfer | undefined>;
}

/** A transfer started ahead of its archive: what its start and offset read told. */
export interface OpenedTransfer {
  transferId: string;
  archiveName: string;
  /** Set by its start; for the service origin it was started with. */
  cookies: TransferCookies;
  /** Upload-Offset from the HEAD that followed the start, when it answered. */
  offset?: number;
}

export type UploadOutcome =
  | { kind: 'complete'; scanId: string; projectId?: string | number }
  | { kind: 'in-progress'; message: string };

/**
 * Default bytes per PATCH, from the chunk-size sweep of `npm run bench -- --sweep` (see
 * test/bench/README.md): at 1-2 MiB the per-request cost (multipart framing, one round
 * trip, the service committing each chunk) showed (1.3x of one raw curl upload); from
 * 8 MiB on the upload is level with curl within the noise, and bigger chunks only add
 * memory (the chunk buffer is this size; up to SCRATCH_BYTES in src/core/scratch.ts it is the memory
 * packaging has just used) and more to re-send after a failed request.
 */
export const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_AFTER_MS = 5 * 60_000;
/**
 * A transfer may send at most this many times the archive's bytes (plus one chunk), and
 * make at most this many requests per chunk of the archive (plus a margin): a service that
 * keeps rewinding the offset (409) or accepts a byte at a time cannot keep an upload going
 * for ever. A healthy upload sends each byte once, and a few retries fit well within.
 */
export const MAX_BYTES_FACTOR = 4;
export const MAX_REQUESTS_PER_CHUNK = 4;
const REQUEST_MARGIN = 32;
/**
 * Bytes an upload told to hold its last ones (UploadOptions.holdLast) keeps back while it
 * waits: one request's worth of work for the service when it is let go, and the whole
 * archive but these already there.
 */
export const HELD_BYTES = 64 * 1024;

/** The upload stopped but the service keeps what it received: `resumeUpload` continues it. */
export class UploadInterruptedError extends Error {
  readonly resumable = true as const;
  constructor(
    message: string,
    readonly transferId: string,
    readonly sentBytes: number,
    readonly totalBytes: number,
    readonly cancelled: boolean,
    options?: { cause?: unknown; lastChunkInFlight?: boolean },
  ) {
    super(message, options);
    this.name = 'UploadInterruptedError';
    this.lastChunkInFlight = options?.lastChunkInFlight === true;
  }

  /**
   * The request carrying the archive's last bytes was under way when the upload stopped:
   * the service may have received it all and be scanning it, without us knowing its id.
   */
  readonly lastChunkInFlight: boolean;
}

/**
 * Uploads the archive with the spec's client procedure (POST start, HEAD offset, PATCH
 * chunks from the server's offset until a scan_id comes back). When the store holds a
 * transfer of this very archive, it is resumed instead of started again.
 */
export async function uploadArchive(opts: UploadOptions): Promise<UploadOutcome> {
  // Settled maybe long before the transfer gets to it, or never awaited (a failed start):
  // a rejection meanwhile is not "unhandled".
  opts.holdLast?.catch(() => undefined);
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
  if (same) {
    const transfer: SavedTransfer = { ...saved, archivePath: archive.path };
    await opts.store.save(transfer);
    return runTransfer(opts, transfer, chunkSize);
  }
  const opened = await takeOpened(opts, archive);
  if (opened) return runTransfer(opts, opened.transfer, chunkSize, opened.offset);
  return runTransfer(opts, await startTransfer(opts, archive, opts.fields), chunkSize);
}

/**
 * Starts a transfer (POST) and reads its offset (HEAD) while the archive is still being
 * made: neither needs the archive, only its name. On a real network that takes two round
 * trips off every scan's path from the last file packaged to the scan id. One try, no
 * messages: when it fails, the upload starts its transfer itself, with its retries and its
 * messages, as it would have. Undefined then.
 */
export async function openTransfer(client: ServiceClient, archiveName: string, signal?: AbortSignal): Promise<OpenedTransfer | undefined> {
  let cookies: TransferCookies, transferId: string;
  try {
    cookies = new TransferCookies(serviceOrigin(client));
    ({ transferId } = await client.startTransfer(archiveName, { signal, cookies }));
  } catch {
    return undefined;
  }
  const offset = await client.readOffset(transferId, { signal, cookies, retries: 0 }).catch(() => undefined);
  return { transferId, archiveName, cookies, ...(offset !== undefined ? { offset } : {}) };
}

/** The transfer opened ahead (UploadOptions.opened), saved as this archive's, when it fits. */
async function takeOpened(opts: UploadOptions, archive: ArchiveRef): Promise<{ transfer: SavedTransfer; offset?: number } | undefined> {
  const o = await opts.opened?.catch(() => undefined);
  if (!o || o.cookies.origin !== serviceOrigin(opts.client) || o.archiveName !== archive.name) return undefined;
  const transfer = await keepTransfer(opts, archive, opts.fields, o.transferId, o.cookies);
  // A new transfer holds nothing yet; any other answer is asked again, as after a failure.
  return { transfer, ...(o.offset === 0 ? { offset: 0 } : {}) };
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

/**
 * The form parts are built (and so validated: metadata size, lists, partial file list)
 * before the first request, so a bad value never starts a transfer.
 */
function checkFields(fields: UploadFields): void {
  uploadFieldParts('sendChunk', fields);
}

function sameFields(a: UploadFields, b: UploadFields): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function startTransfer(opts: Omit<UploadOptions, 'archive' | 'fields'>, archive: ArchiveRef, fields: UploadFields): Promise<SavedTransfer> {
  const origin = serviceOrigin(opts.client);
  let cookies = new TransferCookies(origin);
  const { transferId } = await withRetries(opts, () => {
    // Each attempt starts a transfer of its own: only the cookies of the one that answered count.
    cookies = new TransferCookies(origin);
    return opts.client.startTransfer(archive.name, { signal: opts.signal, cookies });
  }, { onGiveUp: (e) => e });
  return keepTransfer(opts, archive, fields, transferId, cookies);
}

/** A started transfer of this archive, saved so that it can be resumed. */
async function keepTransfer(
  opts: Omit<UploadOptions, 'archive' | 'fields'>, archive: ArchiveRef, fields: UploadFields, transferId: string, cookies: TransferCookies,
): Promise<SavedTransfer> {
  const t: SavedTransfer = {
    transferId,
    archivePath: archive.path,
    archiveName: archive.name,
    size: archive.size,
    sha256: archive.sha256,
    fields,
    createdAt: new Date().toISOString(),
    ...(opts.folder !== undefined ? { folder: opts.folder } : {}),
    ...(opts.leftOut?.length ? { leftOut: opts.leftOut } : {}),
    ...(opts.gitIgnoredNotListed ? { gitIgnoredNotListed: true } : {}),
    origin: cookies.origin,
    ...(cookies.size ? { cookies: cookies.toJSON() } : {}),
  };
  await opts.store.save(t);
  return t;
}

function serviceOrigin(client: ServiceClient): string {
  return new URL(client.baseUrl).origin;
}

/**
 * The cookies of a saved transfer, for the service it was started with. A transfer saved for
 * another origin (the service address changed since) takes none of them there.
 */
function cookiesOf(client: ServiceClient, t: SavedTransfer): TransferCookies {
  const origin = serviceOrigin(client);
  return new TransferCookies(origin, t.origin === origin ? t.cookies : []);
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
  try {
    opts.onRetry?.({ attempt, of: opts.maxRetries ?? DEFAULT_MAX_RETRIES, delayMs: wait, reason: retryReason(e) });
  } catch {
    // A failing listener must not stop the upload.
  }
  await sleep(wait, opts.signal);
}

// eslint-disable-next-line max-lines-per-function -- one transfer's loop of chunks, retries and resume points; to split with issue 58
async function runTransfer(opts: Omit<UploadOptions, 'archive' | 'fields'>, initial: SavedTransfer, chunkSize: number, knownOffset?: number): Promise<UploadOutcome> {
  const { client, signal, store } = opts;
  const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
  let t = initial;
  let cookies = cookiesOf(client, t);
  /** Keeps cookies the service set or changed with the saved transfer, so a resume after a reload sends them. */
  const keepCookies = async () => {
    const now = cookies.toJSON();
    if (JSON.stringify(now) === JSON.stringify(t.cookies ?? [])) return;
    t = { ...t, origin: cookies.origin, cookies: now };
    await store.save(t);
  };
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

  let offset = knownOffset ?? 0;
  let failures = 0; // consecutive failed attempts since the last byte of progress
  let restartedTransfer = false;
  let needOffset = knownOffset === undefined; // "when in doubt, ask the server"

  let lastChunkInFlight = false;
  const interrupted = (e: unknown): UploadInterruptedError => {
    const cancelled = !!signal?.aborted;
    const reason = errorMessage(e);
    const why = cancelled ? 'was cancelled'
      : failures === 0 ? `stopped (${reason})`
        : `stopped after ${plural(failures, 'failed attempt')} (${reason})`;
    const held = offset > 0
      ? `with ${formatBytes(offset)} of ${formatBytes(total)} on the service. It can be resumed: the service keeps what it received.`
      : `before the service received any of its ${formatBytes(total)}. It can be resumed from the start.`;
    return new UploadInterruptedError(
      `The upload ${why} ${held}`,
      t.transferId, offset, total, cancelled, { cause: e, lastChunkInFlight },
    );
  };

  // Budget for this run of the transfer (a resume gets a fresh one).
  const maxBytes = MAX_BYTES_FACTOR * total + chunkSize;
  const maxRequests = MAX_REQUESTS_PER_CHUNK * Math.ceil(total / chunkSize) + REQUEST_MARGIN;
  let bytesSent = 0;
  let requests = 0;
  const spend = (bytes: number) => {
    requests += 1;
    bytesSent += bytes;
    if (requests > maxRequests || bytesSent > maxBytes) {
      throw interrupted(new Error(
        `the service kept asking for data again: ${requests} requests and ${bytesSent} bytes sent for an archive of ${total} bytes. The upload was stopped; try again later`,
      ));
    }
  };

  if (!needOffset) {
    spend(0); // the offset read that opened the transfer
    sessionStartOffset = offset;
    progress(offset, true);
  }

  let held = opts.holdLast;
  let holdOver = false;
  held?.then(() => { holdOver = true; }, () => { holdOver = true; });

  const chunks = new ChunkReader(t.archivePath, Math.min(chunkSize, total));
  try {
    for (;;) {
      if (signal?.aborted) throw interrupted(signal.reason);
      try {
        if (needOffset) {
          spend(0);
          // This loop retries and counts (one budget): the request itself is tried once.
          offset = await client.readOffset(t.transferId, { signal, cookies, retries: 0 });
          await keepCookies();
          needOffset = false;
          if (offset > total) {
            // The service holds more than this archive has: it is not our transfer any more.
            throw new ServiceError({ kind: 'not-found', operation: 'readOffset', message: `The service holds ${offset} bytes for an archive of ${total} bytes.` });
          }
          sessionStartOffset ??= offset;
          progress(offset, true);
        }
        let len = Math.min(chunkSize, total - offset);
        const chunkStart = offset;
        if (held && len > 0 && chunkStart + len === total) {
          // All but the last bytes while the hold lasts; those once it is over.
          if (!holdOver && len > HELD_BYTES) len -= HELD_BYTES;
          else {
            await held;
            held = undefined;
          }
        }
        spend(len);
        lastChunkInFlight = chunkStart + len === total;
        // A slice is counted when the request takes the next one; once the request is over,
        // a late count (a stream read ahead, then let go) would put the progress back.
        let live = true;
        const result = await client.sendChunk(t.transferId, {
          offset: chunkStart,
          totalLength: total,
          archiveName: t.archiveName,
          bodyLength: len,
          fields: t.fields,
          signal,
          cookies,
          // A factory, so a retried request streams the chunk again from the start. An empty
          // chunk (everything is on the service, only the final answer was lost) asks the
          // service for the transfer's outcome. Object mode: a byte-mode Readable hands its
          // consumer all it has buffered as one concatenated copy, which measured +30 MB of
          // ArrayBuffers per upload; in object mode each slice goes out as the view it is.
          body: len === 0 ? Buffer.alloc(0) : () => Readable.from(chunks.slices(chunkStart, len, (sent) => { if (live) progress(chunkStart + sent); }), { objectMode: true }),
        }).finally(() => { live = false; });
        lastChunkInFlight = false;
        if (result.kind === 'continue') await keepCookies();
        if (result.kind === 'complete') {
          progress(total, true);
          await store.clear();
          return { kind: 'complete', scanId: result.scanId, ...(result.projectId !== undefined ? { projectId: result.projectId } : {}) };
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
        // The archive could not be read: the request failed for it, not for the network.
        if (chunks.failure) throw chunks.failure;
        if (signal?.aborted) throw interrupted(e);
        if (!(e instanceof ServiceError)) throw e; // local trouble: not the network's fault
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
          t = await startTransfer(opts, { path: t.archivePath, name: t.archiveName, size: t.size, sha256: t.sha256 }, t.fields);
          cookies = cookiesOf(client, t);
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
  } finally {
    await chunks.close();
  }
}

import { promises as fsp } from 'node:fs';
import { TransferCookies, isRetryable, type RetryNotice, type ServiceClient, type UploadFields } from '../api';
import { uploadFieldParts } from '../api/chunk';
import { sha256File } from '../archive/hash';
import type { ArchiveRef } from '../archive/zip';
import { DEFAULT_MAX_RETRIES, waitBeforeRetry } from './retryWait';
import { TransferRun, serviceOrigin } from './transferRun';
import type { SavedTransfer, TransferStore } from './transferStore';
import { l10n } from '../text/l10n';

export { DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_AFTER_MS } from './retryWait';
export { HELD_BYTES, MAX_BYTES_FACTOR, MAX_REQUESTS_PER_CHUNK, UploadInterruptedError } from './transferRun';
export type { ArchiveRef };

export interface UploadProgress {
  /** Bytes the service holds (or is receiving in the current chunk). */
  sentBytes: number;
  totalBytes: number;
  /** Average rate of this session's bytes; 0 until something was sent. */
  bytesPerSecond: number;
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
  if (!st?.isFile()) throw new Error(l10n.t('The archive {0} is missing; package the workspace again.', archive.path));
  if (st.size !== archive.size) {
    throw new Error(l10n.t('The archive {0} is {1} bytes, not the {2} bytes it was built with; package the workspace again.', archive.path, st.size, archive.size));
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
  if (!saved) throw new Error(l10n.t('There is no interrupted upload to resume. Start a new scan instead.'));
  const st = await fsp.stat(saved.archivePath).catch(() => undefined);
  if (!st?.isFile()) {
    await opts.store.clear();
    throw new Error(l10n.t('The archive of the interrupted upload ({0}) no longer exists, so the upload cannot be resumed. Start a new scan.', saved.archivePath));
  }
  if (st.size !== saved.size || (await sha256File(saved.archivePath)) !== saved.sha256) {
    await opts.store.clear();
    throw new Error(l10n.t('The archive of the interrupted upload ({0}) changed since the upload started, so it cannot be resumed. Start a new scan.', saved.archivePath));
  }
  checkFields(saved.fields);
  return runTransfer(opts, saved, chunkSize);
}

// ---------------------------------------------------------------------------------------

function checkOptions(opts: Omit<UploadOptions, 'archive' | 'fields'>): number {
  const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
    throw new Error(l10n.t('The upload chunk size must be a whole number of bytes, at least 1 (got {0}).', String(opts.chunkSize)));
  }
  const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) throw new Error(l10n.t('maxRetries must be a whole number, 0 or more (got {0}).', String(maxRetries)));
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

/** One run of a transfer (TransferRun); a transfer the service forgot is started again once. */
function runTransfer(opts: Omit<UploadOptions, 'archive' | 'fields'>, initial: SavedTransfer, chunkSize: number, knownOffset?: number): Promise<UploadOutcome> {
  const restart = (t: SavedTransfer) => startTransfer(opts, { path: t.archivePath, name: t.archiveName, size: t.size, sha256: t.sha256 }, t.fields);
  return new TransferRun(opts, initial, chunkSize, knownOffset, restart).run();
}

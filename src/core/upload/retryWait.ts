import { ServiceError, retryReason, type RetryNotice } from '../api';
import { backoffDelay, sleep } from '../async';

export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_AFTER_MS = 5 * 60_000;

/** What an upload was told about retrying (UploadOptions). */
export interface RetryOptions {
  signal?: AbortSignal;
  onRetry?: (r: RetryNotice) => void;
  maxRetries?: number;
  baseDelayMs?: number;
  maxRetryAfterMs?: number;
}

/**
 * Waits before attempt `attempt + 1` after `e`: exponential backoff, or the service's
 * Retry-After when longer; a Retry-After beyond maxRetryAfterMs is not waited out (`e` is
 * thrown). `onRetry` is told first, so the wait can be shown.
 */
export async function waitBeforeRetry(opts: RetryOptions, e: unknown, attempt: number): Promise<void> {
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

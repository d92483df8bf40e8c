import { l10n } from '../text/l10n';
// One cancellation error for the whole extension, and one way to recognise a cancellation
// whatever produced it (our own signal, undici, Node's timers, the service client).

/** Thrown when the user (or a caller's AbortSignal) cancels an operation. */
export class CancelledError extends Error {
  constructor(message = l10n.t('The operation was cancelled.')) {
    super(message);
    this.name = 'AbortError';
  }
}

/**
 * A cancel that came after the upload was complete: the service has the archive and runs
 * the scan; what arrived so far was stored.
 */
export class CancelledAfterUploadError extends CancelledError {
  constructor(readonly scanId: string) {
    super(l10n.t('The scan was cancelled after its upload had finished.'));
  }
}

/** The error to throw for an aborted signal: its reason when that is already an error, else a CancelledError. */
export function cancellationOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new CancelledError();
}

/** Throws if `signal` has been aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancellationOf(signal);
}

/**
 * True for every shape a cancellation takes: a CancelledError or any AbortError, the
 * service client's `aborted` error, an interrupted upload that was cancelled, or any error
 * while `signal` is aborted (whatever was in flight failed because of the cancel).
 */
export function isCancellation(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  if (!(err instanceof Error)) return false;
  if (err instanceof CancelledError || err.name === 'AbortError') return true;
  const e = err as { kind?: unknown; cancelled?: unknown };
  return e.kind === 'aborted' || e.cancelled === true;
}

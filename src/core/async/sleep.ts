import { cancellationOf } from './cancel';

/** Resolves after `ms`, or rejects (with the signal's reason, or a CancelledError) as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancellationOf(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancellationOf(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

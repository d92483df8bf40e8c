export { backoffDelay } from './backoff';
export { CancelledAfterUploadError, CancelledError, cancellationOf, isCancellation, throwIfCancelled } from './cancel';
export { sleep } from './sleep';
export { forEachInSlices, mapInSlices, nextTurn, runAtOnce, runInSlices } from './slices';
export { settleBounded } from './bounded';

export { backoffDelay } from './backoff';
export { CancelledError, cancellationOf, isCancellation, throwIfCancelled } from './cancel';
export { sleep } from './sleep';

/** One look at a scan's findings. */
export interface IssuesSnapshot<T> {
  issues: T[];
  totalIssues: number;
}

export interface PollOptions<T> {
  fetch: (signal?: AbortSignal) => Promise<IssuesSnapshot<T>>;
  /** Wait between polls; default 2000 ms. */
  intervalMs?: number;
  /** Upper bound on polls, so a scan that never settles still ends; default 30. */
  maxPolls?: number;
  signal?: AbortSignal;
  /** Called after every poll with the findings so far, so the UI can show them early. */
  onSnapshot?: (s: IssuesSnapshot<T>, poll: number) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface PollResult<T> extends IssuesSnapshot<T> {
  /** True when two polls in a row reported the same total (decisions.md); false when maxPolls ran out. */
  settled: boolean;
  polls: number;
}

export const DEFAULT_POLL_INTERVAL_MS = 2000;
export const DEFAULT_MAX_POLLS = 30;

function abortError(): Error {
  const e = new Error('The operation was cancelled.');
  e.name = 'AbortError';
  return e;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(t); reject(abortError()); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Fetches a running scan's findings until two polls in a row report the same total_issues
 * (the service returns the issues found so far while a scan runs), or until maxPolls.
 */
export async function pollUntilSettled<T>(opts: PollOptions<T>): Promise<PollResult<T>> {
  const interval = opts.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const maxPolls = Math.max(2, opts.maxPolls ?? DEFAULT_MAX_POLLS);
  const wait = opts.sleep ?? sleep;
  let previous: IssuesSnapshot<T> | undefined;
  for (let poll = 1; poll <= maxPolls; poll++) {
    if (opts.signal?.aborted) throw abortError();
    if (previous) await wait(interval, opts.signal);
    const snap = await opts.fetch(opts.signal);
    opts.onSnapshot?.(snap, poll);
    if (previous && previous.totalIssues === snap.totalIssues) {
      return { ...snap, settled: true, polls: poll };
    }
    previous = snap;
  }
  return { ...previous!, settled: false, polls: maxPolls };
}

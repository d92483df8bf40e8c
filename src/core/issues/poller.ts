import { sleep, throwIfCancelled } from '../async';

/** One look at a scan's findings. */
export interface IssuesSnapshot<T> {
  issues: T[];
  totalIssues: number;
}

export interface PollOptions<S extends IssuesSnapshot<unknown>> {
  fetch: (signal?: AbortSignal) => Promise<S>;
  /** Wait between polls; default DEFAULT_POLL_INTERVAL_MS. */
  intervalMs?: number;
  /** Upper bound on polls, so a scan that never settles still ends; default DEFAULT_MAX_POLLS. */
  maxPolls?: number;
  /**
   * Polls in a row that must all be empty before "no findings" counts as settled; default DEFAULT_EMPTY_POLLS.
   * A scan that has just started reports nothing yet, so two empty polls prove little.
   */
  emptyPolls?: number;
  signal?: AbortSignal;
  /** Called after every poll with the findings so far, so the UI can show them early. */
  onSnapshot?: (s: S, poll: number) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type PollResult<S extends IssuesSnapshot<unknown>> = S & {
  /** True when two polls in a row reported the same total (decisions.md; more for an empty result); false when maxPolls ran out. */
  settled: boolean;
  polls: number;
};

export const DEFAULT_POLL_INTERVAL_MS = 3000;
export const DEFAULT_MAX_POLLS = 100;
export const DEFAULT_EMPTY_POLLS = 5;


/**
 * Fetches a running scan's findings until two polls in a row report the same total_issues
 * (the service returns the issues found so far while a scan runs), or until maxPolls.
 */
export async function pollUntilSettled<S extends IssuesSnapshot<unknown>>(opts: PollOptions<S>): Promise<PollResult<S>> {
  const interval = opts.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const maxPolls = Math.max(2, opts.maxPolls ?? DEFAULT_MAX_POLLS);
  const emptyPolls = Math.max(2, opts.emptyPolls ?? DEFAULT_EMPTY_POLLS);
  const wait = opts.sleep ?? sleep;
  let previous: S | undefined;
  let emptyInARow = 0;
  for (let poll = 1; poll <= maxPolls; poll++) {
    throwIfCancelled(opts.signal);
    if (previous) await wait(interval, opts.signal);
    const snap = await opts.fetch(opts.signal);
    opts.onSnapshot?.(snap, poll);
    emptyInARow = snap.totalIssues === 0 ? emptyInARow + 1 : 0;
    const same = previous !== undefined && previous.totalIssues === snap.totalIssues;
    if (same && (snap.totalIssues > 0 || emptyInARow >= emptyPolls)) {
      return { ...snap, settled: true, polls: poll };
    }
    previous = snap;
  }
  return { ...previous!, settled: false, polls: maxPolls };
}

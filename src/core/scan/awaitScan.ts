// Waiting for a scan the service has: ask for its state (GET /scan/{scan_id}) with backoff
// until it is done, then read its findings whole, once (decisions.md, the scan lifecycle).
// A real scan takes minutes, so there is no short limit on the wait: it ends when the
// service says the scan is done or failed, when the caller cancels, or after an hour (a
// service that answers "processing" for ever is not polled for ever). A service without
// the status route (404) is watched the older way: its findings' total, until it settles.
import { MAX_FINDINGS_PER_SCAN, MAX_SCAN_BYTES, isRetryable, retryReason, ServiceError, type RetryNotice, type ScanStatusResult, type ServiceClient } from '../api';
import { CancelledAfterUploadError, backoffDelay, isCancellation, sleep as realSleep } from '../async';
import { DEFAULT_MAX_POLLS, pollUntilSettled, toStoredDependency, toStoredIssue, type StoredIssue } from '../issues';
import { isAbsentList } from '../api/findingLists';
import { FINDING_KINDS, kindOf, listName, type FindingKind } from '../issues/kinds';
import { elapsedText } from '../text/time';
import type { ScanRef, StopReason } from './events';
import { errorMessage } from '../errors';
import { l10n, plural } from '../text/l10n';

/** How the scan's state is watched. */
export interface WaitSettings {
  /** First wait between status polls (doubling up to `maxIntervalMs`); also the fallback's poll interval. Default 1000 ms. */
  intervalMs?: number;
  /** Longest wait between status polls. Default 10000 ms (decisions.md). */
  maxIntervalMs?: number;
  /** Fallback only (no status route): polls of the findings' total before the wait ends. Default 100. */
  maxPolls?: number;
  /** Longest wait since the upload for a scan the service keeps running; then it stops (the scan stays for Refresh Results). Default an hour. */
  maxWaitMs?: number;
}

/** A scan still running an hour after its upload is not waited for any longer (the service's CLI bounds its wait too). */
export const MAX_WAIT_MS = 60 * 60 * 1000;

/** What the wait is doing, for a progress line. */
export type WaitState =
  /** The service's status word, and how long since the upload completed. */
  | { phase: 'service'; status: string; elapsedMs: number }
  /** No status route: the findings' total so far. */
  | { phase: 'settling'; totalIssues: number; elapsedMs: number }
  | { phase: 'reading' }
  /** A request failed and is tried again. */
  | { phase: 'retry'; what: 'status' | 'findings'; reason: string; attempt: number; of: number; delayMs: number };

export interface AwaitContext {
  client: ServiceClient;
  signal: AbortSignal;
  log(line: string): void;
  /** Only findings matching this classification are read (a server-side filter of the view). */
  classification?: string;
  wait?: WaitSettings;
  onWait?(s: WaitState): void;
  /**
   * First wait before a failed request is tried again (doubling): of an answer that could not be
   * read (default 2000 ms) and of the network or service failures the client retries (default the
   * client's own).
   */
  retryBaseMs?: number;
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
  now?(): number;
}

/** How one of a scan's lists was read. */
export type ListOutcome =
  | { state: 'read'; total: number }
  | { state: 'absent' }
  | { state: 'failed'; reason: string };

/** A scan's findings as read: those of the lists read whole, and how each list went. */
export interface FoundFindings {
  issues: StoredIssue[];
  /** The totals of the lists read. */
  totalIssues: number;
  unreadable: number;
  lists: Record<FindingKind, ListOutcome>;
}

/** The lists whose reading failed (a list the service does not have is not among them). */
export function failedLists(found: Pick<FoundFindings, 'lists'>): { kind: FindingKind; reason: string }[] {
  return FINDING_KINDS.flatMap((kind) => {
    const l = found.lists[kind];
    return l.state === 'failed' ? [{ kind, reason: l.reason }] : [];
  });
}

export function absentLists(found: Pick<FoundFindings, 'lists'>): FindingKind[] {
  return FINDING_KINDS.filter((kind) => found.lists[kind].state === 'absent');
}

/** A scan done on the service, its findings read whole. */
export interface CompletedScan {
  kind: 'complete';
  found: FoundFindings;
  /** What the service reported going wrong (`scan_errors` above `info`): its results may be incomplete. */
  warnings: string[];
}

/** The service reports the scan failed. */
export class ScanFailedError extends Error {
  constructor(readonly scanId: string, readonly status: string, readonly reason: string | undefined) {
    super(l10n.t('The service reports the scan failed{0}.', reason ? `: ${reason}` : l10n.t(' (status "{0}", no reason given)', status)));
    this.name = 'ScanFailedError';
  }
}

/** The wait ended without the scan's findings; the scan may still end on the service. */
export class ScanStoppedError extends Error {
  constructor(readonly scanId: string, readonly why: Exclude<StopReason, 'cancelled'>, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ScanStoppedError';
  }
}

/** decisions.md: `complete`/`completed` are done; these are failed; anything else still runs. */
const DONE = new Set(['complete', 'completed']);
const FAILED = new Set(['incomplete', 'failed', 'error', 'cancelled', 'canceled']);

export function scanPhase(status: string): 'done' | 'failed' | 'running' {
  const s = status.trim().toLowerCase();
  return DONE.has(s) ? 'done' : FAILED.has(s) ? 'failed' : 'running';
}

/**
 * Retries of a request of the wait (the scan's state, a page of findings) when the network
 * or the service fails, with the transport's backoff: one budget, told as "attempt n of N",
 * after which the wait gives up and says so (about 15 s at the client's default backoff).
 */
export const WAIT_RETRIES = 5;
/** First wait before an answer that could not be read is asked for again (doubling). */
const RETRY_BASE_MS = 2000;

/** What a scan's `scan_errors` say is wrong, `info` left out; bounded and one line each. */
export function scanWarnings(s: ScanStatusResult): string[] {
  return s.scanErrors
    .filter((e) => e.level !== 'info' && e.message.trim())
    .map((e) => `${e.location ? `${e.location}: ` : ''}${e.message.replace(/\s+/g, ' ').trim()}`);
}

/**
 * Waits for the scan and reads its findings. With `wait: false` (Refresh Results) the state
 * is asked once: a scan still running is reported as such instead of waited for, and a
 * service without a status route is read as it is (the user asked for the current state).
 */
export async function awaitScan(ctx: AwaitContext, scan: ScanRef, o: { wait: boolean } = { wait: true }): Promise<CompletedScan | { kind: 'running'; status: string }> {
  const now = ctx.now ?? Date.now;
  const sleep = ctx.sleep ?? realSleep;
  const since = Date.parse(scan.scannedAt);
  const elapsed = () => (Number.isFinite(since) ? Math.max(0, now() - since) : 0);
  const wait = { intervalMs: ctx.wait?.intervalMs ?? 1000, maxIntervalMs: ctx.wait?.maxIntervalMs ?? 10_000, maxPolls: ctx.wait?.maxPolls ?? DEFAULT_MAX_POLLS, maxWaitMs: ctx.wait?.maxWaitMs ?? MAX_WAIT_MS };
  try {
    for (let poll = 1; ; poll++) {
      const status = await retried(ctx, 'status', (onRetry) => ctx.client.getScanStatus(scan.scanId, { signal: ctx.signal, onRetry, retries: WAIT_RETRIES, retryBaseDelayMs: ctx.retryBaseMs }),
        (e) => new ScanStoppedError(scan.scanId, 'unknown', l10n.t('The service could not be asked how the scan is going: {0}', errorMessage(e)), { cause: e }));
      if (!status) return { kind: 'complete', found: await settle(ctx, scan, o.wait, elapsed, wait), warnings: [] };
      const phase = scanPhase(status.status);
      if (phase === 'failed') throw new ScanFailedError(scan.scanId, status.status, status.failedReason);
      if (phase === 'done') {
        const warnings = scanWarnings(status);
        for (const w of warnings) ctx.log(l10n.t('Scan {0} reported a problem, so its results may be incomplete: {1}', scan.scanId, w));
        return { kind: 'complete', found: await readWhole(ctx, scan), warnings };
      }
      if (!o.wait) return { kind: 'running', status: status.status };
      if (elapsed() >= wait.maxWaitMs) {
        throw new ScanStoppedError(scan.scanId, 'still-running', l10n.t('The service was still scanning {0} after the upload, so the editor stopped waiting; the findings shown are unchanged, and Refresh Results fetches the scan\'s findings once it is done.', elapsedText(elapsed())));
      }
      ctx.onWait?.({ phase: 'service', status: status.status, elapsedMs: elapsed() });
      await sleep(pollDelay(poll, wait), ctx.signal);
    }
  } catch (err) {
    // A cancel stops the wait, not the scan: the service goes on with it.
    if (isCancellation(err, ctx.signal) && !(err instanceof ScanStoppedError)) throw new CancelledAfterUploadError(scan.scanId);
    throw err;
  }
}

/** Polls at the first interval before the waits grow: a quick scan (a save's) ends when the service ends it. */
export const PROMPT_POLLS = 10;

/**
 * The wait after status poll `poll` (from 1): the first interval for the first PROMPT_POLLS
 * polls (about ten seconds), then doubling up to the longest, for the scans that take minutes.
 */
export function pollDelay(poll: number, wait: { intervalMs: number; maxIntervalMs: number }): number {
  if (poll <= PROMPT_POLLS) return wait.intervalMs;
  return Math.min(wait.maxIntervalMs, wait.intervalMs * 2 ** Math.min(poll - PROMPT_POLLS, 20));
}

/** The findings of every list, every page, once (fetchFindings). */
async function readWhole(ctx: AwaitContext, scan: ScanRef, previous?: FoundFindings): Promise<FoundFindings> {
  ctx.onWait?.({ phase: 'reading' });
  return fetchFindings(ctx, scan.scanId, ctx.signal, previous);
}

/** No status route: the findings' total until two polls agree (decisions.md, the first table). */
async function settle(ctx: AwaitContext, scan: ScanRef, wait: boolean, elapsed: () => number, s: Required<WaitSettings>): Promise<FoundFindings> {
  if (!wait) return readWhole(ctx, scan);
  let last: FoundFindings | undefined;
  const res = await pollUntilSettled({
    // After the first complete read, a poll whose first page reports the same total is one request, not every page again.
    fetch: async () => (last = await readWhole(ctx, scan, last)),
    intervalMs: s.intervalMs,
    maxPolls: s.maxPolls,
    signal: ctx.signal,
    sleep: ctx.sleep,
    onSnapshot: (snap) => ctx.onWait?.({ phase: 'settling', totalIssues: snap.totalIssues, elapsedMs: elapsed() }),
  });
  if (!res.settled) {
    throw new ScanStoppedError(scan.scanId, 'still-running', l10n.t('The service was still producing findings after {0} polls ({1} so far).', res.polls, res.totalIssues));
  }
  return { issues: res.issues, totalIssues: res.totalIssues, unreadable: res.unreadable, lists: res.lists };
}

/**
 * Runs a request, telling each retry. The transport retries what the network or the service
 * failed (WAIT_RETRIES); when it gives up, so does the wait (`giveUp`). An answer that could
 * not be read is asked for again here, as many times.
 */
async function retried<T>(
  ctx: AwaitContext, what: 'status' | 'findings',
  run: (onRetry: (r: RetryNotice) => void) => Promise<T>, giveUp: (e: unknown) => Error, retries = WAIT_RETRIES,
): Promise<T> {
  const sleep = ctx.sleep ?? realSleep;
  const attempts = retries + 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run((r) => ctx.onWait?.({ phase: 'retry', what, reason: r.reason, attempt: r.attempt, of: r.of, delayMs: r.delayMs }));
    } catch (e) {
      if (isCancellation(e, ctx.signal)) throw e;
      if (isRetryable(e)) throw giveUp(e);
      if (!(e instanceof ServiceError && e.kind === 'bad-response')) throw e;
      if (attempt >= attempts) throw giveUp(e);
      const delayMs = backoffDelay(attempt, ctx.retryBaseMs ?? RETRY_BASE_MS);
      ctx.onWait?.({ phase: 'retry', what, reason: retryReason(e), attempt, of: retries, delayMs });
      await sleep(delayMs, ctx.signal);
    }
  }
}

/** Failures of the session rather than of a list: they end the whole read, as they always did. */
const SESSION_ERRORS: ReadonlySet<string> = new Set(['unauthorized', 'proxy-auth', 'unsupported', 'aborted']);

type ReadContext = Pick<AwaitContext, 'client' | 'log' | 'classification'> & { onRetry?: (r: RetryNotice) => void; onWait?: AwaitContext['onWait']; retryBaseMs?: number; sleep?: AwaitContext['sleep'] };

/**
 * A scan's readable findings, of its three lists read at once, each whole; each unreadable
 * finding is logged with why, and counted. A list the service does not have (404) is
 * absent; a list that cannot be read after the retries is failed, and its earlier findings
 * are the caller's to keep: only when no list could be read at all does this throw
 * (ScanStoppedError, unreadable). With `previous` (the last complete read), a list whose
 * first page reports the same total is not read again.
 */
export async function fetchFindings(ctx: ReadContext, scanId: string, signal?: AbortSignal, previous?: FoundFindings): Promise<FoundFindings> {
  const read = await Promise.all(FINDING_KINDS.map((kind) => readList(ctx, kind, scanId, signal, previous)));
  const lists = Object.fromEntries(FINDING_KINDS.map((kind, n) => [kind, read[n]!.outcome])) as Record<FindingKind, ListOutcome>;
  const failed = failedLists({ lists });
  if (!FINDING_KINDS.some((kind) => lists[kind].state === 'read')) {
    // Not one list: what stopped them all is said as itself (signed out, this API retired…),
    // unless the service or the network failed, as it may again in a moment.
    const cause = read.find((r) => r.error !== undefined && !isRetryable(r.error) && !(r.error instanceof ServiceError && r.error.kind === 'bad-response'))?.error;
    if (cause) throw cause;
    const why = failed.length ? failed.map((f) => f.reason).join('; ') : l10n.t('the service has none of the lists of findings (every list answered 404)');
    throw new ScanStoppedError(scanId, 'unreadable', l10n.t('The findings could not be read: {0}', why), { cause: read.find((r) => r.error !== undefined)?.error });
  }
  for (const f of failed) ctx.log(l10n.t('Scan {0}: the {1} could not be read ({2}); the earlier ones are kept.', scanId, listName(f.kind), f.reason));
  const issues = read.flatMap((r) => r.issues);
  return {
    issues,
    totalIssues: read.reduce((n, r) => n + (r.outcome.state === 'read' ? r.outcome.total : 0), 0),
    unreadable: read.reduce((n, r) => n + r.unreadable, 0),
    lists,
  };
}

/**
 * One list, whole, tried again a few times before it counts as failed. A list that failed
 * after its retries in the last poll is asked once: the poll that settles the scan would
 * otherwise spend the same retries again before its other lists are shown.
 */
async function readList(
  ctx: ReadContext, kind: FindingKind, scanId: string, signal: AbortSignal | undefined, previous: FoundFindings | undefined,
): Promise<{ outcome: ListOutcome; issues: StoredIssue[]; unreadable: number; error?: unknown }> {
  const before = previous?.lists[kind];
  const retries = before?.state === 'failed' ? 0 : WAIT_RETRIES;
  const q = { classification: ctx.classification, signal, unchangedIfTotal: before?.state === 'read' ? before.total : undefined, retries, retryBaseDelayMs: ctx.retryBaseMs };
  try {
    const res = await retried({ ...ctx, signal: signal ?? new AbortController().signal }, 'findings', (onRetry) => (kind === 'dependency'
      ? ctx.client.listAllIssues('dependency', scanId, { ...q, onRetry: (r) => { ctx.onRetry?.(r); onRetry(r); }, convert: toStoredDependency })
      : ctx.client.listAllIssues(kind, scanId, { ...q, onRetry: (r) => { ctx.onRetry?.(r); onRetry(r); }, convert: (i) => toStoredIssue(i, kind) })), (e) => e as Error, retries);
    if (res.unchanged && previous && before?.state === 'read') {
      return { outcome: before, issues: previous.issues.filter((i) => kindOf(i) === kind), unreadable: 0 };
    }
    for (const u of res.unreadable) {
      ctx.log(l10n.t('Scan {0}: a finding{1} could not be read and is left out: {2}', scanId, u.id ? l10n.t(' (id {0})', u.id) : '', u.reason));
    }
    if (res.notRead) {
      ctx.log(l10n.t('Scan {0}: {1} more findings were not read: one scan is read up to {2} findings or {3} MB of answers.', scanId, res.notRead, MAX_FINDINGS_PER_SCAN.toLocaleString('en-US'), MAX_SCAN_BYTES / (1024 * 1024)));
    }
    return { outcome: { state: 'read', total: res.totalIssues }, issues: res.issues, unreadable: res.unreadable.length + res.dropped + (res.notRead ?? 0) };
  } catch (e) {
    if (isCancellation(e, signal)) throw e;
    // Not this list's: the key, the proxy's credentials, this API version. Every request fails alike.
    if (e instanceof ServiceError && SESSION_ERRORS.has(e.kind)) throw e;
    if (isAbsentList(e)) return { outcome: { state: 'absent' }, issues: [], unreadable: 0 };
    return { outcome: { state: 'failed', reason: errorMessage(e) }, issues: [], unreadable: 0, error: e };
  }
}

/** A progress line for the wait: "the service is scanning · 2 min", "connection lost, retrying in 4 s (attempt 3 of 6)". */
export function waitMessage(s: WaitState): string {
  const secs = (ms: number) => l10n.t('{0} s', Math.max(1, Math.round(ms / 1000)));
  switch (s.phase) {
    case 'service':
      return `${serviceStateWords(s.status)} · ${elapsedText(s.elapsedMs)}`;
    case 'settling':
      return l10n.t('waiting for results · {0} so far · {1}', plural(s.totalIssues, l10n.t('{0} issue'), l10n.t('{0} issues')), elapsedText(s.elapsedMs));
    case 'reading':
      return l10n.t('reading the findings…');
    case 'retry':
      return l10n.t('{0}{1}, retrying in {2} (attempt {3} of {4})', s.what === 'findings' ? l10n.t('reading the findings: ') : '', s.reason, secs(s.delayMs), s.attempt, s.of);
  }
}

/** The service's status word as a clause; an unknown word is quoted as it came. */
export function serviceStateWords(status: string): string {
  const s = status.trim().toLowerCase();
  if (s === 'queued' || s === 'pending' || s === 'waiting') return l10n.t('the service has queued the scan');
  if (s === 'processing' || s === 'scanning' || s === 'running' || s === 'in_progress' || s === 'in progress') return l10n.t('the service is scanning');
  return l10n.t('the service reports "{0}"', status.replace(/\s+/g, ' ').trim().slice(0, 40));
}

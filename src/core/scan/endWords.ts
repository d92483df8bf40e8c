// What is said when a scan ends, as words: how many issues in each folder, what was left
// out and why, and the one place that maps each way a scan can fail to its sentence and to
// the summary a command returns. Pure: the editor shows these words (scan/scanEnd.ts).
import { isServiceError } from '../api';
import { CancelledAfterUploadError, isCancellation } from '../async';
import { errorMessage } from '../errors';
import { clockTime } from '../text/time';
import { UploadInterruptedError } from '../upload/engine';
import { skipReasonLabel, type SkippedFile } from '../workspace/selectFiles';
import { ScanFailedError, ScanStoppedError } from './awaitScan';
import type { ScanEvent } from './events';
import { LIST_ROUTES } from '../api/findingLists';
import { listName, type FindingKind } from '../issues/kinds';
import { oneLine } from '../text/untrusted';
import { formatNumber, l10n, listWords, plural } from '../text/l10n';

export interface FolderOutcome {
  folder: string;
  scanId?: string;
  files: number;
  issues?: number;
  /** How many of them are new (not found before the folder's latest full scan). */
  fresh?: number;
  note?: string;
  /** Files left out for a reason worth telling (not ignored, excluded by default or binary). */
  leftOut?: SkippedFile[];
  /** What git ignores was left out too, uncounted in `leftOut` (a whole folder in git). */
  gitIgnoredNotListed?: boolean;
  /** A partial scan: what its files were (changed, open...), so its count is not read as the folder's. */
  partialOf?: PartialKind;
  /** What the service reported going wrong in the scan: its results may be incomplete. */
  warnings?: string[];
  /** The service project the scan went to. */
  project?: string;
  /** Lists of the scan that could not be read: their earlier findings are kept. */
  unreadLists?: { kind: FindingKind; reason: string }[];
}

/**
 * What a scan command resolves to; `error` says why it stopped (also shown to the user).
 * `continuesOnService` names a scan that a cancel came too late to stop.
 */
export interface ScanSummary { folders: FolderOutcome[]; cancelled: boolean; continuesOnService?: string; error?: { kind: string; message: string; retryAfterMs?: number } }

export type EndSummary = Omit<ScanSummary, 'folders'>;

/** What a partial scan's files were. */
export type PartialKind = 'changed' | 'open' | 'chosen' | 'staged';

/** "2 issues in order-service", "no issues, in the 1 changed file of order-service". */
function countInFolder(f: FolderOutcome): string {
  const issues = f.issues ? plural(f.issues, l10n.t('{0} issue'), l10n.t('{0} issues')) : l10n.t('no issues');
  const found = f.fresh ? l10n.t('{0}, {1} new,', issues, formatNumber(f.fresh)) : issues;
  switch (f.partialOf) {
    case undefined: return l10n.t('{0} in {1}', found, f.folder);
    case 'changed': return plural(f.files, l10n.t('{1} in the {0} changed file of {2}'), l10n.t('{1} in the {0} changed files of {2}'), found, f.folder);
    case 'open': return plural(f.files, l10n.t('{1} in the {0} open file of {2}'), l10n.t('{1} in the {0} open files of {2}'), found, f.folder);
    case 'chosen': return plural(f.files, l10n.t('{1} in the {0} chosen file of {2}'), l10n.t('{1} in the {0} chosen files of {2}'), found, f.folder);
    case 'staged': return plural(f.files, l10n.t('{1} in the {0} staged file of {2}'), l10n.t('{1} in the {0} staged files of {2}'), found, f.folder);
  }
}

/** "The findings shown are from the scan of 14:02." / "No findings are shown until a scan completes." */
export function shownSentence(lastScannedAt: string | undefined, now: Date): string {
  if (!lastScannedAt) return l10n.t('No findings are shown until a scan has completed.');
  return l10n.t('The findings shown are still those of the scan of {0}.', clockTime(lastScannedAt, now));
}

/** The end of a scan that finished, in sentences, and every file left out (with its folder). */
export function finishedWords(folders: readonly FolderOutcome[]): { text: string; anyIssues: boolean; leftOut: (SkippedFile & { folder: string })[] } {
  const sentences: string[] = [];
  const scanned = folders.filter((f) => f.scanId);
  if (scanned.length) {
    // A partial scan's count is of its files, said so: "2 issues in the 1 changed file of order-service".
    sentences.push(l10n.t('Scan finished: {0}.', scanned.map(countInFolder).join(', ')));
  }
  // Never "no issues" for a list that was not read: which one, and that its earlier findings stay.
  for (const f of scanned.filter((x) => x.unreadLists?.length)) {
    sentences.push(l10n.t('{0}: the {1} could not be read ({2}); the earlier ones are kept, and Refresh Results tries again.',
      f.folder, listWords(f.unreadLists!.map((l) => listName(l.kind))), oneLine(f.unreadLists![0]!.reason, 200).replace(/[.\s]+$/, '')));
  }
  // Notes are clauses; a service's or git's text may end in its own period.
  for (const f of folders.filter((x) => x.note)) sentences.push(l10n.t('{0}: {1}.', f.folder, f.note!.replace(/[.\s]+$/, '')));
  const leftOut = folders.flatMap((f) => (f.leftOut ?? []).map((s) => ({ folder: f.folder, ...s })));
  if (leftOut.length) {
    const byReason = new Map<string, number>();
    for (const s of leftOut) byReason.set(skipReasonLabel(s.reason), (byReason.get(skipReasonLabel(s.reason)) ?? 0) + 1);
    // Labels are plural nouns ("credential files"); the count follows so one reads right.
    const parts = [...byReason].sort((a, b) => b[1] - a[1]).map(([r, n]) => l10n.t('{0}: {1}', r, formatNumber(n)));
    // Upload Preview lists what git ignores too; a scan does not look for it, so says what it counts.
    const besides = folders.some((f) => f.gitIgnoredNotListed) ? l10n.t(', besides what git ignores') : '';
    sentences.push(plural(leftOut.length, l10n.t('{0} file was left out{1}: {2}.'), l10n.t('{0} files were left out{1}: {2}.'), besides, parts.join(', ')));
  }
  return { text: sentences.join(' '), anyIssues: scanned.some((f) => f.issues), leftOut };
}

/** A scan on save's outcome, for the log. */
export function savedScanLine(f: FolderOutcome): string {
  const issues = f.issues ? plural(f.issues, l10n.t('{0} issue'), l10n.t('{0} issues')) : l10n.t('no issues');
  const found = f.scanId ? plural(f.files, l10n.t('{1} in {0} saved file'), l10n.t('{1} in {0} saved files'), f.fresh ? l10n.t('{0}, {1} new', issues, formatNumber(f.fresh)) : issues) : '';
  return l10n.t('{0}: scan on save {1}.', f.folder, [found, f.note].filter(Boolean).join('; '));
}

/** Folders whose scans go on on the service after a cancel: one sentence for all of them. */
export function continuingWords(names: readonly string[], shown: string): { text: string; ignoreTitle: string } {
  const many = names.length > 1;
  return {
    text: many
      ? l10n.t('Stopped waiting for the scans of {0}: the service goes on scanning them. {1} Refresh Results shows their findings once they are done.', listWords(names), shown)
      : l10n.t('Stopped waiting for the scan of {0}: the service goes on scanning it. {1} Refresh Results shows its findings once it is done.', listWords(names), shown),
    ignoreTitle: many ? l10n.t('Ignore These Scans') : l10n.t('Ignore This Scan'),
  };
}

/** Each way a folder's scan can end without finishing, as the words and the summary need it. */
export type Failure =
  | { kind: 'continues'; scanId: string }
  | { kind: 'scan-failed'; reason?: string; message: string }
  | { kind: 'stopped'; why: string; scanId: string; message: string }
  | { kind: 'last-chunk' }
  | { kind: 'cancelled' }
  | { kind: 'interrupted'; message: string }
  | { kind: 'error'; errorKind: string; message: string; retryAfterMs?: number };

/** What kind of end `err` is, in the order its words are chosen (a scan the service has goes first). */
export function failureOf(err: unknown, signal: AbortSignal): Failure {
  if (err instanceof CancelledAfterUploadError) return { kind: 'continues', scanId: err.scanId };
  if (err instanceof ScanFailedError) return { kind: 'scan-failed', reason: err.reason, message: err.message };
  if (err instanceof ScanStoppedError) return { kind: 'stopped', why: err.why, scanId: err.scanId, message: err.message };
  if (err instanceof UploadInterruptedError && err.cancelled && err.lastChunkInFlight) return { kind: 'last-chunk' };
  if (isCancellation(err, signal)) return { kind: 'cancelled' };
  if (err instanceof UploadInterruptedError) return { kind: 'interrupted', message: err.message };
  return {
    kind: 'error', errorKind: isServiceError(err) ? err.kind : 'error', message: errorMessage(err),
    ...(isServiceError(err) && err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
  };
}

/** What a notification says of a failure (`error` kinds go through the editor's error translator instead). */
export function failureSentence(f: Exclude<Failure, { kind: 'continues' | 'error' }>, folder: string | undefined, shown: string): string {
  switch (f.kind) {
    case 'scan-failed': return l10n.t('The scan of {0} failed on the service{1}. {2}', folder ?? l10n.t('the workspace'), f.reason ? `: ${f.reason}` : l10n.t(' (it gave no reason)'), shown);
    case 'stopped': return `${folder ? `${folder}: ` : ''}${f.message} ${shown}`;
    case 'last-chunk': return l10n.t('Cancelled while the last part of the upload{0} was being sent: the service may have received it all and scan it. Scan again later to see current results.', folder ? l10n.t(' of {0}', folder) : '');
    case 'cancelled': return l10n.t('Scan cancelled. {0}', shown);
    case 'interrupted': return f.message;
  }
}

/** What the command's summary says of a failure (`error`), when it says anything. */
export function failureSummaryError(f: Failure): EndSummary['error'] | undefined {
  switch (f.kind) {
    case 'scan-failed': return { kind: 'scan-failed', message: f.message };
    case 'stopped': return { kind: f.why, message: f.message };
    case 'interrupted': return { kind: 'interrupted', message: f.message };
    case 'error': return { kind: f.errorKind, message: f.message };
    default: return undefined;
  }
}

/**
 * How a background scan (scan on save) that did not finish is summed up: cancelled when the
 * run was cancelled or the scan goes on on the service, else the first failure's kind.
 */
export function backgroundEnd(failures: readonly unknown[], signal: AbortSignal): EndSummary {
  const summary: EndSummary = { cancelled: false };
  for (const err of failures) {
    if (isCancellation(err, signal) || err instanceof CancelledAfterUploadError) {
      summary.cancelled = true;
      continue;
    }
    summary.error ??= {
      kind: isServiceError(err) ? err.kind : err instanceof ScanFailedError ? 'scan-failed' : 'error',
      message: errorMessage(err),
      ...(isServiceError(err) && err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
    };
  }
  return summary;
}

/** A list the service does not have, for the log (once a session; decisions.md). */
export function absentListLine(kind: FindingKind, baseUrl: string): string {
  return l10n.t('The service at {0} has no list of {1} (404 on {2} for a scan it reported done): none are shown, and none are counted as 0.', baseUrl, listName(kind), LIST_ROUTES[kind].endpoint);
}

/** A scan event, for the log. */
export function scanEventLine(e: ScanEvent): string {
  switch (e.kind) {
    case 'uploaded': return l10n.t('scan {0} uploaded; waiting for the service to finish it.', e.scan.scanId);
    case 'completed': return l10n.t('scan {0} completed: {1} findings read{2}.', e.findings.scan.scanId, e.findings.issues.length, e.findings.unreadable ? `, ${e.findings.unreadable} unreadable` : '');
    case 'failed': return l10n.t('scan {0} failed on the service: {1}. The findings shown are unchanged.', e.scan.scanId, e.reason ?? l10n.t('no reason given'));
    case 'stopped': return l10n.t('stopped waiting for scan {0} ({1}){2}. The findings shown are unchanged.', e.scan.scanId, e.why, e.detail ? `: ${e.detail}` : '');
  }
}

// What is said when a scan ends, as words: how many issues in each folder, what was left
// out and why, and the one place that maps each way a scan can fail to its sentence and to
// the summary a command returns. Pure: the editor shows these words (scan/scanEnd.ts).
import { isServiceError } from '../api';
import { CancelledAfterUploadError, isCancellation } from '../async';
import { errorMessage } from '../errors';
import { listWords, plural } from '../text/plural';
import { clockTime } from '../text/time';
import { UploadInterruptedError } from '../upload/engine';
import { skipReasonLabel, type SkippedFile } from '../workspace/selectFiles';
import { ScanFailedError, ScanStoppedError } from './awaitScan';
import type { ScanEvent } from './events';

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
  /** A partial scan: what its files were ("changed file", "open file"), so its count is not read as the folder's. */
  partialOf?: string;
  /** What the service reported going wrong in the scan: its results may be incomplete. */
  warnings?: string[];
  /** The service project the scan went to. */
  project?: string;
}

/**
 * What a scan command resolves to; `error` says why it stopped (also shown to the user).
 * `continuesOnService` names a scan that a cancel came too late to stop.
 */
export interface ScanSummary { folders: FolderOutcome[]; cancelled: boolean; continuesOnService?: string; error?: { kind: string; message: string; retryAfterMs?: number } }

export type EndSummary = Omit<ScanSummary, 'folders'>;

/** "The findings shown are from the scan of 14:02." / "No findings are shown until a scan completes." */
export function shownSentence(lastScannedAt: string | undefined, now: Date): string {
  if (!lastScannedAt) return 'No findings are shown until a scan has completed.';
  return `The findings shown are still those of the scan of ${clockTime(lastScannedAt, now)}.`;
}

/** The end of a scan that finished, in sentences, and every file left out (with its folder). */
export function finishedWords(folders: readonly FolderOutcome[]): { text: string; anyIssues: boolean; leftOut: (SkippedFile & { folder: string })[] } {
  const sentences: string[] = [];
  const scanned = folders.filter((f) => f.scanId);
  if (scanned.length) {
    // A partial scan's count is of its files, said so: "2 issues in the 1 changed file of order-service".
    const counts = scanned.map((f) => `${f.issues ? plural(f.issues, 'issue') : 'no issues'}${f.fresh ? `, ${f.fresh} new,` : ''} in ${f.partialOf ? `${f.files === 1 ? 'the 1' : `the ${f.files.toLocaleString('en-US')}`} ${f.files === 1 ? f.partialOf : `${f.partialOf}s`} of ` : ''}${f.folder}`);
    sentences.push(`Scan finished: ${counts.join(', ')}.`);
  }
  // Notes are clauses; a service's or git's text may end in its own period.
  for (const f of folders.filter((x) => x.note)) sentences.push(`${f.folder}: ${f.note!.replace(/[.\s]+$/, '')}.`);
  const leftOut = folders.flatMap((f) => (f.leftOut ?? []).map((s) => ({ folder: f.folder, ...s })));
  if (leftOut.length) {
    const byReason = new Map<string, number>();
    for (const s of leftOut) byReason.set(skipReasonLabel(s.reason), (byReason.get(skipReasonLabel(s.reason)) ?? 0) + 1);
    // Labels are plural nouns ("credential files"); the count follows so one reads right.
    const parts = [...byReason].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r}: ${n}`);
    // Upload Preview lists what git ignores too; a scan does not look for it, so says what it counts.
    const besides = folders.some((f) => f.gitIgnoredNotListed) ? ', besides what git ignores' : '';
    sentences.push(`${plural(leftOut.length, 'file')} ${leftOut.length === 1 ? 'was' : 'were'} left out${besides}: ${parts.join(', ')}.`);
  }
  return { text: sentences.join(' '), anyIssues: scanned.some((f) => f.issues), leftOut };
}

/** A scan on save's outcome, for the log. */
export function savedScanLine(f: FolderOutcome): string {
  const found = f.scanId ? `${f.issues ? plural(f.issues, 'issue') : 'no issues'}${f.fresh ? `, ${f.fresh} new` : ''} in ${plural(f.files, 'saved file')}` : '';
  return `${f.folder}: scan on save ${[found, f.note].filter(Boolean).join('; ')}.`;
}

/** Folders whose scans go on on the service after a cancel: one sentence for all of them. */
export function continuingWords(names: readonly string[], shown: string): { text: string; ignoreTitle: string } {
  const many = names.length > 1;
  return {
    text: `Stopped waiting for the scan${many ? 's' : ''} of ${listWords(names)}: the service goes on scanning ${many ? 'them' : 'it'}. ${shown} Refresh Results shows ${many ? 'their' : 'its'} findings once ${many ? 'they are' : 'it is'} done.`,
    ignoreTitle: many ? 'Ignore These Scans' : 'Ignore This Scan',
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
    case 'scan-failed': return `The scan of ${folder ?? 'the workspace'} failed on the service${f.reason ? `: ${f.reason}` : ' (it gave no reason)'}. ${shown}`;
    case 'stopped': return `${folder ? `${folder}: ` : ''}${f.message} ${shown}`;
    case 'last-chunk': return `Cancelled while the last part of the upload${folder ? ` of ${folder}` : ''} was being sent: the service may have received it all and scan it. Scan again later to see current results.`;
    case 'cancelled': return `Scan cancelled. ${shown}`;
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

/** A scan event, for the log. */
export function scanEventLine(e: ScanEvent): string {
  switch (e.kind) {
    case 'uploaded': return `scan ${e.scan.scanId} uploaded; waiting for the service to finish it.`;
    case 'completed': return `scan ${e.findings.scan.scanId} completed: ${e.findings.issues.length} findings read${e.findings.unreadable ? `, ${e.findings.unreadable} unreadable` : ''}.`;
    case 'failed': return `scan ${e.scan.scanId} failed on the service: ${e.reason ?? 'no reason given'}. The findings shown are unchanged.`;
    case 'stopped': return `stopped waiting for scan ${e.scan.scanId} (${e.why})${e.detail ? `: ${e.detail}` : ''}. The findings shown are unchanged.`;
  }
}

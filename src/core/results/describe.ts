// What a folder's findings say about themselves, in words: from which scan they are, what
// happened to a later one, and what the service reported going wrong. The views show it
// (the tree's message, the status bar's tooltip, the log); text from the service in it is
// untrusted, so each view makes it inert its own way.
import { formatBytes } from '../text/bytes';
import { clockTime } from '../text/time';
import { oneLine } from '../text/untrusted';
import type { Attempt, FolderFindings, PendingScan, ScanRef } from './types';
import { formatNumber, l10n, listWords, plural } from '../text/l10n';
import { FINDING_KINDS, listName, type FindingKind } from '../issues/kinds';

const REASON_CHARS = 300;

/** What signing out changed for the findings shown, said where they are (status bar, view). */
export const SIGNED_OUT_NOTE = () => l10n.t('Signed out: the findings shown are those of your last scans, kept as they were; sign in to scan again and to see which violate your company\'s policies.');

function said(detail: string | undefined): string {
  return detail ? oneLine(detail, REASON_CHARS) : '';
}

/** What happened to the last attempt, as a clause: "the last scan (14:05) was cancelled". */
export function attemptText(a: Attempt, now: Date): string {
  const when = clockTime(a.scannedAt ?? a.at, now);
  const detail = said(a.detail);
  switch (a.kind) {
    case 'cancelled':
      return a.scanId
        ? l10n.t('you stopped waiting for the scan of {0}; the service goes on scanning it (Refresh Results fetches its findings once it is done)', when)
        : l10n.t('the last scan ({0}) was cancelled', when);
    case 'failed':
      return l10n.t('the last scan ({0}) failed on the service{1}', when, detail ? `: ${detail}` : l10n.t(' (it gave no reason)'));
    case 'unreadable':
      return l10n.t('the findings of the scan of {0} could not be read{1}; Refresh Results tries again', when, detail ? ` (${detail})` : '');
    case 'unknown':
      return l10n.t('the service could not be asked how the scan of {0} went{1}; Refresh Results asks again', when, detail ? ` (${detail})` : '');
    case 'still-running':
      return l10n.t('the scan of {0} was still running on the service when the wait ended; Refresh Results fetches its findings', when);
    case 'error':
      return l10n.t('the last scan ({0}) stopped{1}', when, detail ? `: ${detail}` : '');
  }
}

/** A scan still on the service, as a clause. */
export function pendingText(p: PendingScan, now: Date): string {
  const when = clockTime(p.scannedAt, now);
  return p.waiting ? l10n.t('the scan of {0} is running on the service', when) : l10n.t('the scan of {0} may still be running on the service', when);
}

/** "the scan of 14:02" (partial scans since: "the scans of 14:02 to 14:10"). */
export function scansPhrase(f: FolderFindings, now: Date): string {
  if (!f.scans.length) return l10n.t('no completed scan');
  const first = clockTime(f.scans[0].scannedAt, now);
  const last = clockTime(f.scans[f.scans.length - 1].scannedAt, now);
  return f.scans.length > 1 && first !== last ? l10n.t('the scans of {0} to {1}', first, last) : l10n.t('the scan of {0}', first);
}

/** "2 security, 1 dependency": the count of each list that has findings, in the lists' order. */
export function kindCounts(byKind: Partial<Record<FindingKind, number>>): string {
  const words: Record<FindingKind, (n: number) => string> = {
    security: (n) => l10n.t('{0} security', formatNumber(n)),
    quality: (n) => l10n.t('{0} code quality', formatNumber(n)),
    dependency: (n) => plural(n, l10n.t('{0} dependency'), l10n.t('{0} dependencies')),
  };
  return listWords(FINDING_KINDS.filter((k) => byKind[k]).map((k) => words[k](byKind[k]!)));
}

/**
 * "6 issues, from the scan of 14:02"; with findings of more than one list, "6 issues (2
 * security, 4 code quality), from the scan of 14:02"; "no issues found in the scan of 14:02".
 */
export function resultsText(f: FolderFindings, count: number, now: Date, byKind: Partial<Record<FindingKind, number>> = {}): string {
  const lists = FINDING_KINDS.filter((k) => byKind[k]).length > 1 ? kindCounts(byKind) : undefined;
  if (!f.scans.length) {
    return lists ? plural(count, l10n.t('{0} issue ({1})'), l10n.t('{0} issues ({1})'), lists) : plural(count, l10n.t('{0} issue'), l10n.t('{0} issues'));
  }
  if (!count) return l10n.t('no issues found in {0}', scansPhrase(f, now));
  return lists
    ? plural(count, l10n.t('{0} issue ({1}), from {2}'), l10n.t('{0} issues ({1}), from {2}'), lists, scansPhrase(f, now))
    : plural(count, l10n.t('{0} issue, from {1}'), l10n.t('{0} issues, from {1}'), scansPhrase(f, now));
}

/** What the service reported going wrong in the scans whose findings are shown. */
export function warningsText(f: FolderFindings, now: Date): string | undefined {
  const warned = f.scans.filter((s) => s.warnings?.length);
  if (!warned.length) return undefined;
  const s = warned[warned.length - 1];
  const more = s.warnings!.length - 1;
  return l10n.t('the scan of {0} reported problems, so its results may be incomplete: {1}{2}', clockTime(s.scannedAt, now), said(s.warnings![0]), more > 0 ? l10n.t(' (and {0} more, see Show Log)', more) : '');
}

/** Lists of the newest scan that could not be read: their earlier findings are what is shown. */
export function unreadListsText(f: FolderFindings, now: Date): string | undefined {
  const s = [...f.scans].reverse().find((x) => x.unreadLists?.length);
  if (!s) return undefined;
  const lists = listWords(s.unreadLists!.map((l) => listName(l.kind)));
  return l10n.t('the {0} of the scan of {1} could not be read ({2}), so those shown are from earlier scans; Refresh Results tries again', lists, clockTime(s.scannedAt, now), said(s.unreadLists![0]!.reason));
}

/**
 * Which lists the service has, as the newest of `scans` read them: "security, code quality
 * and dependency findings (the scan of 14:02)", or which list it lacks. Undefined before a scan.
 */
export function serviceListsText(scans: readonly ScanRef[], now: Date): string | undefined {
  const newest = [...scans].sort((a, b) => a.scannedAt.localeCompare(b.scannedAt)).at(-1);
  if (!newest) return undefined;
  const absent = new Set(newest.absentLists);
  const has = listWords(FINDING_KINDS.filter((k) => !absent.has(k)).map(listName));
  const when = clockTime(newest.scannedAt, now);
  return absent.size
    ? l10n.t('{0}; the service has no list of {1} (404 in the scan of {2})', has, listWords([...absent].map(listName)), when)
    : l10n.t('{0} (all three lists, in the scan of {1})', has, when);
}

/**
 * Sentences about a folder beyond its findings: what happened to the last attempt, scans
 * still on the service, warnings. Empty when all is as it should be.
 */
export function folderNotes(f: FolderFindings, now: Date): string[] {
  const notes: string[] = [];
  if (f.lastAttempt) notes.push(attemptText(f.lastAttempt, now));
  for (const p of f.pending ?? []) {
    // A stopped scan is already told by its attempt.
    if (p.waiting || f.lastAttempt?.scanId !== p.scanId) notes.push(pendingText(p, now));
  }
  const w = warningsText(f, now);
  if (w) notes.push(w);
  const u = unreadListsText(f, now);
  if (u) notes.push(u);
  // A service's or the network's own words may end with their own period.
  return notes.map((n) => `${n.charAt(0).toUpperCase()}${n.slice(1).replace(/[.\s]+$/, '')}.`);
}

/** Uploads saved to resume, in a sentence: which folder, how big, since when, and what to do. */
export function waitingUploadsText(waiting: readonly { folder: string; size: number; createdAt: string }[], now: Date): string | undefined {
  if (!waiting.length) return undefined;
  const each = waiting.map((w) => l10n.t('{0} ({1}, started {2})', w.folder, formatBytes(w.size), clockTime(w.createdAt, now)));
  return waiting.length === 1
    ? l10n.t('An interrupted upload of {0} waits: Resume Upload continues it where it stopped; a new scan of the folder starts over.', each[0])
    : l10n.t('Interrupted uploads of {0} wait: Resume Upload continues them where they stopped; a new scan starts over.', listWords(each));
}

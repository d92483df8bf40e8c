// The rules of a folder's findings, as pure functions of its state: findings change only
// when a scan has completed and was read whole; a partial scan replaces only the findings
// of the files it scanned; scans are applied in the order they were uploaded, whatever the
// order they complete in; anything else (cancel, failure, unreadable results) keeps the
// findings and dismissals as they are and records what happened.
import type { StoredIssue } from '../issues';
import { kindOf } from '../issues/kinds';
import type { ScanFindings, ScanRef, StopReason } from '../scan/events';
import type { Attempt, FolderFindings, PendingScan } from './types';

/** Overlays kept per folder before the oldest partial scans are folded away. */
export const MAX_SCANS_PER_FOLDER = 20;
/** Scans kept waiting per folder: older ones are dropped first (each is one more status request). */
export const MAX_PENDING_PER_FOLDER = 10;

export function emptyFolder(folderUri: string): FolderFindings {
  return { folderUri, scans: [], issues: [] };
}

const byUpload = (a: ScanRef, b: ScanRef) => a.scannedAt.localeCompare(b.scannedAt);

/** Where a completed scan's findings go. */
export interface Merge {
  /** A scan uploaded later covered every file: this one changes no finding. */
  superseded: boolean;
  /** The folder's findings that stay as they are. */
  kept: StoredIssue[];
  /** The scan's findings to place (those of files no later scan covered). */
  incoming: StoredIssue[];
  /** The folder's state besides its findings. */
  next: Omit<FolderFindings, 'issues'>;
}

/** Whether an attempt is older than (or is) the scan that just completed: then it is no longer news. */
function attemptSettledBy(a: Attempt | undefined, scan: ScanRef): boolean {
  if (!a) return true;
  if (a.scanId === scan.scanId) return true;
  return (a.scannedAt ?? a.at) <= scan.scannedAt;
}

/**
 * Merges a completed scan into the folder. Scans uploaded after it keep the files they
 * covered: a full scan uploaded later supersedes it whole; partial scans uploaded later
 * keep theirs. A full scan also ends the wait for every scan uploaded before it.
 */
export function mergeCompleted(base: FolderFindings, f: ScanFindings, account?: string): Merge {
  const scan = f.scan;
  const others = base.scans.filter((s) => s.scanId !== scan.scanId);
  const later = others.filter((s) => s.scannedAt > scan.scannedAt);
  const pending = (base.pending ?? []).filter((p) => p.scanId !== scan.scanId && (scan.partialFiles || p.scannedAt > scan.scannedAt));
  const lastAttempt = attemptSettledBy(base.lastAttempt, scan) ? undefined : base.lastAttempt;
  const rest = { folderUri: base.folderUri, account: account ?? base.account, pending: pending.length ? pending : undefined, lastAttempt };
  if (later.some((s) => !s.partialFiles)) {
    return { superseded: true, kept: base.issues, incoming: [], next: { ...base, ...rest } };
  }
  const laterFiles = new Set(later.flatMap((s) => s.partialFiles ?? []));
  const mine = scan.partialFiles ? new Set(scan.partialFiles) : undefined;
  const covers = (p: string) => !laterFiles.has(p) && (!mine || mine.has(p));
  // A list of this scan that could not be read does not speak for its files: its earlier findings stay.
  const unread = new Set(scan.unreadLists?.map((l) => l.kind));
  const replaces = (i: StoredIssue) => covers(i.path) && !unread.has(kindOf(i));
  const kept = base.issues.filter((i) => !replaces(i));
  const incoming = f.issues.filter((i) => covers(i.path));
  // The scan speaks for its files: findings that left them (a fix, deleted lines) are forgotten.
  const left = (base.left ?? []).filter((l) => !replaces(l.issue));
  const fileDigests = Object.fromEntries(Object.entries(base.fileDigests ?? {}).filter(([p]) => !covers(p)));
  const scans = scan.partialFiles
    ? [...others, scan].sort(byUpload).slice(-MAX_SCANS_PER_FOLDER)
    : [scan, ...later];
  // Counted per scan kept: a full scan's own count replaces the earlier ones'.
  const unreadable = (scan.partialFiles || later.length ? base.unreadable ?? 0 : 0) + f.unreadable;
  return { superseded: false, kept, incoming, next: { ...rest, scans, unreadable, left: left.length ? left : undefined, fileDigests } };
}

/** The upload completed: the folder waits for this scan (saved, so a reload waits again). */
export function withPending(prev: FolderFindings, scan: ScanRef): FolderFindings {
  const others = (prev.pending ?? []).filter((p) => p.scanId !== scan.scanId);
  const pending: PendingScan[] = [...others, { ...scan, waiting: true }].sort(byUpload).slice(-MAX_PENDING_PER_FOLDER);
  return { ...prev, pending };
}

export function withoutPending(prev: FolderFindings, scanId: string): FolderFindings {
  const pending = (prev.pending ?? []).filter((p) => p.scanId !== scanId);
  return { ...prev, pending: pending.length ? pending : undefined };
}

/**
 * An attempt that ended without findings; the newest one is what the folder says. One older
 * than a scan that completed since is no longer news.
 */
export function withAttempt(prev: FolderFindings, attempt: Attempt): FolderFindings {
  const when = attempt.scannedAt ?? attempt.at;
  const a = prev.lastAttempt;
  if (a && (a.scannedAt ?? a.at) > when && a.scanId !== attempt.scanId) return prev;
  if (prev.scans.some((s) => s.scannedAt > when)) return prev;
  return { ...prev, lastAttempt: attempt };
}

/** A full scan uploaded later has completed: nothing about this one matters any more. */
function superseded(prev: FolderFindings, scan: ScanRef): boolean {
  return prev.scans.some((s) => !s.partialFiles && s.scannedAt > scan.scannedAt);
}

/** The service reports the scan failed: it is no longer waited for; the findings stay. */
export function withFailure(prev: FolderFindings, scan: ScanRef, reason: string | undefined, at: string): FolderFindings {
  return withAttempt(withoutPending(prev, scan.scanId), { kind: 'failed', at, scanId: scan.scanId, scannedAt: scan.scannedAt, detail: reason });
}

/** The editor stopped waiting for a scan that may still end on the service: it stays, for Refresh Results. */
export function withStop(prev: FolderFindings, scan: ScanRef, why: StopReason, detail: string | undefined, at: string): FolderFindings {
  if (superseded(prev, scan)) return withoutPending(prev, scan.scanId);
  const pending = (prev.pending ?? []).some((p) => p.scanId === scan.scanId) ? prev : withPending(prev, scan);
  const next: FolderFindings = {
    ...pending,
    pending: pending.pending!.map((p) => (p.scanId === scan.scanId ? { ...p, waiting: false, stopped: why, detail } : p)),
  };
  return withAttempt(next, { kind: why, at, scanId: scan.scanId, scannedAt: scan.scannedAt, detail });
}

/**
 * The user chose to ignore a scan: it is no longer waited for and its note is dropped.
 * Nothing else changes: findings of earlier scans stay.
 */
export function withoutScan(prev: FolderFindings, scanId: string): FolderFindings {
  const next = withoutPending(prev, scanId);
  return next.lastAttempt?.scanId === scanId ? { ...next, lastAttempt: undefined } : next;
}

/** Whether the folder holds anything worth keeping (findings of a completed scan, a scan to wait for, a note). */
export function isEmpty(f: FolderFindings): boolean {
  return !f.scans.length && !f.pending?.length && !f.lastAttempt;
}

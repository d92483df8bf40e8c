// A workspace folder's findings as the editor keeps them: the completed scans they came
// from, the scans still on the service, and what happened to the last attempt.
import type { StoredIssue } from '../issues';
import type { ScanRef, StopReason } from '../scan/events';
import type { LeftFinding } from './leftFindings';

export type { ScanRef, ScanFindings, ScanEvent, StopReason } from '../scan/events';

/** Why a finding was set aside locally; the service has no operation for this. */
export type DismissReason = 'false-positive' | 'accepted-risk' | 'wont-fix';

export interface Dismissal { reason: DismissReason; at: string }

/** A scan the service has whose findings are not read yet. */
export interface PendingScan extends ScanRef {
  /** The editor is waiting for it (a reload waits again); false once it stopped waiting. */
  waiting: boolean;
  /** Why the editor stopped waiting. */
  stopped?: StopReason;
  /** What is known about why (an error's text, the service's status word). */
  detail?: string;
}

/** How a scan attempt ended without bringing findings. */
export type AttemptKind = 'cancelled' | 'failed' | 'error' | Exclude<StopReason, 'cancelled'>;

/** The newest scan attempt of a folder that did not end in findings: said, with its time, until a newer scan completes. */
export interface Attempt {
  kind: AttemptKind;
  /** When it ended. */
  at: string;
  /** The scan, when the upload had completed. */
  scanId?: string;
  /** When that scan's upload completed. */
  scannedAt?: string;
  /** The service's reason (untrusted text) or the error, in words. */
  detail?: string;
}

export interface FolderFindings {
  folderUri: string;
  /** Completed scans whose findings are shown, oldest first; partial scans overlay the files they covered. */
  scans: ScanRef[];
  issues: StoredIssue[];
  /** Findings of these scans the service sent in a shape that could not be read (left out, logged). */
  unreadable?: number;
  /**
   * Findings that left this editor since their scan (fix applied, lines or file deleted),
   * kept whole: they come back when their file's text no longer has that change
   * (leftFindings.ts); a refresh of the same scans does not bring them back; a completed
   * scan of their file forgets them.
   */
  left?: LeftFinding[];
  /** Digest of each file's text when its findings were placed; tells whether a refresh can trust the service's lines. */
  fileDigests?: Record<string, string>;
  /** Who recorded these results (company and user), so another account's sign-in does not show them. */
  account?: string;
  /** Uploaded scans whose findings are not read yet, oldest first. */
  pending?: PendingScan[];
  /** The last attempt, when it did not complete (cleared by a newer completed scan). */
  lastAttempt?: Attempt;
  /**
   * What "new" is measured against: the findings the folder had before its latest full
   * scan (hashed keys, baseline.ts). Absent until a second full scan: then nothing is new.
   */
  baseline?: string[];
}

/** What changed: everything, or the findings of some files (`moved`: only their places). */
export type FindingsChange =
  | { all: true; fromStorage?: boolean }
  | { all?: false; files: { folderUri: string; path: string }[]; moved?: boolean };

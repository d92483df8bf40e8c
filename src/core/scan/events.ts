// What a scan tells the findings it feeds, from its upload to its end on the service. The
// pipeline sends these; the folder's findings (src/core/results) change only on `completed`.
import type { StoredIssue } from '../issues';
import type { FindingKind } from '../issues/kinds';

/** A scan of a folder, as the findings it brought (or will bring) are kept. */
export interface ScanRef {
  scanId: string;
  projectId?: string | number;
  /** When the upload completed (the scan's place among the folder's scans). */
  scannedAt: string;
  /** Set for a partial scan: the folder-relative files it covered. */
  partialFiles?: string[];
  /** SHA-256 of the uploaded archive; names the list of the files it held (ArchivedFiles). */
  archiveSha256?: string;
  /** What the service reported going wrong in a completed scan (`scan_errors` not at `info`): its results may be incomplete. */
  warnings?: string[];
  /** Lists of the scan that could not be read: the folder keeps its earlier findings of these (decisions.md). */
  unreadLists?: { kind: FindingKind; reason: string }[];
  /** Lists the service does not have (404 for a scan it reported done): absent, never "0 findings". */
  absentLists?: FindingKind[];
}

/** What a completed scan found, read whole, as it is to be stored. */
export interface ScanFindings {
  scan: ScanRef;
  issues: StoredIssue[];
  /** The archive's files: only their findings may be fixed. */
  archived: ReadonlySet<string> | undefined;
  /** Findings the service sent that could not be read (left out, logged). */
  unreadable: number;
}

/** Why the editor stopped waiting for a scan the service has (or may have) still. */
export type StopReason =
  /** The user cancelled while the service scanned: it goes on there. */
  | 'cancelled'
  /** The scan is done on the service, but its findings could not be read. */
  | 'unreadable'
  /** The service could not be asked for its state (unreachable while waiting). */
  | 'unknown'
  /** A service without a status route kept producing findings past the wait. */
  | 'still-running';

export type ScanEvent =
  /** The upload completed: the service has the scan, the editor waits for it (saved, so a reload waits again). */
  | { kind: 'uploaded'; scan: ScanRef }
  /** The scan completed on the service and its findings were read whole. */
  | { kind: 'completed'; findings: ScanFindings }
  /** The service reports the scan failed; `reason` as it said (untrusted text). */
  | { kind: 'failed'; scan: ScanRef; reason?: string }
  /** The editor stopped waiting; the scan may still end on the service (Refresh Results asks). */
  | { kind: 'stopped'; scan: ScanRef; why: StopReason; detail?: string };

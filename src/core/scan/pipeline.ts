// Scanning one workspace folder, from choosing its files to its findings: select ->
// package -> upload (resumable) -> scan id -> poll the findings -> normalised issues.
// Everything here is editor-independent; the VS Code layer supplies the selection, where
// archives and transfers live, and where results go, and shows the progress.
import type { ServiceClient, UploadFields } from '../api';
import { CancelledAfterUploadError, isCancellation, throwIfCancelled } from '../async';
import { DEFAULT_LEVEL, buildZip, startDeflateWorkers, type BuiltArchive } from '../archive/zip';
import { loadOnce, type ReuseCache } from '../archive/reuseCache';
import { DEFAULT_MAX_POLLS, DEFAULT_POLL_INTERVAL_MS, pollUntilSettled, toStoredIssue, type StoredIssue } from '../issues';
import { UploadInterruptedError, resumeUpload, uploadArchive, type UploadOutcome } from '../upload/engine';
import type { SavedTransfer, TransferStore } from '../upload/transferStore';
import { readGitInfo, type GitInfo } from '../workspace/gitInfo';
import { pathsToRecheck, type TrackedCleanStore } from '../workspace/trackedClean';
import { foundGitUntracked, type SelectOptions, type Selection, type SkippedFile } from '../workspace/selectFiles';
import type { ArchivedFiles } from './archivedFiles';
import { type ScanProgress, type ScanStage } from './stages';

/** A scan whose findings are shown; partial scans overlay the files they scanned. */
export interface ScanRef {
  scanId: string;
  projectId?: string | number;
  scannedAt: string;
  /** Set for a partial scan: the folder-relative files it covered. */
  partialFiles?: string[];
  /** SHA-256 of the uploaded archive; names the list of the files it held (ArchivedFiles). */
  archiveSha256?: string;
}

/** What a scan found, as it is to be stored. */
export interface ScanFindings {
  scan: ScanRef;
  issues: StoredIssue[];
  /** The archive's files: only their findings may be fixed. */
  archived: ReadonlySet<string> | undefined;
  /** Findings the service sent that could not be read (left out, logged). */
  unreadable: number;
}

export interface PollSettings {
  intervalMs?: number;
  maxPolls?: number;
}

export interface RetrySettings {
  maxRetries?: number;
  baseDelayMs?: number;
}

/** Where uploads of this folder are kept between reloads. */
export interface FolderUploads {
  store: TransferStore;
  archiveRoot: string;
  archivedFiles: ArchivedFiles;
  /** Forgets a saved transfer and deletes its archive. */
  discard(): Promise<void>;
  deleteArchive(archivePath: string): Promise<void>;
  /** The folder's last full-scan archive, whose unchanged entries the next packaging copies. */
  reuse?: ReuseCache;
  /** The folder's last clean reading of its tracked files, which spares a re-scan's git most of its comparing (trackedClean.ts). */
  gitClean?: TrackedCleanStore;
}

export interface PipelineContext {
  client: ServiceClient;
  uploads: FolderUploads;
  signal: AbortSignal;
  onProgress(p: ScanProgress): void;
  log(line: string): void;
  /** Stores the findings; also called with what arrived so far when waiting for more fails. */
  record(findings: ScanFindings): Promise<void>;
  /** Only findings matching this classification are fetched (the view's server-side filter). */
  classification?: string;
  polling?: PollSettings;
  retries?: RetrySettings;
  chunkSizeBytes?: number;
}

export interface FolderScanRequest {
  /** Absolute path of the folder (for git details). */
  root: string;
  projectName: string;
  /** Partial scans send the chosen files as files_to_scan. */
  partial: boolean;
  /** `known`: the files of the folder's last archive, when there is one (SelectOptions.known). */
  select(known?: SelectOptions['known']): Promise<Selection>;
  scanConfigs?: string[];
  targetPolicies?: (number | string)[];
}

/** How an upload ended: a scan with its findings stored, or a scan the service already runs. */
type Uploaded =
  | { kind: 'scanned'; scanId: string; files: number; issues: number; totalIssues: number; settled: boolean }
  | { kind: 'in-progress'; files: number; message: string };

export type FolderScanResult = (Uploaded | { kind: 'nothing'; note: string }) & {
  /** Files left out, with why (selection and packaging). */
  skipped: SkippedFile[];
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function progress(ctx: PipelineContext, stage: ScanStage, fraction: number, message: string): void {
  ctx.onProgress({ stage, fraction, message });
}

/**
 * What the scan's metadata says about the upload, so the service's record of a scan can be
 * matched with what left the machine (Preview Upload shows the same list): the archive's
 * file count, its size and the SHA-256 of its bytes (the archive is deterministic, so an
 * unchanged tree gives the same digest).
 */
export function archiveMetadata(archive: Pick<BuiltArchive, 'index' | 'size' | 'sha256'>): Record<string, unknown> {
  return { client: 'vscode', archive: { files: archive.index.length, bytes: archive.size, sha256: archive.sha256 } };
}

/**
 * The folder's files chosen and packaged, or why there is nothing to upload. A full scan
 * with no previous archive to copy from deflates every file: its deflate workers start
 * with the selection, which hides their start (startDeflateWorkers), and are stopped on
 * every way out that does not hand them to packaging.
 */
async function selectAndPackage(req: FolderScanRequest, ctx: PipelineContext): Promise<
  | { kind: 'nothing'; result: FolderScanResult }
  | { kind: 'packaged'; selection: Selection; archive: BuiltArchive; gitInfo: Promise<GitInfo | undefined> }
> {
  const reuse = ctx.uploads.reuse;
  const loadPrevious = loadOnce(reuse, DEFAULT_LEVEL);
  const workers = !req.partial && !reuse?.has() ? startDeflateWorkers() : undefined;
  try {
    progress(ctx, 'select', 0, 'choosing files…');
    let selection: Selection;
    // Called now (its git listings start before the git details'), a throw made a rejection.
    const selecting = (async () => req.select(() => loadPrevious()?.index))();
    // git's details only go into the upload's form: read while the selection and packaging
    // run, not after them. A full selection in git finds the untracked files anyway, and
    // looks at every tracked file: git need not compare again those not written since the
    // last clean reading.
    const gitInfo = (req.partial ? readGitInfo(req.root) : fullScanGitInfo(req.root, selecting, ctx.uploads.gitClean)).catch(() => undefined);
    try {
      selection = await selecting;
    } catch (err) {
      // e.g. Scan Changed Files in a folder that is not a git repository: nothing to scan there.
      if (!req.partial) throw err;
      return { kind: 'nothing', result: { kind: 'nothing', note: err instanceof Error ? err.message : String(err), skipped: [] } };
    }
    throwIfCancelled(ctx.signal);
    for (const note of selection.notes) ctx.log(note);
    if (!selection.files.length) {
      const note = req.partial ? 'no changed or open files to scan' : 'no files to scan (everything is excluded)';
      return { kind: 'nothing', result: { kind: 'nothing', note, skipped: selection.skipped } };
    }
    progress(ctx, 'package', 0, `packaging ${plural(selection.files.length, 'file')}…`);
    await ctx.uploads.discard(); // a new scan replaces an older interrupted upload
    const archive = await buildZip(selection, { tmpRoot: ctx.uploads.archiveRoot, name: 'project.zip', signal: ctx.signal, previous: loadPrevious(), workersStarted: workers });
    if (loadPrevious()) ctx.log(`${archive.index.length} files packaged, ${archive.reused} of them unchanged since the last scan (copied from its archive, not compressed again).`);
    return { kind: 'packaged', selection, archive, gitInfo };
  } finally {
    // Packaging has stopped them already when it had them; stopping twice is harmless.
    await workers?.close();
  }
}

/**
 * A full scan's git details: readGitInfo told git's untracked files and what may have changed
 * since the last clean reading, both from the selection; a clean reading is kept for the next.
 */
export async function fullScanGitInfo(root: string, selecting: Promise<Selection>, store: TrackedCleanStore | undefined): Promise<GitInfo | undefined> {
  const clean = store?.load();
  const info = await readGitInfo(root, {
    untracked: selecting.then(foundGitUntracked, () => undefined),
    record: store !== undefined,
    since: clean && { clean, recheck: selecting.then((sel) => pathsToRecheck(sel, clean), () => undefined) },
  });
  if (info?.clean) await store?.keep(info.clean).catch(() => undefined);
  return info;
}

/** Chooses, packages and uploads the folder's files, then waits for the scan's findings. */
export async function scanFolder(req: FolderScanRequest, ctx: PipelineContext): Promise<FolderScanResult> {
  const packaged = await selectAndPackage(req, ctx);
  if (packaged.kind === 'nothing') return packaged.result;
  const { selection, archive, gitInfo } = packaged;
  const skipped = [...selection.skipped, ...archive.skipped];
  if (!archive.index.length) {
    await archive.dispose();
    return { kind: 'nothing', note: 'every chosen file changed or vanished while packaging', skipped };
  }
  let keepArchive = false;
  try {
    // Kept before the upload starts, so a resumed upload still knows what it uploaded.
    await ctx.uploads.archivedFiles.save(archive.sha256, archive.index);
    const git = await gitInfo;
    const fields: UploadFields = {
      projectName: req.projectName,
      branch: git?.branch, repoUrl: git?.repoUrl, sha: git?.sha, dirty: git?.dirty,
      scanConfigs: req.scanConfigs?.length ? req.scanConfigs : undefined,
      targetPolicies: req.targetPolicies?.length ? req.targetPolicies : undefined,
      partial: req.partial ? { files: archive.index.paths() } : undefined,
      metadata: archiveMetadata(archive),
    };
    const outcome = await upload(ctx, () => uploadArchive({
      client: ctx.client, archive, fields, store: ctx.uploads.store, chunkSize: ctx.chunkSizeBytes, signal: ctx.signal,
      maxRetries: ctx.retries?.maxRetries, baseDelayMs: ctx.retries?.baseDelayMs, folder: req.projectName,
      onProgress: (p) => uploadProgress(ctx, p.sentBytes, p.totalBytes),
    }), () => { keepArchive = true; });
    // Uploaded: a full scan's archive is what the next scan copies its unchanged files from.
    if (!req.partial && ctx.uploads.reuse) {
      await ctx.uploads.reuse.keep(archive.path, archive.index, archive.level, archive.madeAtMs)
        .catch((e: unknown) => ctx.log(`The archive could not be kept for the next scan: ${e instanceof Error ? e.message : String(e)}`));
    }
    return { ...(await afterUpload(ctx, outcome, fields, archive.sha256, archive.index.length)), skipped };
  } finally {
    // Kept only when an interruption left a transfer worth resuming; cancelling discards it.
    if (!keepArchive) {
      await ctx.uploads.store.clear();
      await archive.dispose();
    }
  }
}

/** Continues an interrupted upload, then waits for the scan's findings. */
export async function resumeFolder(transfer: SavedTransfer, ctx: PipelineContext): Promise<FolderScanResult> {
  let keep = false;
  try {
    const outcome = await upload(ctx, () => resumeUpload({
      client: ctx.client, store: ctx.uploads.store, chunkSize: ctx.chunkSizeBytes, signal: ctx.signal,
      maxRetries: ctx.retries?.maxRetries, baseDelayMs: ctx.retries?.baseDelayMs,
      onProgress: (p) => uploadProgress(ctx, p.sentBytes, p.totalBytes),
    }), () => { keep = true; });
    const files = transfer.fields.partial?.files.length ?? (await ctx.uploads.archivedFiles.load(transfer.sha256))?.size ?? 0;
    return { ...(await afterUpload(ctx, outcome, transfer.fields, transfer.sha256, files)), skipped: [] };
  } finally {
    // The engine clears the store once the upload completes, so the archive goes by the path saved here.
    if (!keep) {
      await ctx.uploads.store.clear();
      await ctx.uploads.deleteArchive(transfer.archivePath);
    }
  }
}

function uploadProgress(ctx: PipelineContext, sent: number, total: number): void {
  const f = total ? sent / total : 1;
  progress(ctx, 'upload', f, `uploading ${Math.floor(f * 100)}%`);
}

/** Runs an upload; an interruption that left a resumable transfer keeps the archive. */
async function upload(ctx: PipelineContext, go: () => Promise<UploadOutcome>, keep: () => void): Promise<UploadOutcome> {
  progress(ctx, 'upload', 0, 'uploading 0%');
  try {
    return await go();
  } catch (err) {
    if (err instanceof UploadInterruptedError && !ctx.signal.aborted) keep();
    throw err;
  }
}

async function afterUpload(
  ctx: PipelineContext, outcome: UploadOutcome, fields: UploadFields, archiveSha256: string, files: number,
): Promise<Uploaded> {
  if (outcome.kind !== 'complete') return { kind: 'in-progress', files, message: outcome.message };
  const scan: ScanRef = {
    scanId: outcome.scanId, projectId: outcome.projectId, scannedAt: new Date().toISOString(),
    partialFiles: fields.partial?.files, archiveSha256,
  };
  const archived = await ctx.uploads.archivedFiles.load(archiveSha256);
  progress(ctx, 'results', 0, 'waiting for results…');
  let latest: StoredIssue[] = [];
  let unreadable = 0;
  const maxPolls = ctx.polling?.maxPolls ?? DEFAULT_MAX_POLLS;
  try {
    let last: FoundFindings | undefined;
    const res = await pollUntilSettled({
      // After the first complete read, a poll whose first page reports the same total is one request, not every page again.
      fetch: async (signal) => (last = await fetchFindings(ctx, scan.scanId, signal, last)),
      intervalMs: ctx.polling?.intervalMs ?? DEFAULT_POLL_INTERVAL_MS,
      maxPolls,
      signal: ctx.signal,
      onSnapshot: (s, poll) => {
        latest = s.issues;
        unreadable = s.unreadable;
        progress(ctx, 'results', Math.min(0.95, poll / 6), `waiting for results… ${plural(s.totalIssues, 'issue')} so far`);
      },
    });
    await ctx.record({ scan, issues: res.issues, archived, unreadable: res.unreadable });
    progress(ctx, 'results', 1, 'done');
    return { kind: 'scanned', scanId: scan.scanId, files, issues: res.issues.length, totalIssues: res.totalIssues, settled: res.settled };
  } catch (err) {
    // The scan exists either way; keep what arrived so Refresh Results can complete it.
    await ctx.record({ scan, issues: latest, archived, unreadable });
    // A cancel now does not stop the scan on the service: say so rather than "cancelled".
    if (isCancellation(err, ctx.signal)) throw new CancelledAfterUploadError(scan.scanId);
    throw err;
  }
}

export interface FoundFindings { issues: StoredIssue[]; totalIssues: number; unreadable: number }

/**
 * A scan's readable findings; each unreadable one is logged with why, and counted. With
 * `previous` (the last complete read), a first page reporting the same total returns it.
 */
export async function fetchFindings(
  ctx: Pick<PipelineContext, 'client' | 'log' | 'classification'>, scanId: string, signal?: AbortSignal, previous?: FoundFindings,
): Promise<FoundFindings> {
  const res = await ctx.client.listAllQualityIssues(scanId, { classification: ctx.classification, signal, unchangedIfTotal: previous?.totalIssues, convert: toStoredIssue });
  if (res.unchanged && previous) return previous;
  for (const u of res.unreadable) {
    ctx.log(`Scan ${scanId}: a finding${u.id ? ` (id ${u.id})` : ''} could not be read and is left out: ${u.reason}`);
  }
  return { issues: res.issues, totalIssues: res.totalIssues, unreadable: res.unreadable.length + res.dropped };
}

// Scanning one workspace folder, from choosing its files to its findings: select ->
// package -> upload (resumable) -> scan id -> poll the findings -> normalised issues.
// Everything here is editor-independent; the VS Code layer supplies the selection, where
// archives and transfers live, and where results go, and shows the progress.
import type { RetryNotice, ServiceClient, UploadFields } from '../api';
import { CancelledAfterUploadError, throwIfCancelled } from '../async';
import type { ArchiveIndex } from '../archive/archiveIndex';
import { DEFAULT_LEVEL, WorkersAhead, buildZip, type BuiltArchive } from '../archive/zip';
import { loadOnce, type ReusableArchive, type ReuseCache } from '../archive/reuseCache';
import { UploadInterruptedError, openTransfer, resumeUpload, uploadArchive, type OpenedTransfer, type UploadOutcome } from '../upload/engine';
import type { SavedTransfer, TransferStore } from '../upload/transferStore';
import { readGitInfo, readRevision, type GitInfo } from '../workspace/gitInfo';
import { prepareGitHelperFor } from '../workspace/git';
import { archiveNameFor } from '../workspace/projectName';
import { formatBytes } from '../text/bytes';
import { pathsToRecheck, type TrackedCleanStore } from '../workspace/trackedClean';
import { foundGitUntracked, type SelectOptions, type Selection, type SkippedFile } from '../workspace/selectFiles';
import type { ChangeJournal, JournalSnapshot, WatchedChanges } from '../workspace/changeJournal';
import { reportedLate } from './lateReports';
import { uploadTime } from './uploadTime';
import type { ArchivedFiles } from './archivedFiles';
import { ScanFailedError, ScanStoppedError, absentLists, awaitScan, failedLists, waitMessage, type FoundFindings, type WaitSettings, type WaitState } from './awaitScan';
import type { FindingKind } from '../issues/kinds';
import type { ScanEvent, ScanRef } from './events';
import { monotonicProgress, type ScanProgress, type ScanStage } from './stages';
import { errorMessage } from '../errors';
import { l10n, plural } from '../text/l10n';

export type { ScanEvent, ScanFindings, ScanRef } from './events';
export { fetchFindings, failedLists, absentLists, type FoundFindings, type ListOutcome } from './awaitScan';

/**
 * Below this many files a re-scan looks at every file rather than trust the file watcher:
 * the wait until the watcher has reported its cookie (watcherCookies.ts; 75-160 ms in
 * code-server) costs more than the walk it saves. Measured in bench children, one file
 * changed, the watcher modelled at 160 ms: the small library's shape (710 files) 98 ms the
 * full way, 166 ms told by the watcher; svelte's (9,076) 248 against 168 ms.
 */
export const WATCH_FROM_FILES = 5_000;

/**
 * The same where no cookie can be written (the folder has no .git of its own; where the
 * watcher never reported one, ChangeJournal trusts it no more): the wait is then
 * WATCHER_LATENCY_MS from the scan's start
 * (svelte's shape: 0.34 s told by the watcher, about as long the full way; babel's, 27,674
 * files: 0.50 s against 0.60 s).
 */
export const WATCH_FROM_FILES_UNSYNCED = 20_000;

/**
 * What a full packaging may take from the file watcher: the changes `journal` saw, when they
 * are measured from the kept archive (`previous`, read only then) and that holds enough
 * files; else why not (undefined for a small tree: nothing worth a log line).
 */
export function trustedChanges(
  journal: JournalSnapshot | undefined, previous: () => { madeAtMs: number; files: number } | undefined,
  watchFromFiles = journal?.caughtUp ? WATCH_FROM_FILES : WATCH_FROM_FILES_UNSYNCED,
): { watched?: WatchedChanges; why?: string } {
  const watched = journal?.watched;
  if (!watched) return { why: journal?.why };
  const kept = previous();
  if (kept?.madeAtMs !== watched.madeAtMs) return { why: l10n.t('the kept archive is not the one the file watcher started from') };
  // A small tree is looked at whole sooner than the watcher has caught up.
  return kept.files < watchFromFiles ? {} : { watched };
}

/**
 * The kept archive's index, for a selection told `watched`: only when it is the archive
 * the watcher's record starts from (trustedChanges read its header alone; another scan may
 * have kept another since). Without it, the selection looks at every file.
 */
export function keptIndexFor(previous: () => Promise<ReusableArchive | undefined>, watched: WatchedChanges | undefined): () => Promise<ArchiveIndex | undefined> {
  return async () => {
    const kept = await previous();
    return watched && kept?.madeAtMs !== watched.madeAtMs ? undefined : kept?.index;
  };
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
  /** What the folder's file watcher saw since its last full packaging in this session (changeJournal.ts). */
  changes?: ChangeJournal;
}

export interface PipelineContext {
  client: ServiceClient;
  uploads: FolderUploads;
  signal: AbortSignal;
  onProgress(p: ScanProgress): void;
  /** Routine facts worth a line in the log (how files were chosen, what was copied). */
  log(line: string): void;
  /** What went wrong without stopping the scan (left-out findings, the service's warnings); `log` when not given. */
  warn?(line: string): void;
  /**
   * Told how the scan goes once the service has it: uploaded (wait for it), completed (its
   * findings, read whole), failed, or stopped waiting. Only `completed` may change findings.
   */
  onScan(e: ScanEvent): Promise<void>;
  /** Only findings matching this classification are fetched (the view's server-side filter). */
  classification?: string;
  /** How the scan's state is watched once uploaded. */
  wait?: WaitSettings;
  retries?: RetrySettings;
  chunkSizeBytes?: number;
  /** From how many files of the kept archive a re-scan trusts the file watcher (WATCH_FROM_FILES). */
  watchFromFiles?: number;
  /** How late the watcher may report a write, where no cookie tells (WATCHER_LATENCY_MS). */
  watcherLatencyMs?: number;
  /** How long a re-scan waits for the watcher to report its cookie (COOKIE_WAIT_MS). */
  cookieWaitMs?: number;
}

export interface FolderScanRequest {
  /** Absolute path of the folder (for git details). */
  root: string;
  /**
   * Where the git details are read when `root` is not the work tree: what a commit or a push
   * would send, written into a folder of the extension's own (outgoing.ts).
   */
  gitRoot?: string;
  /** The service project the scan goes to (projectName.ts: as the service's CLI names it). */
  projectName: string;
  /** The folder's name, for messages about a saved upload (default: the project name). */
  folderName?: string;
  /** Partial scans send the chosen files as files_to_scan. */
  partial: boolean;
  /**
   * `root` holds exactly this commit's tracked files, checked out by git (commitTree.ts): the
   * upload names the commit, and is clean when nothing of it was left out.
   */
  commit?: string;
  /**
   * `known`: the files of the folder's last archive, when there is one (SelectOptions.known);
   * `watched`: what the folder's watcher saw since that archive was made (SelectOptions.watched);
   * `onCount`: to be told the folder's size early (SelectOptions.onCount).
   */
  select(known?: SelectOptions['known'], watched?: WatchedChanges, onCount?: SelectOptions['onCount']): Promise<Selection>;
  scanConfigs?: string[];
  targetPolicies?: (number | string)[];
}

/** Files left out kept with a saved transfer, for a resumed upload's message; the log has every one. */
const MAX_KEPT_LEFT_OUT = 1000;

/** How an upload ended: a completed scan with its findings stored, or a scan the service already runs. */
type Uploaded =
  | { kind: 'scanned'; scanId: string; files: number; issues: number; totalIssues: number; warnings: string[]; unreadLists?: { kind: FindingKind; reason: string }[] }
  | { kind: 'in-progress'; files: number; message: string };

export type FolderScanResult = (Uploaded | { kind: 'nothing'; note: string }) & {
  /** Files left out, with why (selection and packaging). */
  skipped: SkippedFile[];
  /** A whole folder in a git work tree: what git ignores is left out but not listed in `skipped` (Upload Preview lists it). */
  gitIgnoredNotListed?: boolean;
};


function progress(ctx: PipelineContext, stage: ScanStage, fraction: number | undefined, message: string): void {
  ctx.onProgress({ stage, fraction, message });
}

/** The context with its progress made monotonic: events of one scan may arrive out of order (stages.ts). */
function gated(ctx: PipelineContext): PipelineContext {
  return { ...ctx, onProgress: monotonicProgress((p) => ctx.onProgress(p)) };
}

/** A retry, as a progress line: "connection lost, retrying in 4 s (attempt 3 of 6)". */
export function retryMessage(r: RetryNotice): string {
  return l10n.t('{0}, retrying in {1} s (attempt {2} of {3})', r.reason, Math.max(1, Math.round(r.delayMs / 1000)), r.attempt, r.of);
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
 * with no previous archive to copy from deflates every file: in a folder big enough for
 * them, its deflate workers start while the selection runs, which hides their start
 * (WorkersAhead), and are stopped on every way out that does not hand them to packaging.
 */
async function selectAndPackage(req: FolderScanRequest, ctx: PipelineContext, again?: { journal: JournalSnapshot | undefined }): Promise<
  | { kind: 'nothing'; result: FolderScanResult }
  | { kind: 'packaged'; selection: Selection; archive: BuiltArchive; gitInfo: Promise<GitInfo | undefined>; journal?: JournalSnapshot; lateReports?: Promise<string | undefined>;
      opened: Promise<OpenedTransfer | undefined> }
> {
  const reuse = ctx.uploads.reuse;
  const loadPrevious = loadOnce(reuse, DEFAULT_LEVEL);
  const workers = !req.partial && !reuse?.has() ? new WorkersAhead() : undefined;
  try {
    progress(ctx, 'select', 0, l10n.t('choosing files…'));
    let selection: Selection;
    // When the scan took what the watcher had reported: a write before it is checked for once
    // the watcher has caught up (lateReports.ts), one after it is the next scan's.
    const startedAt = Date.now();
    // What the watcher saw since the kept archive was made, if it watched since then. Again
    // (the watcher reported a write late), the same record, and every file looked at.
    const journal = again ? again.journal : req.partial ? undefined : ctx.uploads.changes?.restart({ root: req.root, fromFiles: ctx.watchFromFiles ?? WATCH_FROM_FILES });
    // From the kept index's header: its columns are read once git is at work (SelectOptions.known).
    const { watched, why } = again ? {} : trustedChanges(journal, () => reuse?.peek(DEFAULT_LEVEL), ctx.watchFromFiles);
    if (why && reuse?.has()) ctx.log(l10n.t('Every file is looked at: {0}.', why));
    const choose = (w: WatchedChanges | undefined) => {
      // Called now (its git listings start before the git details'), a throw made a rejection.
      const selecting = (async () => req.select(keptIndexFor(loadPrevious, w), w, workers?.onCount))();
      // git's details only go into the upload's form: read while the selection and packaging
      // run, not after them. A full selection in git finds the untracked files anyway, and
      // looks at every tracked file: git need not compare again those not written since the
      // last clean reading.
      const gitInfo = (req.partial || req.commit ? readRevision(req.gitRoot ?? req.root) : fullScanGitInfo(req.root, selecting, ctx.uploads.gitClean)).catch(() => undefined);
      return { selecting, gitInfo };
    };
    let { selecting, gitInfo } = choose(watched);
    try {
      selection = await selecting;
      if (selection.watcher?.missed) {
        // Files changed that the watcher did not report: it cannot be trusted this session.
        (ctx.warn ?? ctx.log)(l10n.t('The file watcher missed changes to {0}; every file is looked at again, and on every scan until the window is reloaded.', plural(selection.watcher.missed, l10n.t('{0} file'), l10n.t('{0} files'))));
        ctx.uploads.changes?.disable(l10n.t('the file watcher missed changes earlier in this window'));
        ({ selecting, gitInfo } = choose(undefined));
        selection = await selecting;
      } else if (selection.watcher) {
        const { touched: n, walked } = selection.watcher;
        ctx.log(`${n ? plural(n, l10n.t('The file watcher saw {0} path change since the last scan: of the tracked files, only it was looked at again'), l10n.t('The file watcher saw {0} paths change since the last scan: of the tracked files, only they were looked at again')) : l10n.t('The file watcher saw no change since the last scan')}; ${walked ? l10n.t('git listed the untracked files again (the tracked paths changed)') : l10n.t('the folder was not walked again')}.`);
      }
    } catch (err) {
      // e.g. Scan Changed Files in a folder that is not a git repository: nothing to scan there.
      if (!req.partial) throw err;
      return { kind: 'nothing', result: { kind: 'nothing', note: errorMessage(err), skipped: [] } };
    }
    throwIfCancelled(ctx.signal);
    for (const note of selection.notes) ctx.log(note);
    if (!selection.files.length) {
      const note = req.partial ? l10n.t('no changed or open files to scan') : l10n.t('no files to scan (everything is excluded)');
      return { kind: 'nothing', result: { kind: 'nothing', note, skipped: selection.skipped } };
    }
    progress(ctx, 'package', 0, plural(selection.files.length, l10n.t('packaging {0} file…'), l10n.t('packaging {0} files…')));
    await ctx.uploads.discard(); // a new scan replaces an older interrupted upload
    // The transfer is started while packaging runs (openTransfer): the upload takes it.
    const opened = openTransfer(ctx.client, archiveNameFor(req.projectName), ctx.signal);
    const archive = await buildZip(selection, { tmpRoot: ctx.uploads.archiveRoot, name: 'project.zip', signal: ctx.signal, previous: await loadPrevious(), workersStarted: workers?.pool });
    // The watcher reports a write 75-160 ms after it (VS Code batches its events): one made just
    // before the scan may be reported only once the archive is made. Checked while the upload
    // sends all but the archive's last bytes (UploadOptions.holdLast); any such file the
    // archive does not hold as it is, or a cookie not reported in time, sends the scan back
    // to looking at every file.
    const lateReports = selection.watcher && journal
      ? reportedLate(req.root, ctx.uploads.changes!, journal.epoch, startedAt, archive.index, ctx.signal, {
        caughtUp: caughtUpSaid(journal, startedAt, ctx), latencyMs: ctx.watcherLatencyMs, cookieWaitMs: ctx.cookieWaitMs,
      }) : undefined;
    // Awaited later, or never when the scan stops first: a cancel meanwhile is not "unhandled".
    lateReports?.catch(() => undefined);
    if (await loadPrevious()) ctx.log(l10n.t('{0} packaged, {1} of them unchanged since the last scan (copied from its archive, not compressed again).', plural(archive.index.length, l10n.t('{0} file'), l10n.t('{0} files')), archive.reused));
    return { kind: 'packaged', selection, archive, gitInfo, journal, lateReports, opened };
  } finally {
    // Packaging has stopped them already when it had them; stopping twice is harmless.
    await workers?.close();
  }
}

/**
 * Whether the upload differs from the commit (decisions.md, `dirty`): the service reuses a
 * clean upload of a commit as that commit's full scan, so only an archive holding exactly
 * the tracked files of HEAD, unmodified, is clean. A partial scan, a modified or untracked
 * file, or a tracked file left out (credentials, size, excludes, deleted) makes it dirty.
 * Outside git: unknown, left out.
 */
export function uploadDirty(
  req: Pick<FolderScanRequest, 'partial' | 'commit'>, git: GitInfo | undefined, selection: Pick<Selection, 'gitTrackedLeftOut'> & { skipped?: readonly unknown[] }, archive: { skipped: readonly unknown[] },
): boolean | undefined {
  // A commit checked out for the scan is the commit, unless a file of it was left out.
  if (req.commit) return (selection.skipped?.length ?? 0) + archive.skipped.length > 0;
  if (!git) return undefined;
  if (req.partial || (selection.gitTrackedLeftOut ?? 0) > 0 || archive.skipped.length > 0) return true;
  return git.dirty;
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
export async function scanFolder(req: FolderScanRequest, given: PipelineContext): Promise<FolderScanResult> {
  const ctx = gated(given);
  for (let packaged = await selectAndPackage(req, ctx); ;) {
    if (packaged.kind === 'nothing') return packaged.result;
    const done = await uploadPackaged(req, ctx, packaged);
    if (done.kind !== 'reported-late') return done;
    ctx.log(l10n.t('The file watcher {0}; every file is looked at again.', done.why));
    packaged = await selectAndPackage(req, ctx, { journal: packaged.journal });
  }
}

/**
 * Uploads a packaged folder and waits for its findings; or, when the watcher reported late a
 * write the archive does not hold (`reported-late`), abandons the upload before its last
 * bytes, so the service never scans that archive.
 */
async function uploadPackaged(
  req: FolderScanRequest, ctx: PipelineContext,
  { selection, archive, gitInfo, journal, lateReports, opened }: Extract<Awaited<ReturnType<typeof selectAndPackage>>, { kind: 'packaged' }>,
): Promise<FolderScanResult | { kind: 'reported-late'; why: string }> {
  const skipped = [...selection.skipped, ...archive.skipped];
  if (!archive.index.length) {
    await archive.dispose();
    return { kind: 'nothing', note: l10n.t('no files to scan: packaging left out every chosen file (binary, over the size limit, changed or gone)'), skipped };
  }
  let keepArchive = false;
  try {
    // Kept before the upload starts, so a resumed upload still knows what it uploaded.
    await ctx.uploads.archivedFiles.save(archive.sha256, archive.index);
    const git = await gitInfo;
    const fields: UploadFields = {
      projectName: req.projectName,
      branch: git?.branch, repoUrl: git?.repoUrl, sha: req.commit ?? git?.sha, dirty: uploadDirty(req, git, selection, archive),
      scanConfigs: req.scanConfigs?.length ? req.scanConfigs : undefined,
      targetPolicies: req.targetPolicies?.length ? req.targetPolicies : undefined,
      partial: req.partial ? { files: archive.index.paths() } : undefined,
      metadata: archiveMetadata(archive),
    };
    let outcome: UploadOutcome;
    try {
      outcome = await upload(ctx, () => uploadArchive({
        // Named after the project, as the service's own client names its archive.
        client: ctx.client, archive: { path: archive.path, size: archive.size, sha256: archive.sha256, name: archiveNameFor(req.projectName) },
        fields, store: ctx.uploads.store, chunkSize: ctx.chunkSizeBytes, signal: ctx.signal,
        maxRetries: ctx.retries?.maxRetries, baseDelayMs: ctx.retries?.baseDelayMs, folder: req.folderName ?? req.projectName,
        leftOut: skipped.slice(0, MAX_KEPT_LEFT_OUT).map((f) => ({ path: f.path, reason: f.reason })), gitIgnoredNotListed: selection.gitUntracked !== undefined,
        onProgress: (p) => uploadProgress(ctx, p.sentBytes, p.totalBytes),
        onRetry: (r) => progress(ctx, 'upload', undefined, retryMessage(r)),
        holdLast: lateReports?.then((why) => { if (why) throw new ReportedLate(why); }),
        opened,
        // An upload interrupted before the check ended is kept to resume only if the check passes.
      }), async () => { keepArchive = !(await lateReports?.catch(() => l10n.t('not checked'))); });
    } catch (e) {
      if (e instanceof ReportedLate) return { kind: 'reported-late', why: e.why };
      // Interrupted while the watcher could still report, and it did: that transfer is not
      // worth resuming (its archive misses the write), so the scan chooses again as above.
      const why = e instanceof UploadInterruptedError && !keepArchive && !ctx.signal.aborted ? await lateReports?.catch(() => undefined) : undefined;
      if (why) return { kind: 'reported-late', why };
      throw e;
    }
    // Uploaded: a full scan's archive is what the next scan copies its unchanged files from.
    if (!req.partial && ctx.uploads.reuse) {
      await ctx.uploads.reuse.keep(archive.path, archive.index, archive.level, archive.madeAtMs)
        .then(() => { if (journal) ctx.uploads.changes?.settle(journal.epoch, archive.madeAtMs, selection); })
        .catch((e: unknown) => (ctx.warn ?? ctx.log)(l10n.t('The archive could not be kept for the next scan: {0}', errorMessage(e))));
    }
    return {
      ...(await afterUpload(ctx, req.root, outcome, fields, archive.sha256, archive.index.length)), skipped,
      ...(selection.gitUntracked !== undefined ? { gitIgnoredNotListed: true } : {}),
    };
  } finally {
    // Kept only when an interruption left a transfer worth resuming; cancelling discards it.
    if (!keepArchive) {
      await ctx.uploads.store.clear();
      await archive.dispose();
    }
  }
}

/** Continues an interrupted upload, then waits for the scan's findings. */
export async function resumeFolder(transfer: SavedTransfer, given: PipelineContext): Promise<FolderScanResult> {
  const ctx = gated(given);
  let keep = false;
  try {
    const outcome = await upload(ctx, () => resumeUpload({
      client: ctx.client, store: ctx.uploads.store, chunkSize: ctx.chunkSizeBytes, signal: ctx.signal,
      maxRetries: ctx.retries?.maxRetries, baseDelayMs: ctx.retries?.baseDelayMs,
      onProgress: (p) => uploadProgress(ctx, p.sentBytes, p.totalBytes),
      onRetry: (r) => progress(ctx, 'upload', undefined, retryMessage(r)),
    }), () => { keep = true; });
    const files = transfer.fields.partial?.files.length ?? (await ctx.uploads.archivedFiles.load(transfer.sha256))?.size ?? 0;
    // What the scan that made the archive left out, as it would have said it.
    const skipped = (transfer.leftOut ?? []).map((f) => ({ path: f.path, reason: f.reason as SkippedFile['reason'] }));
    return { ...(await afterUpload(ctx, undefined, outcome, transfer.fields, transfer.sha256, files)), skipped, ...(transfer.gitIgnoredNotListed ? { gitIgnoredNotListed: true } : {}) };
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
  progress(ctx, 'upload', f, l10n.t('uploading {0}% · {1} of {2}', Math.floor(f * 100), formatBytes(sent), formatBytes(total)));
}

/** Runs an upload; an interruption that left a resumable transfer keeps the archive. */
async function upload(ctx: PipelineContext, go: () => Promise<UploadOutcome>, keep: () => void | Promise<void>): Promise<UploadOutcome> {
  progress(ctx, 'upload', 0, 'uploading 0%');
  try {
    return await go();
  } catch (err) {
    if (err instanceof UploadInterruptedError && !ctx.signal.aborted) await keep();
    throw err;
  }
}

/** The journal's `caughtUp`, said in the log when it comes: what a re-scan told by the watcher waits for. */
function caughtUpSaid(journal: JournalSnapshot, startedAt: number, ctx: PipelineContext): Promise<boolean> | undefined {
  return journal.caughtUp?.then((reported) => {
    if (reported) ctx.log(l10n.t('The file watcher had reported every write made before the scan {0} ms after it started.', Date.now() - startedAt));
    return reported;
  });
}

/** The watcher reported late a write the archive does not hold, or not its cookie (lateReports.ts): its upload must not complete. */
class ReportedLate extends Error {
  constructor(readonly why: string) {
    super(l10n.t('The file watcher {0}.', why));
  }
}

async function afterUpload(
  ctx: PipelineContext, root: string | undefined, outcome: UploadOutcome, fields: UploadFields, archiveSha256: string, files: number,
): Promise<Uploaded> {
  if (outcome.kind !== 'complete') return { kind: 'in-progress', files, message: outcome.message };
  const scan: ScanRef = {
    scanId: outcome.scanId, ...(outcome.projectId !== undefined ? { projectId: outcome.projectId } : {}), scannedAt: uploadTime(),
    partialFiles: fields.partial?.files, archiveSha256,
  };
  // Saved before the wait, so a reload waits again and a cancel leaves it for Refresh Results.
  await ctx.onScan({ kind: 'uploaded', scan });
  // The next scan's git runs from the helper, started now that this one has only to wait;
  // not for a folder git cannot run in (a resumed upload's folder is not known here).
  void prepareGitHelperFor(root);
  const done = await waitForScan(scan, ctx);
  if (done.kind === 'running') throw new Error(l10n.t('unreachable: a wait ends only when the scan does'));
  return { kind: 'scanned', scanId: scan.scanId, files, issues: done.issues, totalIssues: done.totalIssues, warnings: done.warnings, ...(done.unreadLists ? { unreadLists: done.unreadLists } : {}) };
}

/** The scan as its lists were read this time: which could not be read, which the service does not have. */
export function withLists(scan: ScanRef, found: Pick<FoundFindings, 'lists'>): ScanRef {
  const { unreadLists: _u, absentLists: _a, ...rest } = scan;
  const unreadLists = failedLists(found);
  const absent = absentLists(found);
  return { ...rest, ...(unreadLists.length ? { unreadLists } : {}), ...(absent.length ? { absentLists: absent } : {}) };
}

/** The results stage's bar while waiting: it fills towards 90 % over the first minutes (a real scan takes minutes). */
function waitFraction(s: WaitState): number | undefined {
  if (s.phase === 'reading') return 0.95;
  if (s.phase === 'retry') return undefined;
  return 0.9 * (1 - Math.exp(-s.elapsedMs / 120_000));
}

/**
 * Waits for a scan the service has and tells `ctx.onScan` how it ended: completed with its
 * findings read whole, failed, or stopped waiting (cancelled, unreadable, state unknown).
 * Throws for every end but a completed scan. With `wait: false` (Refresh Results) a scan
 * still running is reported as such and nothing changes.
 */
export async function waitForScan(
  scan: ScanRef, given: PipelineContext, o: { wait: boolean } = { wait: true },
): Promise<{ kind: 'complete'; issues: number; totalIssues: number; warnings: string[]; unreadLists?: { kind: FindingKind; reason: string }[] } | { kind: 'running'; status: string }> {
  const ctx = gated(given);
  progress(ctx, 'results', 0, l10n.t('waiting for the service…'));
  try {
    const r = await awaitScan({
      client: ctx.client, signal: ctx.signal, log: ctx.warn ?? ctx.log, classification: ctx.classification, wait: ctx.wait, retryBaseMs: ctx.retries?.baseDelayMs,
      onWait: (s) => progress(ctx, 'results', waitFraction(s), waitMessage(s)),
    }, scan, o);
    if (r.kind === 'running') return r;
    const archived = await ctx.uploads.archivedFiles.load(scan.archiveSha256);
    const completed = withLists(r.warnings.length ? { ...scan, warnings: r.warnings } : scan, r.found);
    const unreadLists = completed.unreadLists ?? [];
    await ctx.onScan({ kind: 'completed', findings: { scan: completed, issues: r.found.issues, archived, unreadable: r.found.unreadable } });
    progress(ctx, 'results', 1, 'done');
    return { kind: 'complete', issues: r.found.issues.length, totalIssues: r.found.totalIssues, warnings: r.warnings, ...(unreadLists.length ? { unreadLists } : {}) };
  } catch (err) {
    // Whatever ended the wait, the findings stay as they were; the scan is remembered with why.
    // The reason once: a stop's own sentence already wraps its cause.
    const detail = err instanceof ScanStoppedError && err.cause !== undefined ? errorMessage(err.cause) : errorMessage(err);
    const event: ScanEvent = err instanceof ScanFailedError ? { kind: 'failed', scan, reason: err.reason }
      : err instanceof CancelledAfterUploadError ? { kind: 'stopped', scan, why: 'cancelled' }
        : err instanceof ScanStoppedError ? { kind: 'stopped', scan, why: err.why, detail }
          : { kind: 'stopped', scan, why: 'unknown', detail };
    await ctx.onScan(event).catch((e: unknown) => (ctx.warn ?? ctx.log)(l10n.t('Could not record how the scan {0} ended: {1}', scan.scanId, errorMessage(e))));
    throw err;
  }
}

import * as vscode from 'vscode';
import { isServiceError, type ServiceClient, type UploadFields } from '../core/api';
import { buildZip } from '../core/archive/zip';
import { DEFAULT_MAX_POLLS, DEFAULT_POLL_INTERVAL_MS, pollUntilSettled, toStoredIssue, type StoredIssue } from '../core/issues';
import { UploadInterruptedError, resumeUpload, uploadArchive, type UploadOutcome } from '../core/upload/engine';
import type { SavedTransfer } from '../core/upload/transferStore';
import { readGitInfo } from '../core/workspace/gitInfo';
import { selectChangedFiles, selectGivenFiles, selectWorkspaceFiles, type Selection } from '../core/workspace/selectFiles';
import { TARGET_POLICIES_KEY } from './deps';
import { inertProgress, progressTitle, type Notifier } from './notifier';
import type { ResultsStore, ScanRef } from './resultsStore';
import type { Session } from './session';
import { scanSettings } from './settings';
import type { FolderTransferStore, TransferStores } from './transferStores';

export type ScanKind = 'workspace' | 'openFiles' | 'changedFiles';

export interface ScanState { message: string; percent?: number }

/** Knobs for automation and tests, passed as the scan commands' argument. */
export interface ScanOptions { pollIntervalMs?: number; maxPolls?: number; maxRetries?: number; retryBaseDelayMs?: number }

export interface FolderOutcome { folder: string; scanId?: string; files: number; issues?: number; note?: string }
/** What a scan command resolves to; `error` says why it stopped (also shown to the user). */
export interface ScanSummary { folders: FolderOutcome[]; cancelled: boolean; error?: { kind: string; message: string } }

function readOptions(arg: unknown): ScanOptions {
  if (typeof arg !== 'object' || arg === null) return {};
  const a = arg as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  return { pollIntervalMs: num(a.pollIntervalMs), maxPolls: num(a.maxPolls), maxRetries: num(a.maxRetries), retryBaseDelayMs: num(a.retryBaseDelayMs) };
}

function isAbort(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (err instanceof Error && err.name === 'AbortError') || (isServiceError(err) && err.kind === 'aborted');
}

interface Step { folder: vscode.WorkspaceFolder; select: () => Promise<Selection>; partial: boolean }

/** Tracks one running scan: its stage for the status bar, and cancellation. */
class Run {
  readonly abort = new AbortController();
  private reported = 0;
  constructor(
    private readonly progress: vscode.Progress<{ message?: string; increment?: number }>,
    private readonly onState: (s: ScanState) => void,
  ) {}

  /** `overall` is 0-100 across every folder of the run. */
  report(message: string, overall?: number): void {
    let increment: number | undefined;
    if (overall !== undefined && overall > this.reported) {
      increment = overall - this.reported;
      this.reported = overall;
    }
    this.progress.report({ message, increment });
    this.onState({ message, percent: overall === undefined ? undefined : Math.floor(this.reported) });
  }
}

export class ScanController implements vscode.Disposable {
  private current: { run: Run; state: ScanState } | undefined;
  private busy = false;
  private readonly stateChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeState = this.stateChanged.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly session: Session,
    private readonly store: ResultsStore,
    private readonly transfers: TransferStores,
    private readonly notifier: Notifier,
  ) {}

  get state(): ScanState | undefined {
    return this.current?.state;
  }

  cancel(): boolean {
    if (!this.current) return false;
    this.current.run.abort.abort();
    return true;
  }

  async showProgress(): Promise<void> {
    if (!this.current) {
      void this.notifier.info(this.busy ? 'A scan is starting.' : 'No scan is running.');
      return;
    }
    await this.notifier.info(this.current.state.message, { title: 'Cancel Scan', run: () => this.cancel() });
  }

  private steps(kind: ScanKind): Step[] | string {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    if (!folders.length) return 'Open a folder to scan it.';
    const s = (f: vscode.WorkspaceFolder) => {
      const st = scanSettings(f);
      return { excludeGlobs: st.excludeGlobs, maxFileSizeBytes: st.maxFileSizeBytes, allowCredentialFiles: st.allowCredentialFiles };
    };
    if (kind === 'workspace') return folders.map((folder) => ({ folder, partial: false, select: () => selectWorkspaceFiles(folder.uri.fsPath, s(folder)) }));
    if (kind === 'changedFiles') return folders.map((folder) => ({ folder, partial: true, select: () => selectChangedFiles(folder.uri.fsPath, s(folder)) }));
    const byFolder = new Map<vscode.WorkspaceFolder, string[]>();
    for (const uri of openFileUris()) {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (folder && folders.includes(folder)) byFolder.set(folder, [...(byFolder.get(folder) ?? []), uri.fsPath]);
    }
    if (!byFolder.size) return 'No files of this workspace are open in an editor.';
    return [...byFolder].map(([folder, files]) => ({ folder, partial: true, select: () => selectGivenFiles(folder.uri.fsPath, files, s(folder)) }));
  }

  scan(kind: ScanKind, arg?: unknown): Promise<ScanSummary | undefined> {
    const options = readOptions(arg);
    return this.exclusive(async () => {
      const steps = this.steps(kind);
      if (typeof steps === 'string') {
        void this.notifier.info(steps);
        return undefined;
      }
      const client = await this.session.getClient();
      if (!client) return undefined;
      const title = { workspace: 'Scanning the workspace', openFiles: 'Scanning open files', changedFiles: 'Scanning changed files' }[kind];
      return this.withRun(title, async (run) => {
        const outcomes: FolderOutcome[] = [];
        for (const [i, step] of steps.entries()) {
          const share = (p: number) => ((i + p) / steps.length) * 100;
          outcomes.push(await this.scanFolder(client, step, run, share, options));
        }
        return outcomes;
      });
    });
  }

  private async scanFolder(client: ServiceClient, step: Step, run: Run, share: (p: number) => number, options: ScanOptions): Promise<FolderOutcome> {
    const { folder } = step;
    const signal = run.abort.signal;
    const label = (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}: ` : '';
    run.report(`${label}choosing files…`, share(0));
    let selection: Selection;
    try {
      selection = await step.select();
    } catch (err) {
      // e.g. Scan Changed Files in a folder that is not a git repository: skip that folder.
      if (!step.partial) throw err;
      return { folder: folder.name, files: 0, note: err instanceof Error ? err.message : String(err) };
    }
    if (signal.aborted) throw abortError();
    for (const note of selection.notes) this.session.log.warn(`${folder.name}: ${note}`);
    if (!selection.files.length) {
      const why = step.partial ? 'no changed or open files to scan' : 'no files to scan (everything is excluded)';
      return { folder: folder.name, files: 0, note: why };
    }
    run.report(`${label}packaging ${selection.files.length} file${selection.files.length === 1 ? '' : 's'}…`, share(0.05));
    const transferStore = this.transfers.forFolder(folder.uri.toString());
    await this.transfers.discard(transferStore); // a new scan replaces an older interrupted upload
    const archive = await buildZip(selection, { tmpRoot: await this.transfers.archiveRoot(), name: 'project.zip', signal });
    let keepArchive = false;
    try {
      // Kept before the upload starts, so a resumed upload still knows what it uploaded.
      await this.transfers.archivedFiles().save(archive.sha256, archive.entries);
      const git = await readGitInfo(folder.uri.fsPath).catch(() => undefined);
      const settings = scanSettings(folder);
      const targetPolicies = this.context.workspaceState.get<(number | string)[]>(TARGET_POLICIES_KEY, []);
      const fields: UploadFields = {
        projectName: folder.name,
        branch: git?.branch, repoUrl: git?.repoUrl, sha: git?.sha, dirty: git?.dirty,
        scanConfigs: settings.scanConfigs.length ? settings.scanConfigs : undefined,
        targetPolicies: targetPolicies.length ? targetPolicies : undefined,
        partial: step.partial ? { files: selection.files.map((f) => f.path) } : undefined,
      };
      const outcome = await this.upload(run, share, label, () => uploadArchive({
        client, archive, fields, store: transferStore, chunkSize: settings.chunkSizeBytes, signal,
        maxRetries: options.maxRetries, baseDelayMs: options.retryBaseDelayMs, folder: folder.name,
        onProgress: (p) => this.reportUpload(run, share, label, p.sentBytes, p.totalBytes),
      }), () => { keepArchive = true; });
      return await this.afterUpload(client, folder, outcome, fields, archive.sha256, run, share, label, options, selection.files.length);
    } finally {
      // Kept only when an interruption left a transfer worth resuming; cancelling discards it.
      if (!keepArchive) {
        await transferStore.clear();
        await archive.dispose();
      }
    }
  }

  private reportUpload(run: Run, share: (p: number) => number, label: string, sent: number, total: number): void {
    const pct = total ? Math.floor((sent / total) * 100) : 100;
    run.report(`${label}uploading ${pct}%`, share(0.15 + 0.7 * (total ? sent / total : 1)));
  }

  /** Runs an upload; an interruption that left a resumable transfer keeps the archive and offers Resume. */
  private async upload(run: Run, share: (p: number) => number, label: string, go: () => Promise<UploadOutcome>, keep: () => void): Promise<UploadOutcome> {
    run.report(`${label}uploading 0%`, share(0.15));
    try {
      return await go();
    } catch (err) {
      if (err instanceof UploadInterruptedError && !run.abort.signal.aborted) keep();
      throw err;
    }
  }

  private async afterUpload(
    client: ServiceClient, folder: vscode.WorkspaceFolder, outcome: UploadOutcome, fields: UploadFields, archiveSha256: string,
    run: Run, share: (p: number) => number, label: string, options: ScanOptions, files: number,
  ): Promise<FolderOutcome> {
    if (outcome.kind !== 'complete') {
      return { folder: folder.name, files, note: `the service reports a scan of this upload is already in progress (${outcome.message})` };
    }
    const scan: ScanRef = {
      scanId: outcome.scanId, projectId: outcome.projectId, scannedAt: new Date().toISOString(),
      partialFiles: fields.partial?.files, archiveSha256,
    };
    const archived = await this.transfers.archivedFiles().load(archiveSha256);
    run.report(`${label}waiting for results…`, share(0.85));
    let latest: StoredIssue[] = [];
    let unreadable = 0;
    try {
      const res = await pollUntilSettled({
        fetch: async (signal) => this.fetchIssues(client, scan.scanId, signal),
        intervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
        maxPolls: options.maxPolls ?? DEFAULT_MAX_POLLS,
        signal: run.abort.signal,
        onSnapshot: (s, poll) => { latest = s.issues; unreadable = s.unreadable; run.report(`${label}waiting for results… ${s.totalIssues} issue${s.totalIssues === 1 ? '' : 's'} so far`, share(Math.min(0.99, 0.85 + poll * 0.03))); },
      });
      await this.store.recordScan(folder.uri.toString(), scan, res.issues, archived, unreadable);
      if (!res.settled) {
        void this.notifier.info(`The scan of ${folder.name} is still producing results; showing ${res.totalIssues} so far. Use Refresh Results later.`,
          { title: 'Refresh Results', run: () => vscode.commands.executeCommand('codeScanner.refreshResults') });
      }
      run.report(`${label}done`, share(1));
      return { folder: folder.name, scanId: scan.scanId, files, issues: res.issues.length };
    } catch (err) {
      // The scan exists either way; keep what arrived so Refresh Results can complete it.
      await this.store.recordScan(folder.uri.toString(), scan, latest, archived, unreadable);
      throw err;
    }
  }

  /** The scan's readable findings; each unreadable one is logged with why, and counted. */
  private async fetchIssues(client: ServiceClient, scanId: string, signal?: AbortSignal): Promise<{ issues: StoredIssue[]; totalIssues: number; unreadable: number }> {
    const res = await client.listAllQualityIssues(scanId, { classification: this.store.classificationFilter, signal });
    for (const u of res.unreadable) {
      this.session.log.warn(`Scan ${scanId}: a finding${u.id ? ` (id ${u.id})` : ''} could not be read and is left out: ${u.reason}`);
    }
    const issues = res.issues.map(toStoredIssue).filter((i): i is StoredIssue => !!i);
    return { issues, totalIssues: res.totalIssues, unreadable: res.unreadable.length + res.issues.length - issues.length };
  }

  /** Resumes every interrupted upload of this workspace, then fetches its results. */
  resume(arg?: unknown): Promise<ScanSummary | undefined> {
    const options = readOptions(arg);
    return this.exclusive(async () => {
      const pending = await this.transfers.pending();
      if (!pending.length) {
        void this.notifier.info('There is no interrupted upload to resume.');
        return undefined;
      }
      const client = await this.session.getClient();
      if (!client) return undefined;
      return this.withRun('Resuming the upload', async (run) => {
        const outcomes: FolderOutcome[] = [];
        for (const [i, { store, transfer }] of pending.entries()) {
          const share = (p: number) => ((i + p) / pending.length) * 100;
          outcomes.push(await this.resumeOne(client, store, transfer, run, share, options));
        }
        return outcomes;
      });
    });
  }

  private async resumeOne(
    client: ServiceClient, store: FolderTransferStore, transfer: SavedTransfer, run: Run, share: (p: number) => number, options: ScanOptions,
  ): Promise<FolderOutcome> {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(store.folderUri));
    if (!folder) {
      await this.transfers.discard(store);
      return { folder: store.folderUri, files: 0, note: 'the folder is no longer in the workspace; the upload was discarded' };
    }
    const label = (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}: ` : '';
    let keep = false;
    try {
      const outcome = await this.upload(run, share, label, () => resumeUpload({
        client, store, chunkSize: scanSettings(folder).chunkSizeBytes, signal: run.abort.signal,
        maxRetries: options.maxRetries, baseDelayMs: options.retryBaseDelayMs,
        onProgress: (p) => this.reportUpload(run, share, label, p.sentBytes, p.totalBytes),
      }), () => { keep = true; });
      return await this.afterUpload(client, folder, outcome, transfer.fields, transfer.sha256, run, share, label, options, transfer.fields.partial?.files.length ?? 0);
    } finally {
      // The engine clears the store once the upload completes, so the archive goes by the path saved here.
      if (!keep) {
        await store.clear();
        await this.transfers.deleteArchive(transfer.archivePath);
      }
    }
  }

  /** Re-fetches every recorded scan (no polling: the user asked for the current state). */
  async refresh(): Promise<boolean> {
    const folders = this.store.foldersWithResults();
    if (!folders.length) {
      void this.notifier.info('No scan results yet.', { title: 'Scan Workspace', run: () => vscode.commands.executeCommand('codeScanner.scanWorkspace') });
      return false;
    }
    const client = await this.session.getClient();
    if (!client) return false;
    try {
      await vscode.window.withProgress({ location: { viewId: 'codeScanner.issues' }, title: 'Refreshing results' }, async () => {
        for (const folderUri of folders) {
          const perScan = [];
          for (const scan of this.store.scansOf(folderUri)) {
            const archived = await this.transfers.archivedFiles().load(scan.archiveSha256);
            const { issues, unreadable } = await this.fetchIssues(client, scan.scanId);
            perScan.push({ scan, issues, archived, unreadable });
          }
          await this.store.replaceFolder(folderUri, perScan);
        }
      });
      return true;
    } catch (err) {
      await this.session.reportError(err);
      return false;
    }
  }

  /** Forgets every stored finding of this workspace (the scans stay on the service). */
  clearResults(): boolean {
    if (this.busy) return false;
    this.store.clear();
    void this.pruneArchivedFiles();
    return true;
  }

  /** Drops the file lists of archives no stored scan or interrupted upload refers to. */
  private async pruneArchivedFiles(): Promise<void> {
    try {
      const keep = [...this.store.archiveDigests(), ...(await this.transfers.pending()).map((p) => p.transfer.sha256)];
      await this.transfers.archivedFiles().prune(keep);
    } catch (err) {
      this.session.log.warn(`Could not tidy the archived file lists: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async exclusive<T>(fn: () => Promise<T>): Promise<T | undefined> {
    if (!vscode.workspace.isTrusted) {
      void this.notifier.warn('Scanning uploads workspace files, so it needs a trusted workspace.',
        { title: 'Manage Workspace Trust', run: () => vscode.commands.executeCommand('workbench.trust.manage') });
      return undefined;
    }
    if (this.busy) {
      void this.showProgress();
      return undefined;
    }
    // Set before the first await so a second click cannot start a parallel scan.
    this.busy = true;
    try {
      return await fn();
    } finally {
      this.busy = false;
    }
  }

  private async withRun(title: string, body: (run: Run) => Promise<FolderOutcome[]>): Promise<ScanSummary | undefined> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: progressTitle(title), cancellable: true },
      async (progress, token) => {
        const run = new Run(inertProgress(progress), (state) => {
          if (this.current) this.current.state = state;
          this.stateChanged.fire();
        });
        this.current = { run, state: { message: `${title}…` } };
        const sub = token.onCancellationRequested(() => run.abort.abort());
        await vscode.commands.executeCommand('setContext', 'codeScanner.scanning', true);
        this.stateChanged.fire();
        try {
          const folders = await body(run);
          this.announce(folders);
          return { folders, cancelled: false };
        } catch (err) {
          if (isAbort(err, run.abort.signal)) {
            void this.notifier.info('Scan cancelled.');
            return { folders: [], cancelled: true };
          }
          if (err instanceof UploadInterruptedError) {
            void this.notifier.warn(err.message, { title: 'Resume Upload', run: () => vscode.commands.executeCommand('codeScanner.resumeUpload') });
            return { folders: [], cancelled: false, error: { kind: 'interrupted', message: err.message } };
          }
          await this.session.reportError(err);
          return { folders: [], cancelled: false, error: { kind: isServiceError(err) ? err.kind : 'error', message: err instanceof Error ? err.message : String(err) } };
        } finally {
          sub.dispose();
          await this.pruneArchivedFiles();
          this.current = undefined;
          await vscode.commands.executeCommand('setContext', 'codeScanner.scanning', false);
          this.stateChanged.fire();
        }
      },
    );
  }

  private announce(folders: FolderOutcome[]): void {
    const notes = folders.filter((f) => f.note).map((f) => `${f.folder}: ${f.note}`);
    if (notes.length) void this.notifier.info(`${notes.join('; ')}.`);
    const total = folders.reduce((n, f) => n + (f.issues ?? 0), 0);
    if (folders.some((f) => f.scanId)) {
      this.notifier.flash(`scan finished, ${total} issue${total === 1 ? '' : 's'}.`);
    }
  }

  dispose(): void {
    this.cancel();
    this.stateChanged.dispose();
  }
}

function abortError(): Error {
  const e = new Error('The scan was cancelled.');
  e.name = 'AbortError';
  return e;
}

/** Files shown in editor tabs (the user's notion of "open"), falling back to visible editors. */
export function openFileUris(): vscode.Uri[] {
  const seen = new Map<string, vscode.Uri>();
  const add = (u: vscode.Uri) => { if (u.scheme === 'file') seen.set(u.toString(), u); };
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText) add(tab.input.uri);
      else if (tab.input instanceof vscode.TabInputTextDiff) add(tab.input.modified);
    }
  }
  for (const e of vscode.window.visibleTextEditors) add(e.document.uri);
  return [...seen.values()];
}

export function registerScanCommands(context: vscode.ExtensionContext, scans: ScanController): void {
  context.subscriptions.push(
    scans,
    vscode.commands.registerCommand('codeScanner.scanWorkspace', (arg?: unknown) => scans.scan('workspace', arg)),
    vscode.commands.registerCommand('codeScanner.scanOpenFiles', (arg?: unknown) => scans.scan('openFiles', arg)),
    vscode.commands.registerCommand('codeScanner.scanChangedFiles', (arg?: unknown) => scans.scan('changedFiles', arg)),
    vscode.commands.registerCommand('codeScanner.cancelScan', () => scans.cancel()),
    vscode.commands.registerCommand('codeScanner.showScanProgress', () => scans.showProgress()),
    vscode.commands.registerCommand('codeScanner.resumeUpload', (arg?: unknown) => scans.resume(arg)),
    vscode.commands.registerCommand('codeScanner.refreshResults', () => scans.refresh()),
    vscode.commands.registerCommand('codeScanner.clearResults', () => scans.clearResults()),
  );
}

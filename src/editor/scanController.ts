// The editor's side of scanning: which folders and files a command means, the progress
// notification and status bar state, cancellation, one scan at a time, and telling the
// user how it went. The work itself is the core pipeline (src/core/scan/pipeline.ts).
import * as vscode from 'vscode';
import { isServiceError, type ServiceClient } from '../core/api';
import { CancelledAfterUploadError, isCancellation } from '../core/async';
import { fetchFindings, resumeFolder, scanFolder, type FolderScanResult, type PipelineContext } from '../core/scan/pipeline';
import { overallFraction, type ScanProgress } from '../core/scan/stages';
import { UploadInterruptedError } from '../core/upload/engine';
import { selectChangedFiles, selectGivenFiles, selectWorkspaceFiles, skipReasonLabel, type Selection, type SelectOptions, type SkipReason, type SkippedFile } from '../core/workspace/selectFiles';
import type { TargetPolicies } from './account/targetPolicies';
import { plainObjectArg, scanOptionsArg, type ScanOptions } from './commands/args';
import { CONTEXT_KEYS } from './commands/contextKeys';
import { setContext, type Commands } from './commands/manager';
import { DisposableObject } from './disposable';
import { inertProgress, progressTitle, type Notifier } from './notifier';
import type { ResultsStore } from './resultsStore';
import type { Session } from './session';
import type { UploadConsent } from './uploadConsent';
import { selectOptions } from './uploadPreview';
import { scanSettings } from './settings';
import type { FolderTransferStore, UploadStorage } from './uploadStorage';

export type { ScanOptions } from './commands/args';

/** `givenFiles`: files named by the caller (the agent's Scan Files tool), a partial scan like open files. */
export type ScanKind = 'workspace' | 'openFiles' | 'changedFiles' | 'givenFiles';

export interface ScanState { message: string; percent?: number }

export interface FolderOutcome {
  folder: string;
  scanId?: string;
  files: number;
  issues?: number;
  note?: string;
  /** Files left out for a reason worth telling (not ignored, excluded by default or binary). */
  leftOut?: SkippedFile[];
}
/**
 * What a scan command resolves to; `error` says why it stopped (also shown to the user).
 * `continuesOnService` names a scan that a cancel came too late to stop.
 */
export interface ScanSummary { folders: FolderOutcome[]; cancelled: boolean; continuesOnService?: string; error?: { kind: string; message: string } }

/** Reasons a file left out is reported after a scan; the others are what people expect (ignored, dependencies, binaries). */
const NOTABLE: ReadonlySet<SkipReason> = new Set<SkipReason>([
  'too-large', 'credentials', 'unreadable', 'changed', 'not-a-file', 'symlink-outside', 'unsafe-name', 'comma-in-name', 'missing', 'user-exclude', 'outside-folder',
]);

interface Step { folder: vscode.WorkspaceFolder; select: (known?: SelectOptions['known']) => Promise<Selection>; partial: boolean }

const TITLES: Record<ScanKind, string> = {
  workspace: 'Scanning the workspace',
  openFiles: 'Scanning open files',
  givenFiles: 'Scanning the chosen files',
  changedFiles: 'Scanning changed files',
};

/** Tracks one running scan: its progress for the notification and the status bar, and cancellation. */
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

  /** A pipeline progress of folder `index` of `count` (the label names the folder in multi-root workspaces). */
  folderProgress(index: number, count: number, label: string): (p: ScanProgress) => void {
    return (p) => this.report(`${label}${p.message}`, ((index + overallFraction(p.stage, p.fraction)) / count) * 100);
  }
}

export class ScanController extends DisposableObject {
  private current: { run: Run; state: ScanState } | undefined;
  private busy = false;
  private readonly stateChanged = this.own(new vscode.EventEmitter<void>());
  readonly onDidChangeState = this.stateChanged.event;

  constructor(
    private readonly targets: TargetPolicies,
    private readonly session: Session,
    private readonly store: ResultsStore,
    private readonly uploads: UploadStorage,
    private readonly notifier: Notifier,
    private readonly commands: Commands,
    private readonly consent: UploadConsent,
  ) {
    super();
  }

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

  private steps(kind: ScanKind, given?: readonly vscode.Uri[]): Step[] | string {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    if (!folders.length) return 'Open a folder to scan it.';
    const s = selectOptions;
    if (kind === 'workspace') return folders.map((folder) => ({ folder, partial: false, select: (known) => selectWorkspaceFiles(folder.uri.fsPath, { ...s(folder), known }) }));
    if (kind === 'changedFiles') return folders.map((folder) => ({ folder, partial: true, select: () => selectChangedFiles(folder.uri.fsPath, s(folder)) }));
    const byFolder = new Map<vscode.WorkspaceFolder, string[]>();
    for (const uri of kind === 'givenFiles' ? given ?? [] : openFileUris()) {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (folder && folders.includes(folder)) byFolder.set(folder, [...(byFolder.get(folder) ?? []), uri.fsPath]);
    }
    if (!byFolder.size) return kind === 'givenFiles' ? 'None of those files is in a folder of this workspace.' : 'No files of this workspace are open in an editor.';
    return [...byFolder].map(([folder, files]) => ({ folder, partial: true, select: () => selectGivenFiles(folder.uri.fsPath, files, s(folder)) }));
  }

  /** `given`: the files of a `givenFiles` scan. */
  scan(kind: ScanKind, arg?: unknown, given?: readonly vscode.Uri[]): Promise<ScanSummary | undefined> {
    const options = scanOptionsArg(arg);
    return this.exclusive(async () => {
      const steps = this.steps(kind, given);
      if (typeof steps === 'string') {
        void this.notifier.info(steps);
        return undefined;
      }
      const client = await this.session.getClient();
      if (!client) return undefined;
      if (!(await this.consent.ask(kind, options.confirmed))) return undefined;
      return this.withRun(TITLES[kind], async (run) => {
        const outcomes: FolderOutcome[] = [];
        for (const [i, step] of steps.entries()) {
          const { folder } = step;
          const ctx = await this.pipelineContext(client, folder, this.uploads.forFolder(folder.uri.toString()), run, run.folderProgress(i, steps.length, this.label(folder)), options);
          const result = await scanFolder({
            root: folder.uri.fsPath,
            projectName: folder.name,
            partial: step.partial,
            select: step.select,
            scanConfigs: scanSettings(folder).scanConfigs,
            targetPolicies: this.targets.ids,
          }, ctx);
          outcomes.push(this.outcome(folder.name, result));
        }
        return outcomes;
      });
    });
  }

  /** Resumes every interrupted upload of this workspace, then fetches its results. */
  resume(arg?: unknown): Promise<ScanSummary | undefined> {
    const options = scanOptionsArg(arg);
    return this.exclusive(async () => {
      const pending = await this.uploads.pending();
      if (!pending.length) {
        void this.notifier.info('There is no interrupted upload to resume.');
        return undefined;
      }
      const client = await this.session.getClient();
      if (!client) return undefined;
      return this.withRun('Resuming the upload', async (run) => {
        const outcomes: FolderOutcome[] = [];
        for (const [i, { store, transfer }] of pending.entries()) {
          const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(store.folderUri));
          if (!folder) {
            await this.uploads.discard(store);
            outcomes.push({ folder: store.folderUri, files: 0, note: 'the folder is no longer in the workspace; the upload was discarded' });
            continue;
          }
          const ctx = await this.pipelineContext(client, folder, store, run, run.folderProgress(i, pending.length, this.label(folder)), options);
          outcomes.push(this.outcome(folder.name, await resumeFolder(transfer, ctx)));
        }
        return outcomes;
      });
    });
  }

  private label(folder: vscode.WorkspaceFolder): string {
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}: ` : '';
  }

  private async pipelineContext(
    client: ServiceClient, folder: vscode.WorkspaceFolder, store: FolderTransferStore, run: Run, onProgress: (p: ScanProgress) => void, options: ScanOptions,
  ): Promise<PipelineContext> {
    const folderUri = folder.uri.toString();
    return {
      client,
      uploads: await this.uploads.uploadsOf(store),
      signal: run.abort.signal,
      onProgress,
      log: (line) => this.session.log.warn(`${folder.name}: ${line}`),
      record: (f) => this.store.recordScan(folderUri, f.scan, f.issues, f.archived, f.unreadable, this.session.account),
      polling: { intervalMs: options.pollIntervalMs, maxPolls: options.maxPolls },
      retries: { maxRetries: options.maxRetries, baseDelayMs: options.retryBaseDelayMs },
      chunkSizeBytes: scanSettings(folder).chunkSizeBytes,
    };
  }

  private outcome(folder: string, r: FolderScanResult): FolderOutcome {
    const leftOut = r.skipped.filter((s) => NOTABLE.has(s.reason));
    for (const s of r.skipped) this.session.log.info(`${folder}: left out ${s.path} (${skipReasonLabel(s.reason)})`);
    if (r.kind === 'nothing') return { folder, files: 0, note: r.note, leftOut };
    if (r.kind === 'in-progress') {
      return { folder, files: r.files, note: `the service reports a scan of this upload is already in progress (${r.message})`, leftOut };
    }
    if (!r.settled) {
      void this.notifier.info(`The scan of ${folder} is still producing results; showing ${r.totalIssues} so far. Use Refresh Results later.`,
        { title: 'Refresh Results', run: () => this.commands.execute('codeScanner.refreshResults') });
    }
    return { folder, scanId: r.scanId, files: r.files, issues: r.issues, leftOut };
  }

  /** Re-fetches every recorded scan (no polling: the user asked for the current state). */
  async refresh(): Promise<boolean> {
    const folders = this.store.foldersWithResults();
    if (!folders.length) {
      void this.notifier.info('No scan results yet.', { title: 'Scan Workspace', run: () => this.commands.execute('codeScanner.scanWorkspace') });
      return false;
    }
    const client = await this.session.getClient();
    if (!client) return false;
    const archivedFiles = this.uploads.archivedFiles();
    try {
      await vscode.window.withProgress({ location: { viewId: 'codeScanner.issues' }, title: 'Refreshing results' }, async () => {
        for (const folderUri of folders) {
          const perScan = [];
          for (const scan of this.store.scansOf(folderUri)) {
            const archived = await archivedFiles.load(scan.archiveSha256);
            const found = await fetchFindings({ client, log: (l) => this.session.log.warn(l) }, scan.scanId);
            perScan.push({ scan, issues: found.issues, archived, unreadable: found.unreadable });
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

  /** Forgets every stored finding of this workspace (the scans stay on the service); asks first unless `confirmed`. */
  async clearResults(confirmed = false): Promise<boolean> {
    if (this.busy) return false;
    if (!confirmed) {
      const sure = await this.notifier.confirm(
        'Clear the scan results of this workspace?',
        'Findings, fixes and local dismissals are forgotten here. The scans stay on the service; scan again to see findings.',
        'Clear Results',
      );
      if (!sure) return false;
    }
    this.store.clear();
    void this.pruneArchivedFiles();
    return true;
  }

  private async pruneArchivedFiles(): Promise<void> {
    try {
      await this.uploads.pruneArchivedFiles(this.store.archiveDigests());
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
        await setContext(CONTEXT_KEYS.scanning, true);
        this.stateChanged.fire();
        try {
          const folders = await body(run);
          this.announce(folders);
          return { folders, cancelled: false };
        } catch (err) {
          if (err instanceof CancelledAfterUploadError) {
            // The service has the archive and scans it whatever we do now.
            void this.notifier.info(
              'The upload had finished before the cancel, so the service is scanning it. The findings that arrived are shown; Refresh Results fetches the rest.',
              { title: 'Refresh Results', run: () => this.commands.execute('codeScanner.refreshResults') },
              { title: 'Ignore This Scan', run: () => this.store.forgetScan(err.scanId) },
            );
            return { folders: [], cancelled: true, continuesOnService: err.scanId };
          }
          if (err instanceof UploadInterruptedError && err.cancelled && err.lastChunkInFlight) {
            void this.notifier.info('Cancelled while the last part of the upload was being sent: the service may have received it all and scan it. Scan again later to see current results.');
            return { folders: [], cancelled: true };
          }
          if (isCancellation(err, run.abort.signal)) {
            void this.notifier.info('Scan cancelled.');
            return { folders: [], cancelled: true };
          }
          if (err instanceof UploadInterruptedError) {
            void this.notifier.warn(err.message, { title: 'Resume Upload', run: () => this.commands.execute('codeScanner.resumeUpload') });
            return { folders: [], cancelled: false, error: { kind: 'interrupted', message: err.message } };
          }
          await this.session.reportError(err);
          return { folders: [], cancelled: false, error: { kind: isServiceError(err) ? err.kind : 'error', message: err instanceof Error ? err.message : String(err) } };
        } finally {
          sub.dispose();
          await this.pruneArchivedFiles();
          this.current = undefined;
          await setContext(CONTEXT_KEYS.scanning, false);
          this.stateChanged.fire();
        }
      },
    );
  }

  private announce(folders: FolderOutcome[]): void {
    const notes = folders.filter((f) => f.note).map((f) => `${f.folder}: ${f.note}`);
    if (notes.length) void this.notifier.info(`${notes.join('; ')}.`);
    const leftOut = folders.flatMap((f) => (f.leftOut ?? []).map((s) => ({ folder: f.folder, ...s })));
    if (leftOut.length) {
      const byReason = new Map<string, number>();
      for (const s of leftOut) byReason.set(skipReasonLabel(s.reason), (byReason.get(skipReasonLabel(s.reason)) ?? 0) + 1);
      const parts = [...byReason].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r}: ${n}`);
      // Labels are plural nouns ("credential files"); the count follows so one reads right.
      void this.notifier.info(
        `${leftOut.length} file${leftOut.length === 1 ? ' was' : 's were'} left out of the scan — ${parts.join(', ')}.`,
        { title: 'Show Skipped Files', run: () => showSkipped(leftOut) },
      );
    }
    const total = folders.reduce((n, f) => n + (f.issues ?? 0), 0);
    if (folders.some((f) => f.scanId)) {
      this.notifier.flash(`scan finished, ${total} issue${total === 1 ? '' : 's'}.`);
    }
  }

  override dispose(): void {
    this.cancel();
    super.dispose();
  }
}

/** The files a scan left out, with why; choosing one opens it. */
async function showSkipped(files: (SkippedFile & { folder: string })[]): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const picked = await vscode.window.showQuickPick(
    files.map((f) => ({ label: f.path, description: skipReasonLabel(f.reason), detail: folders.length > 1 ? f.folder : undefined, file: f })),
    { title: 'Files left out of the scan', placeHolder: 'Choose a file to open it', matchOnDescription: true },
  );
  const folder = picked && folders.find((w) => w.name === picked.file.folder);
  if (folder && !picked.file.path.endsWith('/')) await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, ...picked.file.path.split('/')));
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

export function registerScanCommands(commands: Commands, scans: ScanController): void {
  commands.register('codeScanner.scanWorkspace', (arg) => scans.scan('workspace', arg));
  commands.register('codeScanner.scanOpenFiles', (arg) => scans.scan('openFiles', arg));
  commands.register('codeScanner.scanChangedFiles', (arg) => scans.scan('changedFiles', arg));
  commands.register('codeScanner.cancelScan', () => scans.cancel());
  commands.register('codeScanner.showScanProgress', () => scans.showProgress());
  commands.register('codeScanner.resumeUpload', (arg) => scans.resume(arg));
  commands.register('codeScanner.refreshResults', () => scans.refresh());
  commands.register('codeScanner.clearResults', (arg) => scans.clearResults(plainObjectArg<{ confirmed: boolean }>(arg)?.confirmed === true));
}

// The editor's side of scanning: which folders and files a command means, the progress
// notification and status bar state, cancellation and one scan at a time. The work itself
// is the core pipeline (src/core/scan/pipeline.ts); what is said when a scan ends is
// scanEnd.ts, the results commands resultsCommands.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/api';
import { isCancellation, settleBounded } from '../../core/async';
import { errorMessage } from '../../core/errors';
import type { ScanFindings } from '../../core/results';
import { scanEventLine, type FolderOutcome, type PartialKind, type ScanSummary } from '../../core/scan/endWords';
import { resumeFolder, scanFolder, waitForScan, type FolderScanResult, type PipelineContext } from '../../core/scan/pipeline';
import type { SaveScanResult } from '../../core/scan/saveQueue';
import type { ScanProgress } from '../../core/scan/stages';
import { MemoryTransferStore } from '../../core/upload/transferStore';
import { selectGivenFiles, skipReasonLabel } from '../../core/workspace/selectFiles';
import type { Session } from '../account/session';
import type { TargetPolicies } from '../account/targetPolicies';
import { plainObjectArg, scanOptionsArg, type ScanOptions } from '../commands/args';
import { CONTEXT_KEYS } from '../commands/contextKeys';
import { setContext, type Commands } from '../commands/manager';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { Ctx } from '../context';
import type { FeatureCtx } from '../controllers';
import { DisposableObject } from '../disposable';
import { inertProgress, progressTitle, type Notifier } from '../notifier';
import type { ResultsStore } from '../results/resultsStore';
import { folderProject, repositorySettingNotes, scanSettings } from '../settings';
import type { ProjectNames } from './projectNames';
import { ResultsCommands, pruneArchivedFiles, type ScanActivity } from './resultsCommands';
import { ScanEnd } from './scanEnd';
import { SCAN_TITLES, savedFileSteps, scanSteps, stepsOf, type ScanKind, type Step } from './scanTargets';
import type { Selection } from '../../core/workspace/selection';
import { FoldersEnded, Run, recordedByPipeline, type ScanState } from './scanRun';
import type { UploadConsent } from './uploadConsent';
import { selectOptions } from './fileChoice';
import type { FolderTransferStore, UploadStorage } from './uploadStorage';
import { l10n } from '../../core/text/l10n';

export type { ScanOptions } from '../commands/args';
export type { FolderOutcome, ScanSummary } from '../../core/scan/endWords';
export type { ScanState } from './scanRun';
export type { ScanKind } from './scanTargets';

/** Folders of a multi-root workspace scanned side by side. */
const FOLDERS_AT_ONCE = 2;

export class ScanController extends DisposableObject implements ScanActivity {
  private current: { run: Run; state: ScanState } | undefined;
  private isBusy = false;
  private disposing = false;
  /** The scan command running now, if any. */
  private running: Promise<unknown> | undefined;
  /** Scans a run is waiting for now (Refresh Results leaves them to it). */
  private readonly watching = new Set<string>();
  private readonly stateChanged = this.own(new vscode.EventEmitter<void>());
  readonly onDidChangeState = this.stateChanged.event;

  private readonly targets: TargetPolicies;
  private readonly session: Session;
  private readonly store: ResultsStore;
  private readonly uploads: UploadStorage;
  private readonly notifier: Notifier;
  private readonly commands: Commands;
  private readonly consent: UploadConsent;
  private readonly projects: ProjectNames;

  private readonly end: ScanEnd;

  constructor(ctx: Pick<Ctx, 'targets' | 'session' | 'store' | 'uploads' | 'notifier' | 'commands' | 'consent' | 'projects'>) {
    super();
    ({ targets: this.targets, session: this.session, store: this.store, uploads: this.uploads, notifier: this.notifier, commands: this.commands, consent: this.consent, projects: this.projects } = ctx);
    this.end = new ScanEnd(ctx);
  }

  get busy(): boolean {
    return this.isBusy;
  }

  isWatching(scanId: string): boolean {
    return this.watching.has(scanId);
  }

  async stopAndSettle(): Promise<void> {
    this.cancel();
    await this.running?.catch(() => undefined);
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
      void this.notifier.info(this.isBusy ? l10n.t('A scan is starting.') : l10n.t('No scan is running.'));
      return;
    }
    await this.notifier.info(this.current.state.message, { title: l10n.t('Cancel Scan'), run: () => this.cancel() });
  }

  /** `given`: the files of a `givenFiles` scan; `chosen`: selections made and confirmed (an agent's), packaged as they are. */
  scan(kind: ScanKind, arg?: unknown, given?: readonly vscode.Uri[], chosen?: readonly { folder: vscode.WorkspaceFolder; selection: Selection }[]): Promise<ScanSummary | undefined> {
    const options = scanOptionsArg(arg);
    return this.exclusive(async () => {
      const steps = chosen ? stepsOf(kind, chosen) : scanSteps(kind, given);
      if (typeof steps === 'string') {
        void this.notifier.info(steps);
        return undefined;
      }
      const client = await this.session.getClient({ ask: true });
      if (!client) return undefined;
      if (!(await this.consent.ask(kind, options.confirmed))) return undefined;
      return this.withRun(SCAN_TITLES[kind], (run) => this.scanSteps(steps, client, run, options));
    });
  }

  /**
   * Scan on save: the saved files, as one partial scan, in the background. It asks nothing
   * (the first-scan question was answered) and says nothing when it goes well: the status
   * bar shows it, the findings change when it completes. Another scan running: `busy`.
   */
  async scanSaved(files: ReadonlyMap<string, ReadonlySet<string>>): Promise<SaveScanResult> {
    if (this.isBusy) return { kind: 'busy' };
    if (!vscode.workspace.isTrusted) return { kind: 'failed', message: l10n.t('the workspace is not trusted') };
    if (this.consent.needed()) return { kind: 'failed', message: l10n.t('the first-scan question has not been answered') };
    if (!this.session.isSignedIn()) return { kind: 'failed', message: l10n.t('not signed in') };
    const summary = await this.exclusive(async () => {
      const steps = savedFileSteps(files);
      if (typeof steps === 'string') return undefined;
      const client = await this.session.getClient();
      if (!client) return undefined;
      return this.withRun(l10n.t('Scanning saved files'), (run) => this.scanSteps(steps, client, run, {}), { quiet: true });
    });
    if (!summary) return this.isBusy ? { kind: 'busy' } : { kind: 'done' };
    const e = summary.error;
    if (e?.kind === 'rate-limited') return { kind: 'limited', retryAfterMs: e.retryAfterMs };
    if (e) return { kind: 'failed', message: e.message };
    return { kind: 'done', summary };
  }

  private async scanSteps(steps: Step[], client: ServiceClient, run: Run, options: ScanOptions): Promise<FolderOutcome[]> {
    // Two folders at a time: each waits on the service most of its time, and a scan's
    // packaging uses both cores only briefly. Each folder's results land when it finishes.
    const settled = await settleBounded(steps, FOLDERS_AT_ONCE, async (step, i) => {
      const { folder } = step;
      const ctx = await this.pipelineContext(client, folder, this.uploads.forFolder(folder.uri.toString()), run, run.folderProgress(i, steps.length, this.label(folder)), options);
      const project = await folderProject(folder);
      this.projects.set(folder.uri.toString(), project);
      const result = await this.noting(folder, run, () => scanFolder({
        root: folder.uri.fsPath,
        projectName: project.name,
        folderName: folder.name,
        partial: step.partial,
        select: step.select,
        scanConfigs: scanSettings(folder).scanConfigs,
        targetPolicies: this.targets.ids,
      }, ctx));
      const outcome = { ...this.outcome(folder, result), ...(step.partialOf ? { partialOf: step.partialOf } : {}) };
      // Said with every scan: a repository's own settings may narrow what it scans.
      const narrowed = repositorySettingNotes(folder);
      const note = [outcome.note, ...narrowed].filter(Boolean).join('; ') || undefined;
      return { ...outcome, project: project.name, ...(note ? { note } : {}) };
    });
    const done = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failures = settled.flatMap((r, i) => (r.status === 'rejected' ? [{ folder: steps[i].folder.name, error: r.reason as unknown }] : []));
    if (failures.length) throw new FoldersEnded(done, failures);
    return done;
  }

  /**
   * A scan of content that is not the working tree (what a commit or a push would send,
   * written under `root`: partial, or a whole commit's files), through the same pipeline (consent asked by the caller,
   * trust, the request budget, the upload), with git details from the folder. Its findings
   * go to `onFindings`, never into the folder's: they are of other content. Its upload is not
   * kept to resume, and the folder's own interrupted upload is left alone.
   */
  scanContent(folder: vscode.WorkspaceFolder, o: {
    root: string; paths: string[]; title: string; partialOf: PartialKind; quiet?: boolean; options?: ScanOptions;
    /** The project CI's command names (`--project-name`), over the folder's own. */
    projectName?: string;
    /** `root` is this commit's tracked files (commitTree.ts): a full scan of it, named by the commit. */
    commit?: string;
    onFindings: (f: ScanFindings) => void;
  }): Promise<ScanSummary | undefined> {
    return this.exclusive(async () => {
      const client = await this.session.getClient({ ask: !o.quiet });
      if (!client) return undefined;
      const options = o.options ?? {};
      return this.withRun(o.title, async (run) => {
        const base = await this.pipelineContext(client, folder, this.uploads.forFolder(folder.uri.toString()), run, run.folderProgress(0, 1, this.label(folder)), options);
        const memory = new MemoryTransferStore();
        const ctx: PipelineContext = {
          ...base,
          uploads: { ...base.uploads, store: memory, discard: () => memory.clear(), reuse: undefined, changes: undefined },
          onScan: async (e) => {
            this.session.log.info(`${folder.name}: ${o.title}: ${scanEventLine(e)}`);
            this.end.sayAbsentLists(e, client.baseUrl);
            if (e.kind === 'completed') o.onFindings(e.findings);
          },
        };
        const project = o.projectName ? { name: o.projectName } : await folderProject(folder);
        const files = o.paths.map((p) => path.join(o.root, ...p.split('/')));
        const result = await this.noting(folder, run, () => scanFolder({
          root: o.root, gitRoot: folder.uri.fsPath, projectName: project.name, folderName: folder.name, partial: !o.commit,
          ...(o.commit ? { commit: o.commit } : {}),
          select: () => selectGivenFiles(o.root, files, { ...selectOptions(folder), useGit: false }, { partial: !o.commit }),
          scanConfigs: scanSettings(folder).scanConfigs, targetPolicies: this.targets.ids,
        }, ctx));
        const r = this.outcome(folder, result);
        return [{ ...r, partialOf: o.partialOf, project: project.name, issues: undefined, fresh: undefined }];
      }, { quiet: o.quiet, announce: false });
    });
  }

  /** Resumes every interrupted upload of this workspace, then fetches its results. */
  resume(arg?: unknown): Promise<ScanSummary | undefined> {
    const options = scanOptionsArg(arg);
    return this.exclusive(async () => {
      // In the workspace's folder order, as a scan reports its folders: they are stored in
      // the order the folders' uploads happened to start. Folders no longer open go last.
      const rank = (uri: string) => vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri))?.index ?? Number.MAX_SAFE_INTEGER;
      const pending = (await this.uploads.pending()).sort((a, b) => rank(a.store.folderUri) - rank(b.store.folderUri));
      if (!pending.length) {
        void this.notifier.info(l10n.t('There is no interrupted upload to resume.'));
        return undefined;
      }
      const client = await this.session.getClient({ ask: true });
      if (!client) return undefined;
      return this.withRun(l10n.t('Resuming the upload'), async (run) => {
        const outcomes: FolderOutcome[] = [];
        for (const [i, { store, transfer }] of pending.entries()) {
          const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(store.folderUri));
          if (!folder) {
            await this.uploads.discard(store);
            outcomes.push({ folder: store.folderUri, files: 0, note: l10n.t('the folder is no longer in the workspace; the upload was discarded') });
            continue;
          }
          const ctx = await this.pipelineContext(client, folder, store, run, run.folderProgress(i, pending.length, this.label(folder)), options);
          outcomes.push(this.outcome(folder, await this.noting(folder, run, () => resumeFolder(transfer, ctx))));
        }
        return outcomes;
      });
    });
  }

  /**
   * Waits again for the scans a reload interrupted the wait for (they are saved when their
   * upload completes). Quietly nothing when there are none or nobody is signed in.
   */
  async resumeWaiting(arg?: unknown): Promise<ScanSummary | undefined> {
    const options = scanOptionsArg(arg);
    const waiting = this.store.pendingScans().filter((p) => p.scan.waiting && !this.watching.has(p.scan.scanId));
    if (!waiting.length || !(await this.session.hasStoredToken())) return undefined;
    return this.exclusive(async () => {
      const client = await this.session.getClient();
      if (!client) return undefined;
      return this.withRun(l10n.t('Waiting for the service'), async (run) => {
        const outcomes: FolderOutcome[] = [];
        for (const [i, { folderUri, scan }] of waiting.entries()) {
          const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(folderUri));
          if (!folder) continue;
          const ctx = await this.pipelineContext(client, folder, this.uploads.forFolder(folderUri), run, run.folderProgress(i, waiting.length, this.label(folder)), options);
          const done = await this.watch(scan.scanId, () => waitForScan(scan, ctx));
          if (done.kind === 'complete') outcomes.push({ folder: folder.name, scanId: scan.scanId, files: scan.partialFiles?.length ?? 0, issues: done.issues, warnings: done.warnings, ...(done.unreadLists ? { unreadLists: done.unreadLists } : {}) });
        }
        return outcomes;
      });
    });
  }

  async watch<T>(scanId: string, fn: () => Promise<T>): Promise<T> {
    this.watching.add(scanId);
    try {
      return await fn();
    } finally {
      this.watching.delete(scanId);
    }
  }

  /**
   * Runs a folder's scan; when it ends before the service had the scan (cancelled, the upload
   * failed), the folder says so (the findings stay). After that the pipeline records it.
   */
  private async noting<T>(folder: vscode.WorkspaceFolder, run: Run, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      run.folder ??= folder.name;
      if (!recordedByPipeline(err)) {
        const cancelled = isCancellation(err, run.abort.signal);
        this.store.noteAttempt(folder.uri.toString(), cancelled ? { kind: 'cancelled' } : { kind: 'error', detail: errorMessage(err) });
      }
      throw err;
    }
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
      log: (line) => this.session.log.info(`${folder.name}: ${line}`),
      warn: (line) => this.session.log.warn(`${folder.name}: ${line}`),
      onScan: async (e) => {
        // The window is closing: the scan is still waited for, and the next window waits again.
        if (this.disposing && e.kind === 'stopped') return;
        if (e.kind === 'uploaded') this.watching.add(e.scan.scanId);
        else this.watching.delete(e.kind === 'completed' ? e.findings.scan.scanId : e.scan.scanId);
        this.session.log.info(`${folder.name}: ${scanEventLine(e)}`);
        this.end.sayAbsentLists(e, client.baseUrl);
        await this.store.apply(folderUri, e, this.session.account);
      },
      wait: { intervalMs: options.pollIntervalMs, maxPolls: options.maxPolls },
      retries: { maxRetries: options.maxRetries, baseDelayMs: options.retryBaseDelayMs },
      chunkSizeBytes: scanSettings(folder).chunkSizeBytes,
      watchFromFiles: options.watchFromFiles,
    };
  }

  /** How many of the findings a completed scan brought are new (in the files it scanned). */
  private newFoundBy(folderUri: string, scanId: string): number {
    const scan = this.store.scansOf(folderUri).find((s) => s.scanId === scanId);
    if (!scan) return 0;
    const covered = scan.partialFiles && new Set(scan.partialFiles);
    return this.store.issuesIn(folderUri).filter((i) => i.isNew && (!covered || covered.has(i.path))).length;
  }

  private outcome(workspaceFolder: vscode.WorkspaceFolder, r: FolderScanResult): FolderOutcome {
    const folder = workspaceFolder.name;
    // Every reason, as Upload Preview lists them (git's ignored files are not enumerated by a scan).
    const leftOut = r.skipped;
    for (const s of r.skipped) this.session.log.info(`${folder}: left out ${s.path} (${skipReasonLabel(s.reason)})`);
    if (r.kind === 'nothing') return { folder, files: 0, note: r.note, leftOut };
    if (r.kind === 'in-progress') {
      return { folder, files: r.files, note: l10n.t('the service reports a scan of this upload is already in progress ({0})', r.message), leftOut };
    }
    const fresh = this.newFoundBy(workspaceFolder.uri.toString(), r.scanId);
    return {
      folder, scanId: r.scanId, files: r.files, issues: r.issues, ...(fresh ? { fresh } : {}), leftOut, warnings: r.warnings.length ? r.warnings : undefined,
      ...(r.unreadLists ? { unreadLists: r.unreadLists } : {}),
      ...(r.gitIgnoredNotListed ? { gitIgnoredNotListed: true } : {}),
    };
  }

  private async exclusive<T>(fn: () => Promise<T>): Promise<T | undefined> {
    if (!vscode.workspace.isTrusted) {
      void this.notifier.warn(l10n.t('Scanning uploads workspace files, so it needs a trusted workspace.'),
        { title: l10n.t('Manage Workspace Trust'), run: () => vscode.commands.executeCommand('workbench.trust.manage') });
      return undefined;
    }
    if (this.isBusy) {
      void this.showProgress();
      return undefined;
    }
    // Set before the first await so a second click cannot start a parallel scan.
    this.isBusy = true;
    const running = fn();
    this.running = running;
    try {
      return await running;
    } finally {
      this.isBusy = false;
      this.running = undefined;
    }
  }

  /**
   * Runs a scan with its progress. `quiet`: a background scan (scan on save): progress in the
   * status bar only, and only the log hears how it ended. `announce: false`: the caller says
   * how it ended (a push check's verdict), not the usual message.
   */
  private async withRun(title: string, body: (run: Run) => Promise<FolderOutcome[]>, o: { quiet?: boolean; announce?: boolean } = {}): Promise<ScanSummary | undefined> {
    return vscode.window.withProgress(
      { location: o.quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification, title: progressTitle(title), cancellable: !o.quiet },
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
          if (o.quiet) this.end.logOutcomes(folders);
          else if (o.announce !== false) this.end.announce(folders);
          return { folders, cancelled: false };
        } catch (err) {
          const ended = err instanceof FoldersEnded ? err : new FoldersEnded([], [{ folder: run.folder, error: err }]);
          if (o.quiet) {
            this.end.logOutcomes(ended.done);
            return { folders: ended.done, ...this.end.logEnded(ended.failures, run) };
          }
          // Folders that finished are told as usual; each way the others ended, once.
          if (ended.done.length) this.end.announce(ended.done);
          return { folders: ended.done, ...(await this.end.reportEnded(ended.failures, run)) };
        } finally {
          sub.dispose();
          await pruneArchivedFiles(this.uploads, this.store, this.session);
          this.current = undefined;
          await setContext(CONTEXT_KEYS.scanning, false);
          this.stateChanged.fire();
        }
      },
    );
  }

  override dispose(): void {
    this.disposing = true;
    this.cancel();
    super.dispose();
  }
}

/** The scan commands (scanning, cancel, resume) and the results commands (refresh, ignore, clear). */
export function scanFeature(ctx: FeatureCtx) {
  const { scans } = ctx;
  const results = new ResultsCommands(ctx, scans);
  return {
    commands: {
      'codeScanner.scanWorkspace': (arg) => scans.scan('workspace', arg),
      'codeScanner.scanOpenFiles': (arg) => scans.scan('openFiles', arg),
      'codeScanner.scanChangedFiles': (arg) => scans.scan('changedFiles', arg),
      'codeScanner.cancelScan': () => scans.cancel(),
      'codeScanner.showScanProgress': () => scans.showProgress(),
      'codeScanner.resumeUpload': (arg) => scans.resume(arg),
      'codeScanner.refreshResults': () => results.refresh(),
      'codeScanner.clearResults': (arg) => results.clearResults(plainObjectArg<{ confirmed: boolean }>(arg)?.confirmed === true),
      'codeScanner.ignoreScan': (arg) => results.ignoreScan(plainObjectArg<{ scanId: string }>(arg)?.scanId),
    } satisfies SomeCommandHandlers,
  };
}

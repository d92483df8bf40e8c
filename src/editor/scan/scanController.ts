// The editor's side of scanning: which folders and files a command means, the progress
// notification and status bar state, cancellation, one scan at a time, and telling the
// user how it went. The work itself is the core pipeline (src/core/scan/pipeline.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isServiceError, type ServiceClient } from '../../core/api';
import { CancelledAfterUploadError, isCancellation, settleBounded } from '../../core/async';
import { clockTime, type PendingScan, type ScanFindings } from '../../core/results';
import { ScanFailedError, ScanStoppedError } from '../../core/scan/awaitScan';
import { fetchFindings, resumeFolder, scanFolder, waitForScan, type FolderScanRequest, type FolderScanResult, type PipelineContext, type ScanEvent } from '../../core/scan/pipeline';
import { overallFraction, type ScanProgress, type ScanStage } from '../../core/scan/stages';
import { UploadInterruptedError } from '../../core/upload/engine';
import { MemoryTransferStore } from '../../core/upload/transferStore';
import { selectChangedFiles, selectGivenFiles, selectWorkspaceFiles, skipReasonLabel, type SkippedFile } from '../../core/workspace/selectFiles';
import type { TargetPolicies } from '../account/targetPolicies';
import { plainObjectArg, scanOptionsArg, type ScanOptions } from '../commands/args';
import { CONTEXT_KEYS } from '../commands/contextKeys';
import { setContext, type Commands } from '../commands/manager';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { Ctx } from '../context';
import { DisposableObject } from '../disposable';
import { inertProgress, progressTitle, type Notifier } from '../notifier';
import type { ProjectNames } from './projectNames';
import type { ResultsStore } from '../results/resultsStore';
import type { Session } from '../account/session';
import type { UploadConsent } from './uploadConsent';
import { selectOptions } from './uploadPreview';
import { folderProject, repositorySettingNotes, scanSettings } from '../settings';
import type { FolderTransferStore, UploadStorage } from './uploadStorage';
import { listWords, plural } from '../../core/text/plural';
import { errorMessage } from '../../core/errors';
import type { SaveScanResult } from '../../core/scan/saveQueue';

export type { ScanOptions } from '../commands/args';

/** `givenFiles`: files named by the caller (the agent's Scan Files tool), a partial scan like open files. */
export type ScanKind = 'workspace' | 'openFiles' | 'changedFiles' | 'givenFiles';

/** What the status bar shows of a running scan; `stage` results: the service has it (no percentage then). */
export interface ScanState { message: string; percent?: number; stage?: ScanStage }

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


/** `partialOf`: what a partial scan's files are, in the end message ("2 issues in the 1 changed file"). */
interface Step { folder: vscode.WorkspaceFolder; select: FolderScanRequest['select']; partial: boolean; partialOf?: string }

/** Folders of a multi-root workspace scanned side by side. */
const FOLDERS_AT_ONCE = 2;

const TITLES: Record<ScanKind, string> = {
  workspace: 'Scanning the workspace',
  openFiles: 'Scanning open files',
  givenFiles: 'Scanning the chosen files',
  changedFiles: 'Scanning changed files',
};

/** Tracks one running scan: its progress for the notification and the status bar, and cancellation. */
class Run {
  readonly abort = new AbortController();
  /** The folder a failure came from (its name), for what is said when the run ends. */
  folder: string | undefined;
  private reported = 0;
  /** Each folder's progress (0..1): folders scanned side by side fill one bar together. */
  private readonly fractions: number[] = [];
  constructor(
    private readonly progress: vscode.Progress<{ message?: string; increment?: number }>,
    private readonly onState: (s: ScanState) => void,
  ) {}

  /** `overall` is 0-100 across every folder of the run. */
  report(message: string, overall?: number, stage?: ScanStage): void {
    let increment: number | undefined;
    if (overall !== undefined && overall > this.reported) {
      increment = overall - this.reported;
      this.reported = overall;
    }
    this.progress.report({ message, increment });
    this.onState({ message, percent: overall === undefined ? undefined : Math.floor(this.reported), stage });
  }

  /** A pipeline progress of folder `index` of `count` (the label names the folder in multi-root workspaces). */
  folderProgress(index: number, count: number, label: string): (p: ScanProgress) => void {
    return (p) => {
      this.fractions[index] = overallFraction(p.stage, p.fraction);
      let sum = 0;
      for (let i = 0; i < count; i++) sum += this.fractions[i] ?? 0;
      this.report(`${label}${p.message}`, (sum / count) * 100, p.stage);
    };
  }
}

/** A scan event for the log. */
function scanEventText(e: ScanEvent): string {
  switch (e.kind) {
    case 'uploaded': return `scan ${e.scan.scanId} uploaded; waiting for the service to finish it.`;
    case 'completed': return `scan ${e.findings.scan.scanId} completed: ${e.findings.issues.length} findings read${e.findings.unreadable ? `, ${e.findings.unreadable} unreadable` : ''}.`;
    case 'failed': return `scan ${e.scan.scanId} failed on the service: ${e.reason ?? 'no reason given'}. The findings shown are unchanged.`;
    case 'stopped': return `stopped waiting for scan ${e.scan.scanId} (${e.why})${e.detail ? `: ${e.detail}` : ''}. The findings shown are unchanged.`;
  }
}


/** How one folder of a run ended when it did not finish (`folder` its name, when known). */
interface FolderFailure { folder: string | undefined; error: unknown }

/** A run some of whose folders did not finish; `done` holds those that did. */
class FoldersEnded extends Error {
  constructor(readonly done: FolderOutcome[], readonly failures: FolderFailure[]) {
    super(`${failures.length} folder(s) did not finish`);
  }
}

/** Errors the pipeline has already recorded on the folder (the service had the scan). */
function recordedByPipeline(err: unknown): boolean {
  return err instanceof CancelledAfterUploadError || err instanceof ScanFailedError || err instanceof ScanStoppedError;
}

export class ScanController extends DisposableObject {
  private current: { run: Run; state: ScanState } | undefined;
  private busy = false;
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

  constructor(ctx: Pick<Ctx, 'targets' | 'session' | 'store' | 'uploads' | 'notifier' | 'commands' | 'consent' | 'projects'>) {
    super();
    ({ targets: this.targets, session: this.session, store: this.store, uploads: this.uploads, notifier: this.notifier, commands: this.commands, consent: this.consent, projects: this.projects } = ctx);
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
    // A whole-folder or changed-files scan of some folders (an agent's): `given` names them.
    const chosen = (kind === 'workspace' || kind === 'changedFiles') && given?.length
      ? folders.filter((f) => given.some((u) => u.toString() === f.uri.toString()))
      : folders;
    if (kind === 'workspace') return chosen.map((folder) => ({ folder, partial: false, select: (known, watched, onCount) => selectWorkspaceFiles(folder.uri.fsPath, { ...s(folder), known, watched, onCount, statsLater: true }) }));
    if (kind === 'changedFiles') return chosen.map((folder) => ({ folder, partial: true, partialOf: 'changed file', select: () => selectChangedFiles(folder.uri.fsPath, s(folder)) }));
    const byFolder = new Map<vscode.WorkspaceFolder, string[]>();
    for (const uri of kind === 'givenFiles' ? given ?? [] : openFileUris()) {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (folder && folders.includes(folder)) byFolder.set(folder, [...(byFolder.get(folder) ?? []), uri.fsPath]);
    }
    if (!byFolder.size) return kind === 'givenFiles' ? 'None of those files is in a folder of this workspace.' : 'No files of this workspace are open in an editor.';
    return [...byFolder].map(([folder, files]) => ({ folder, partial: true, partialOf: kind === 'openFiles' ? 'open file' : 'chosen file', select: () => selectGivenFiles(folder.uri.fsPath, files, s(folder)) }));
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
      const client = await this.session.getClient({ ask: true });
      if (!client) return undefined;
      if (!(await this.consent.ask(kind, options.confirmed))) return undefined;
      return this.withRun(TITLES[kind], (run) => this.scanSteps(steps, client, run, options));
    });
  }

  /**
   * Scan on save: the saved files, as one partial scan, in the background. It asks nothing
   * (the first-scan question was answered) and says nothing when it goes well: the status
   * bar shows it, the findings change when it completes. Another scan running: `busy`.
   */
  async scanSaved(files: ReadonlyMap<string, ReadonlySet<string>>): Promise<SaveScanResult> {
    if (this.busy) return { kind: 'busy' };
    if (!vscode.workspace.isTrusted) return { kind: 'failed', message: 'the workspace is not trusted' };
    if (this.consent.needed()) return { kind: 'failed', message: 'the first-scan question has not been answered' };
    if (!this.session.isSignedIn()) return { kind: 'failed', message: 'not signed in' };
    const uris = [...files].flatMap(([folderUri, paths]) => [...paths].map((p) => vscode.Uri.joinPath(vscode.Uri.parse(folderUri), ...p.split('/'))));
    const summary = await this.exclusive(async () => {
      const steps = this.steps('givenFiles', uris);
      if (typeof steps === 'string') return undefined;
      const client = await this.session.getClient();
      if (!client) return undefined;
      return this.withRun('Scanning saved files', (run) => this.scanSteps(steps, client, run, {}), { quiet: true });
    });
    if (!summary) return this.busy ? { kind: 'busy' } : { kind: 'done' };
    const e = summary.error;
    if (e?.kind === 'rate-limited') return { kind: 'limited', retryAfterMs: e.retryAfterMs };
    if (e) return { kind: 'failed', message: e.message };
    return { kind: 'done' };
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
   * A partial scan of content that is not the working tree (what a commit or a push would
   * send, written under `root`), through the same pipeline (consent asked by the caller,
   * trust, the request budget, the upload), with git details from the folder. Its findings
   * go to `onFindings`, never into the folder's: they are of other content. Its upload is not
   * kept to resume, and the folder's own interrupted upload is left alone.
   */
  scanContent(folder: vscode.WorkspaceFolder, o: {
    root: string; paths: string[]; title: string; partialOf: string; quiet?: boolean; options?: ScanOptions;
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
            this.session.log.info(`${folder.name}: ${o.title}: ${scanEventText(e)}`);
            if (e.kind === 'completed') o.onFindings(e.findings);
          },
        };
        const project = await folderProject(folder);
        const files = o.paths.map((p) => path.join(o.root, ...p.split('/')));
        const result = await this.noting(folder, run, () => scanFolder({
          root: o.root, gitRoot: folder.uri.fsPath, projectName: project.name, folderName: folder.name, partial: true,
          select: () => selectGivenFiles(o.root, files, { ...selectOptions(folder), useGit: false }),
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
        void this.notifier.info('There is no interrupted upload to resume.');
        return undefined;
      }
      const client = await this.session.getClient({ ask: true });
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
      return this.withRun('Waiting for the service', async (run) => {
        const outcomes: FolderOutcome[] = [];
        for (const [i, { folderUri, scan }] of waiting.entries()) {
          const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(folderUri));
          if (!folder) continue;
          const ctx = await this.pipelineContext(client, folder, this.uploads.forFolder(folderUri), run, run.folderProgress(i, waiting.length, this.label(folder)), options);
          const done = await this.watch(scan.scanId, () => waitForScan(scan, ctx));
          if (done.kind === 'complete') outcomes.push({ folder: folder.name, scanId: scan.scanId, files: scan.partialFiles?.length ?? 0, issues: done.issues, warnings: done.warnings });
        }
        return outcomes;
      });
    });
  }

  private async watch<T>(scanId: string, fn: () => Promise<T>): Promise<T> {
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
        this.session.log.info(`${folder.name}: ${scanEventText(e)}`);
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
      return { folder, files: r.files, note: `the service reports a scan of this upload is already in progress (${r.message})`, leftOut };
    }
    const fresh = this.newFoundBy(workspaceFolder.uri.toString(), r.scanId);
    return {
      folder, scanId: r.scanId, files: r.files, issues: r.issues, ...(fresh ? { fresh } : {}), leftOut, warnings: r.warnings.length ? r.warnings : undefined,
      ...(r.gitIgnoredNotListed ? { gitIgnoredNotListed: true } : {}),
    };
  }

  /** "The findings shown are from the scan of 14:02." / "No findings are shown until a scan completes." */
  private shownText(folderName: string | undefined): string {
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.name === folderName);
    const scans = folder ? this.store.scansOf(folder.uri.toString()) : [];
    if (!scans.length) return 'No findings are shown until a scan has completed.';
    return `The findings shown are still those of the scan of ${clockTime(scans[scans.length - 1].scannedAt, new Date())}.`;
  }

  /**
   * Asks the service once about each scan still on it (a completed one's findings are read
   * and shown), then reads every shown scan again. No polling: the user asked for the
   * current state. What cannot be read leaves the findings as they were.
   */
  async refresh(): Promise<boolean> {
    const pending = this.store.pendingScans().filter((p) => !this.watching.has(p.scan.scanId));
    const folders = [...new Set([...this.store.foldersWithResults(), ...pending.map((p) => p.folderUri)])];
    if (!folders.length) {
      void this.notifier.info('No scan results yet.', { title: 'Scan Workspace', run: () => this.commands.execute('codeScanner.scanWorkspace') });
      return false;
    }
    const client = await this.session.getClient({ ask: true });
    if (!client) return false;
    const archivedFiles = this.uploads.archivedFiles();
    const notes: string[] = [];
    try {
      await vscode.window.withProgress({ location: { viewId: 'codeScanner.issues' }, title: 'Refreshing results' }, async () => {
        for (const folderUri of folders) {
          for (const p of pending.filter((x) => x.folderUri === folderUri)) {
            const note = await this.checkPending(client, folderUri, p.scan);
            if (note) notes.push(note);
          }
          const perScan = [];
          for (const scan of this.store.scansOf(folderUri)) {
            const archived = await archivedFiles.load(scan.archiveSha256);
            const found = await fetchFindings({ client, log: (l) => this.session.log.warn(l) }, scan.scanId);
            perScan.push({ scan, issues: found.issues, archived, unreadable: found.unreadable });
          }
          if (perScan.length) await this.store.replaceFolder(folderUri, perScan);
        }
      });
      if (notes.length) void this.notifier.info(notes.join(' '));
      return true;
    } catch (err) {
      await this.session.reportError(err);
      return false;
    }
  }

  /** One look at a scan still on the service: its findings when it is done; what is known otherwise (a sentence), else nothing. */
  private async checkPending(client: ServiceClient, folderUri: string, scan: PendingScan): Promise<string | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(folderUri));
    const name = folder?.name ?? folderUri;
    const when = clockTime(scan.scannedAt, new Date());
    const uploads = await this.uploads.uploadsOf(this.uploads.forFolder(folderUri));
    const ctx: PipelineContext = {
      client, uploads, signal: new AbortController().signal, onProgress: () => undefined,
      log: (line) => this.session.log.info(`${name}: ${line}`),
      warn: (line) => this.session.log.warn(`${name}: ${line}`),
      onScan: (e) => this.store.apply(folderUri, e, this.session.account),
    };
    try {
      const r = await this.watch(scan.scanId, () => waitForScan(scan, ctx, { wait: false }));
      return r.kind === 'running' ? `The scan of ${name} from ${when} is still running on the service (${r.status}); refresh again later.` : undefined;
    } catch (err) {
      if (err instanceof ScanFailedError) return `The scan of ${name} from ${when} failed on the service${err.reason ? `: ${err.reason}` : ''}.`;
      return `The scan of ${name} from ${when}: ${errorMessage(err)}`;
    }
  }

  /**
   * Stops expecting a scan still on the service (its findings will not be read): that scan
   * only, every earlier finding stays. Asks which when there are several.
   */
  async ignoreScan(scanId?: unknown): Promise<boolean> {
    const pending = this.store.pendingScans();
    let id = typeof scanId === 'string' ? scanId : undefined;
    if (!id) {
      if (!pending.length) {
        void this.notifier.info('No scan is waiting on the service.');
        return false;
      }
      const now = new Date();
      const picked = pending.length === 1 ? { id: pending[0].scan.scanId } : await vscode.window.showQuickPick(
        pending.map((p) => ({
          label: `${vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(p.folderUri))?.name ?? p.folderUri}: the scan of ${clockTime(p.scan.scannedAt, now)}`,
          description: p.scan.partialFiles ? plural(p.scan.partialFiles.length, 'file') : 'whole folder',
          detail: p.scan.waiting ? 'waited for now' : 'not waited for',
          id: p.scan.scanId,
        })),
        { title: 'Ignore a scan still on the service', placeHolder: 'Its findings will not be read; the findings shown stay' },
      );
      id = picked?.id;
    }
    if (!id) return false;
    if (this.watching.has(id)) {
      // Waited for now: the wait ends first (it records the stop), then the scan is forgotten.
      this.cancel();
      await this.running?.catch(() => undefined);
    }
    return this.store.forgetScan(id);
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
      this.session.log.warn(`Could not tidy the archived file lists: ${errorMessage(err)}`);
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
    const running = fn();
    this.running = running;
    try {
      return await running;
    } finally {
      this.busy = false;
      this.running = undefined;
    }
  }

  /** `quiet`: a background scan (scan on save): progress in the status bar only, and only the log hears how it ended. */
  /** `announce: false`: the caller says how it ended (a push check's verdict), not the usual message. */
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
          if (o.quiet) this.logOutcomes(folders);
          else if (o.announce !== false) this.announce(folders);
          return { folders, cancelled: false };
        } catch (err) {
          const ended = err instanceof FoldersEnded ? err : new FoldersEnded([], [{ folder: run.folder, error: err }]);
          if (o.quiet) {
            this.logOutcomes(ended.done);
            return { folders: ended.done, ...this.logEnded(ended.failures, run) };
          }
          // Folders that finished are told as usual; each way the others ended, once.
          if (ended.done.length) this.announce(ended.done);
          return { folders: ended.done, ...(await this.reportEnded(ended.failures, run)) };
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

  /**
   * What is said when folders of a run did not finish: every folder whose scan goes on on
   * the service in one message (Ignore This Scan forgets them all), one "cancelled", and
   * each other failure with its folder. The findings shown stay in every case.
   */
  private async reportEnded(failures: FolderFailure[], run: Run): Promise<Omit<ScanSummary, 'folders'>> {
    const summary: Omit<ScanSummary, 'folders'> = { cancelled: false };
    const continuing = failures.filter((f): f is FolderFailure & { error: CancelledAfterUploadError } => f.error instanceof CancelledAfterUploadError);
    if (continuing.length) {
      // The service has the archives and scans them whatever we do now; nothing they found is shown yet.
      const names = continuing.map((f) => f.folder ?? 'the workspace');
      const ids = continuing.map((f) => f.error.scanId);
      const shown = continuing.length === 1 ? this.shownText(continuing[0].folder) : 'The findings shown are still those of each folder\'s last completed scan.';
      void this.notifier.info(
        `Stopped waiting for the scan${names.length > 1 ? 's' : ''} of ${listWords(names)}: the service goes on scanning ${names.length > 1 ? 'them' : 'it'}. ${shown} Refresh Results shows ${names.length > 1 ? 'their' : 'its'} findings once ${names.length > 1 ? 'they are' : 'it is'} done.`,
        { title: 'Refresh Results', run: () => this.commands.execute('codeScanner.refreshResults') },
        { title: names.length > 1 ? 'Ignore These Scans' : 'Ignore This Scan', run: () => { for (const id of ids) this.store.forgetScan(id); } },
      );
      summary.cancelled = true;
      summary.continuesOnService = ids[0];
    }
    let saidCancelled = continuing.length > 0;
    // Folders that failed the same way (the network, the service) hear of it once.
    const said = new Set<string>();
    for (const { folder, error: err } of failures) {
      if (err instanceof CancelledAfterUploadError) continue;
      if (err instanceof ScanFailedError) {
        void this.notifier.error(`The scan of ${folder ?? 'the workspace'} failed on the service${err.reason ? `: ${err.reason}` : ' (it gave no reason)'}. ${this.shownText(folder)}`);
        summary.error ??= { kind: 'scan-failed', message: err.message };
      } else if (err instanceof ScanStoppedError) {
        void this.notifier.warn(`${folder ? `${folder}: ` : ''}${err.message} ${this.shownText(folder)}`,
          { title: 'Refresh Results', run: () => this.commands.execute('codeScanner.refreshResults') });
        summary.continuesOnService ??= err.scanId;
        summary.error ??= { kind: err.why, message: err.message };
      } else if (err instanceof UploadInterruptedError && err.cancelled && err.lastChunkInFlight) {
        void this.notifier.info(`Cancelled while the last part of the upload${folder ? ` of ${folder}` : ''} was being sent: the service may have received it all and scan it. Scan again later to see current results.`);
        summary.cancelled = true;
      } else if (isCancellation(err, run.abort.signal)) {
        if (!saidCancelled) void this.notifier.info(`Scan cancelled. ${this.shownText(folder)}`);
        saidCancelled = true;
        summary.cancelled = true;
      } else if (err instanceof UploadInterruptedError) {
        void this.notifier.warn(err.message, { title: 'Resume Upload', run: () => this.commands.execute('codeScanner.resumeUpload') });
        summary.error ??= { kind: 'interrupted', message: err.message };
      } else {
        if (!said.has(errorMessage(err))) await this.session.reportError(err);
        said.add(errorMessage(err));
        summary.error ??= { kind: isServiceError(err) ? err.kind : 'error', message: errorMessage(err) };
      }
    }
    return summary;
  }

  /** A background scan's outcome, for the log only. */
  private logOutcomes(folders: FolderOutcome[]): void {
    for (const f of folders) {
      const found = f.scanId ? `${f.issues ? plural(f.issues, 'issue') : 'no issues'}${f.fresh ? `, ${f.fresh} new` : ''} in ${plural(f.files, 'saved file')}` : '';
      this.session.log.info(`${f.folder}: scan on save ${[found, f.note].filter(Boolean).join('; ')}.`);
    }
  }

  /** How a background scan ended when it did not finish, for the log and the caller (which shows it in the status bar). */
  private logEnded(failures: FolderFailure[], run: Run): Omit<ScanSummary, 'folders'> {
    const summary: Omit<ScanSummary, 'folders'> = { cancelled: false };
    for (const { folder, error: err } of failures) {
      this.session.log.warn(`${folder ?? 'the workspace'}: scan on save did not finish: ${errorMessage(err)}`);
      if (isCancellation(err, run.abort.signal) || err instanceof CancelledAfterUploadError) {
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

  /**
   * One message when a scan ends: how many issues in each folder, notes, and the files left
   * out by every reason (the same reasons Upload Preview lists), with Show Skipped Files.
   * A notification, so a screen reader hears it.
   */
  private announce(folders: FolderOutcome[]): void {
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
    if (!sentences.length) return;
    const actions = [
      ...(scanned.some((f) => f.issues) ? [{ title: 'Show Issues', run: () => this.commands.execute('codeScanner.showIssues') }] : []),
      ...(leftOut.length ? [{ title: 'Show Skipped Files', run: () => showSkipped(leftOut) }] : []),
    ];
    void this.notifier.info(sentences.join(' '), ...actions);
  }

  override dispose(): void {
    this.disposing = true;
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

/** The scan commands (scanning, cancel, resume, refresh, ignore, clear). */
export function scanFeature({ scans }: Ctx) {
  return {
    commands: {
      'codeScanner.scanWorkspace': (arg) => scans.scan('workspace', arg),
      'codeScanner.scanOpenFiles': (arg) => scans.scan('openFiles', arg),
      'codeScanner.scanChangedFiles': (arg) => scans.scan('changedFiles', arg),
      'codeScanner.cancelScan': () => scans.cancel(),
      'codeScanner.showScanProgress': () => scans.showProgress(),
      'codeScanner.resumeUpload': (arg) => scans.resume(arg),
      'codeScanner.refreshResults': () => scans.refresh(),
      'codeScanner.clearResults': (arg) => scans.clearResults(plainObjectArg<{ confirmed: boolean }>(arg)?.confirmed === true),
      'codeScanner.ignoreScan': (arg) => scans.ignoreScan(plainObjectArg<{ scanId: string }>(arg)?.scanId),
    } satisfies SomeCommandHandlers,
  };
}

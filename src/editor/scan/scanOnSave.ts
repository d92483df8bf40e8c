// Scan on save (codeScanner.scanOnSave = savedFiles): each saved file of a folder that may
// be scanned joins the next partial scan (src/core/scan/saveQueue.ts: a quiet moment,
// one scan at a time, a least interval, paused on the service's request limit). Only in
// a trusted workspace, when signed in, and once the first-scan question was answered;
// the files the selection leaves out (credentials, ignored, too big) are never sent.
// The status bar shows what it does; no notification per save.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import * as vscode from 'vscode';
import { SaveQueue, type SaveQueueState, type SaveScanResult } from '../../core/scan/saveQueue';
import { prepareGitHelperFor } from '../../core/workspace/git';
import type { Ctx } from '../context';
import type { ScanController } from './scanController';
import { DisposableObject } from '../disposable';
import { relativeTo } from '../workspaceFiles';
import { clampSetting } from '../settingBounds';
import { serviceHost } from '../settings';
import { displayLanguage, l10n, plural } from '../../core/text/l10n';

/** After the last save, the scan waits this long for more. */
const QUIET_MS = 1500;

export type ScanOnSaveMode = 'off' | 'savedFiles';

/** A scan of saved files that ended: its files (folder URI -> relative paths), when it started, how it went. */
export interface SavedFilesScan {
  files: ReadonlyMap<string, ReadonlySet<string>>;
  startedAt: number;
  result: SaveScanResult;
}

export function scanOnSaveMode(folder?: vscode.WorkspaceFolder): ScanOnSaveMode {
  return vscode.workspace.getConfiguration('codeScanner', folder).get<string>('scanOnSave') === 'savedFiles' ? 'savedFiles' : 'off';
}

function minIntervalMs(): number {
  return clampSetting('scanOnSaveMinInterval', vscode.workspace.getConfiguration('codeScanner').get('scanOnSaveMinInterval')) * 1000;
}

/** The person's answer for a repository whose own settings turn scan on save on. */
const REPOSITORY_ON_KEY = STATE_KEYS.repositoryScanOnSave.key;
const ALLOW = () => l10n.t('Allow Scan on Save');
const DECLINE = () => l10n.t('Not in This Workspace');

/** Whether scan on save is on only because the repository's (or workspace file's) settings say so. */
export function onByRepository(folder: vscode.WorkspaceFolder): boolean {
  const i = vscode.workspace.getConfiguration('codeScanner', folder).inspect<string>('scanOnSave');
  return (i?.workspaceFolderValue ?? i?.workspaceValue) === 'savedFiles' && i?.globalValue !== 'savedFiles';
}

/** Whether the editor saves by itself (files.autoSave other than off): then only saves the person makes are scanned. */
function autoSaving(uri: vscode.Uri): boolean {
  return vscode.workspace.getConfiguration('files', uri).get<string>('autoSave', 'off') !== 'off';
}

export class ScanOnSave extends DisposableObject {
  private queue: SaveQueue;
  private readonly changed = this.own(new vscode.EventEmitter<SaveQueueState>());
  readonly onDidChangeState = this.changed.event;
  private readonly scanned = this.own(new vscode.EventEmitter<SavedFilesScan>());
  /** Each scan of saved files as it ends (not one that waits for another scan to finish). */
  readonly onDidScanFiles = this.scanned.event;
  /** Why the last save was not scanned (undefined: it was, or nothing to say). */
  private heldWhy: string | undefined;
  /** Why each document is being saved (onWillSave), read once it is saved. */
  private readonly reasons = new Map<string, vscode.TextDocumentSaveReason>();
  private asking: Promise<boolean> | undefined;

  constructor(private readonly ctx: Pick<Ctx, 'session' | 'consent' | 'log' | 'notifier'> & { scans: ScanController } & { state: vscode.Memento }) {
    super();
    this.queue = this.newQueue();
    this.own({ dispose: () => this.queue.dispose() });
    this.own(vscode.workspace.onDidSaveTextDocument((doc) => void this.saved(doc)));
    // Why a document is saved matters only with scan on save and auto save both on: only then
    // does every save wait for this listener (VS Code waits for will-save listeners).
    this.followSaveReasons();
    this.own({ dispose: () => this.reasonListener?.dispose() });
    this.own(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('codeScanner.scanOnSaveMinInterval')) {
        this.queue.dispose();
        this.queue = this.newQueue();
        this.changed.fire(this.queue.state);
      }
      if (e.affectsConfiguration('codeScanner.scanOnSave') && !vscode.workspace.workspaceFolders?.some((f) => scanOnSaveMode(f) !== 'off')) {
        this.queue.clear();
        this.hold(undefined);
      }
      if (e.affectsConfiguration('codeScanner.scanOnSave') || e.affectsConfiguration('files.autoSave')) this.followSaveReasons();
    }));
    // What held a save may be over: the next save says again if not.
    this.own(ctx.session.onDidChangeSession(() => this.hold(undefined)));
    this.own(vscode.workspace.onDidGrantWorkspaceTrust(() => this.hold(undefined)));
  }

  private reasonListener: vscode.Disposable | undefined;

  private followSaveReasons(): void {
    const needed = (vscode.workspace.workspaceFolders ?? []).some((f) => scanOnSaveMode(f) !== 'off' && autoSaving(f.uri));
    if (needed && !this.reasonListener) this.reasonListener = vscode.workspace.onWillSaveTextDocument((e) => this.reasons.set(e.document.uri.toString(), e.reason));
    else if (!needed && this.reasonListener) {
      this.reasonListener.dispose();
      this.reasonListener = undefined;
      this.reasons.clear();
    }
  }

  private newQueue(): SaveQueue {
    return new SaveQueue({
      quietMs: QUIET_MS,
      minIntervalMs: minIntervalMs(),
      run: async (files) => {
        const startedAt = Date.now();
        const result = await this.ctx.scans.scanSaved(files);
        this.scanned.fire({ files, startedAt, result });
        return result;
      },
      onState: (s) => this.changed.fire(s),
    });
  }

  /**
   * A saved file whose applied fix the service is asked to confirm (FixChecks): it joins the
   * next scan of saved files whether scan on save is on or not, under the same rules (a
   * trusted workspace, signed in, the first-scan question answered; what the selection leaves
   * out never sent). Undefined when queued, else why it cannot be.
   */
  queueCheck(doc: vscode.TextDocument): string | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (doc.uri.scheme !== 'file' || !folder || folder.uri.scheme !== 'file') return l10n.t('the file is not in a folder of the workspace on this machine');
    if (!vscode.workspace.isTrusted) return l10n.t('the workspace is in Restricted Mode, and scanning uploads files');
    if (!this.ctx.session.isSignedIn()) return l10n.t('you are not signed in');
    if (this.ctx.consent.needed()) return l10n.t('the first scan of this workspace has not been allowed yet (run Scan Workspace once)');
    this.queue.add(folder.uri.toString(), relativeTo(folder.uri, doc.uri));
    void prepareGitHelperFor(folder.uri.fsPath);
    return undefined;
  }

  get state(): SaveQueueState {
    return this.queue.state;
  }

  /** Why the last save was not scanned, for the status bar; undefined when there is nothing to say. */
  get held(): string | undefined {
    return this.heldWhy;
  }

  private hold(why: string | undefined): void {
    if (why === this.heldWhy) return;
    this.heldWhy = why;
    this.changed.fire(this.queue.state);
  }

  private async saved(doc: vscode.TextDocument): Promise<void> {
    const reason = this.reasons.get(doc.uri.toString());
    this.reasons.delete(doc.uri.toString());
    if (doc.uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder || folder.uri.scheme !== 'file' || scanOnSaveMode(folder) === 'off') return;
    // With auto save on, the editor saves work in progress every few seconds: only a save
    // the person makes (Ctrl+S, File: Save) is a moment worth scanning.
    if (autoSaving(doc.uri) && reason !== undefined && reason !== vscode.TextDocumentSaveReason.Manual) return;
    // Nothing is queued that could not be sent: no trust, no sign-in, or no answer yet to
    // the first-scan question (a save never asks it). The status bar says why.
    if (!vscode.workspace.isTrusted) return this.hold(l10n.t('the workspace is in Restricted Mode, and scanning uploads files'));
    if (!this.ctx.session.isSignedIn()) return this.hold(l10n.t('you are not signed in'));
    if (this.ctx.consent.needed()) return this.hold(l10n.t('the first scan of this workspace has not been allowed yet (run Scan Workspace once)'));
    if (onByRepository(folder) && !(await this.repositoryAllowed(folder))) return;
    this.hold(undefined);
    this.queue.add(folder.uri.toString(), relativeTo(folder.uri, doc.uri));
    // The scan waits for a quiet moment: time enough for git's helper process (on Linux) to
    // be ready, so even the first save of a session, or after the helper's idle time, runs
    // its git from it rather than by forks of the extension host. A folder git cannot run in
    // needs no helper.
    void prepareGitHelperFor(folder.uri.fsPath);
  }

  /**
   * A repository's own settings turned scan on save on: the person is asked once, before its
   * first upload, and the answer is kept for the workspace. Declined: saves are not scanned.
   */
  private async repositoryAllowed(folder: vscode.WorkspaceFolder): Promise<boolean> {
    const kept = this.ctx.state.get<string>(REPOSITORY_ON_KEY);
    if (kept === 'allowed') return true;
    if (kept === 'declined') return false;
    this.hold(l10n.t('waiting for your answer: this repository\'s settings turn scan on save on'));
    // A notification, not a dialog: a save is no moment to block the editor. The status bar
    // says a save waits for it until it is answered.
    this.asking ??= this.ctx.notifier.warn(
      l10n.t('This repository\'s settings (its .vscode/settings.json, not yours) turn on scan on save: every file you save in {0} would be uploaded to {1} for a scan. Allow it for this workspace?', folder.name, serviceHost()),
      ALLOW(), DECLINE(),
    ).then(async (answer) => {
      if (answer === ALLOW() || answer === DECLINE()) await this.ctx.state.update(REPOSITORY_ON_KEY, answer === ALLOW() ? 'allowed' : 'declined');
      this.hold(answer === ALLOW() ? undefined : answer === DECLINE() ? undefined : l10n.t('this repository\'s scan on save was not allowed yet (save again to be asked)'));
      return answer === ALLOW();
    }).finally(() => { this.asking = undefined; });
    return this.asking;
  }
}

/**
 * The status bar's words for scans of saved files (undefined: nothing to say). `checksOnly`:
 * scan on save is off, so what waits is the check of applied fixes (FixChecks), said as such.
 */
export function scanOnSaveText(s: SaveQueueState, now = Date.now(), checksOnly = false): { short: string; long: string } | undefined {
  const files = (n: number) => plural(n, l10n.t('{0} saved file'), l10n.t('{0} saved files'));
  switch (s.kind) {
    case 'idle': return undefined;
    case 'waiting': {
      const when = s.at - now > 2000 ? l10n.t(' in {0} s', Math.round((s.at - now) / 1000)) : l10n.t(' shortly');
      return { short: `$(clock) ${files(s.files)}`, long: checksOnly ? l10n.t('Checking applied fixes: {0} will be scanned{1}.', files(s.files), when) : l10n.t('Scan on save: {0} will be scanned{1}.', files(s.files), when) };
    }
    case 'scanning': return { short: '', long: checksOnly ? l10n.t('Checking applied fixes: scanning {0}.', files(s.files)) : l10n.t('Scan on save: scanning {0}.', files(s.files)) };
    case 'paused': {
      const at = new Date(s.until).toLocaleTimeString(displayLanguage());
      return { short: l10n.t('$(debug-pause) paused: request limit'), long: checksOnly ? l10n.t('Checking applied fixes is paused: the service\'s request limit was reached. {0} will be scanned at {1}.', files(s.files), at) : l10n.t('Scan on save is paused: the service\'s request limit was reached. {0} will be scanned at {1}.', files(s.files), at) };
    }
    case 'failed': {
      const next = s.files ? l10n.t(' with {0}', files(s.files)) : '';
      return { short: checksOnly ? l10n.t('$(error) fix check failed') : l10n.t('$(error) scan on save failed'), long: checksOnly ? l10n.t('Checking applied fixes failed: {0}. The findings shown are unchanged; the next save tries again{1}.', s.message, next) : l10n.t('Scan on save failed: {0}. The findings shown are unchanged; the next save tries again{1}.', s.message, next) };
    }
  }
}

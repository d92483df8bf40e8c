// Scan on save (codeScanner.scanOnSave = savedFiles): each saved file of a folder that may
// be scanned joins the next partial scan (src/core/scan/saveQueue.ts: a quiet moment,
// one scan at a time, a least interval, paused on the service's request limit). Only in
// a trusted workspace, when signed in, and once the first-scan question was answered;
// the files the selection leaves out (credentials, ignored, too big) are never sent.
// The status bar shows what it does; no notification per save.
import * as vscode from 'vscode';
import { SaveQueue, type SaveQueueState } from '../../core/scan/saveQueue';
import { prepareGitHelperFor } from '../../core/workspace/git';
import type { Ctx } from '../context';
import { DisposableObject } from '../disposable';
import { relativeTo } from '../results/resultsStore';
import { clampSetting } from '../settingBounds';

/** After the last save, the scan waits this long for more. */
const QUIET_MS = 1500;

export type ScanOnSaveMode = 'off' | 'savedFiles';

export function scanOnSaveMode(folder?: vscode.WorkspaceFolder): ScanOnSaveMode {
  return vscode.workspace.getConfiguration('codeScanner', folder).get<string>('scanOnSave') === 'savedFiles' ? 'savedFiles' : 'off';
}

function minIntervalMs(): number {
  return clampSetting('scanOnSaveMinInterval', vscode.workspace.getConfiguration('codeScanner').get('scanOnSaveMinInterval')) * 1000;
}

export class ScanOnSave extends DisposableObject {
  private queue: SaveQueue;
  private readonly changed = this.own(new vscode.EventEmitter<SaveQueueState>());
  readonly onDidChangeState = this.changed.event;

  constructor(private readonly ctx: Pick<Ctx, 'scans' | 'session' | 'consent' | 'log'>) {
    super();
    this.queue = this.newQueue();
    this.own({ dispose: () => this.queue.dispose() });
    this.own(vscode.workspace.onDidSaveTextDocument((doc) => this.saved(doc)));
    this.own(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('codeScanner.scanOnSaveMinInterval')) {
        this.queue.dispose();
        this.queue = this.newQueue();
        this.changed.fire(this.queue.state);
      }
      if (e.affectsConfiguration('codeScanner.scanOnSave') && !vscode.workspace.workspaceFolders?.some((f) => scanOnSaveMode(f) !== 'off')) this.queue.clear();
    }));
  }

  private newQueue(): SaveQueue {
    return new SaveQueue({
      quietMs: QUIET_MS,
      minIntervalMs: minIntervalMs(),
      run: (files) => this.ctx.scans.scanSaved(files),
      onState: (s) => this.changed.fire(s),
    });
  }

  get state(): SaveQueueState {
    return this.queue.state;
  }

  private saved(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder || folder.uri.scheme !== 'file' || scanOnSaveMode(folder) === 'off') return;
    // Nothing is queued that could not be sent: no trust, no sign-in, or no answer yet to
    // the first-scan question (a save never asks it).
    if (!vscode.workspace.isTrusted || !this.ctx.session.isSignedIn() || this.ctx.consent.needed()) return;
    this.queue.add(folder.uri.toString(), relativeTo(folder.uri, doc.uri));
    // The scan waits for a quiet moment: time enough for git's helper process (on Linux) to
    // be ready, so even the first save of a session, or after the helper's idle time, runs
    // its git from it rather than by forks of the extension host. A folder git cannot run in
    // needs no helper.
    void prepareGitHelperFor(folder.uri.fsPath);
  }
}

/** The status bar's words for scan on save (undefined: nothing to say). */
export function scanOnSaveText(s: SaveQueueState, now = Date.now()): { short: string; long: string } | undefined {
  const files = (n: number) => `${n} saved file${n === 1 ? '' : 's'}`;
  switch (s.kind) {
    case 'idle': return undefined;
    case 'waiting': return { short: `$(clock) ${files(s.files)}`, long: `Scan on save: ${files(s.files)} will be scanned${s.at - now > 2000 ? ` in ${Math.ceil((s.at - now) / 1000)} s` : ' shortly'}.` };
    case 'scanning': return { short: '', long: `Scan on save: scanning ${files(s.files)}.` };
    case 'paused': return { short: '$(debug-pause) paused: request limit', long: `Scan on save is paused: the service's request limit was reached. ${files(s.files)} will be scanned at ${new Date(s.until).toLocaleTimeString()}.` };
    case 'failed': return { short: '$(error) scan on save failed', long: `Scan on save failed: ${s.message}. The findings shown are unchanged; the next save tries again${s.files ? ` with ${files(s.files)}` : ''}.` };
  }
}

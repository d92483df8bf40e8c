// After a fix is applied and its file saved, the service is asked again (codeScanner.verifyFixes):
// the file joins the next scan of saved files (one batch across Apply All Fixes and several
// saves, under the rules of every scan), and each fix is judged by what that scan reports
// (core/results/fixChecks.ts). The outcome is said in the tree, the hover, the details page
// and one message per batch. A scan that did not complete, did not read every list, did not
// take the file, or a file that changed on disk meanwhile leaves the outcome unknown: the
// fixed finding stays as it was, and nothing is called verified that was not checked.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { undoFixText, type LineEdit } from '../../core/fixes';
import type { StoredIssue } from '../../core/issues';
import { digest, holdsFix } from '../../core/results';
import { judgeFile, priorKeys, type FixCheck } from '../../core/results/fixChecks';
import { fixCheckSummary } from '../../core/results/fixCheckWords';
import { skipReasonLabel } from '../../core/workspace/selectFiles';
import { l10n, listWords } from '../../core/text/l10n';
import { listName } from '../../core/issues';
import { oneLine } from '../../core/text/untrusted';
import { DisposableObject } from '../disposable';
import type { Notifier } from '../notifier';
import type { ResultsStore } from '../results/resultsStore';
import type { SavedFilesScan, ScanOnSave } from '../scan/scanOnSave';
import { relativeTo } from '../workspaceFiles';

export type VerifyFixes = 'afterSave' | 'off';

export function verifyFixesMode(uri?: vscode.Uri): VerifyFixes {
  return vscode.workspace.getConfiguration('codeScanner', uri).get<string>('verifyFixes') === 'off' ? 'off' : 'afterSave';
}

/** A fix followed from its apply to the service's answer. */
export interface TrackedFix extends FixCheck {
  uri: vscode.Uri;
  /** The file's text before the fix, and the fix's own edits of it (for Undo Fix after a save). */
  before: string;
  edits: LineEdit[];
  /** When the file was last saved with the fix, and its text then. */
  savedAt?: number;
  savedDigest?: string;
}

/** The fixes applied to one file by one edit. */
export interface AppliedInFile {
  document: vscode.TextDocument;
  before: string;
  fixes: { folderUri: string; issue: StoredIssue; edits: LineEdit[]; blocks: string[][] }[];
  /** The file's findings in view before the edit. */
  fileIssues: readonly StoredIssue[];
}

/** Fixes followed at once; the oldest judged ones go first. */
const MAX_TRACKED = 200;

export class FixChecks extends DisposableObject {
  private readonly checks: TrackedFix[] = [];
  private next = 1;
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly ctx: { store: ResultsStore; notifier: Notifier; saves: ScanOnSave; log: vscode.LogOutputChannel }) {
    super();
    this.own(vscode.workspace.onDidSaveTextDocument((doc) => this.saved(doc)));
    this.own(ctx.saves.onDidScanFiles((e) => void this.scanned(e).catch((err) => ctx.log.warn(`Checking applied fixes failed: ${err instanceof Error ? err.message : String(err)}`))));
  }

  /** Follows the fixes an edit applied; each is checked once its file is saved. */
  track(files: readonly AppliedInFile[]): TrackedFix[] {
    this.remove((c) => c.state.kind === 'applied' && !this.stillFixed(c));
    const made: TrackedFix[] = [];
    for (const f of files) {
      const folder = vscode.workspace.getWorkspaceFolder(f.document.uri);
      if (!folder) continue;
      const path = relativeTo(folder.uri, f.document.uri);
      const fixedIds = new Set(f.fixes.map((x) => x.issue.id));
      const prior = priorKeys(f.fileIssues, fixedIds);
      for (const x of f.fixes) {
        // Applied again (after an undo): the newer apply is the one followed.
        this.remove((c) => c.folderUri === x.folderUri && c.fixed.id === x.issue.id);
        made.push({ id: this.next++, folderUri: x.folderUri, path, uri: f.document.uri, fixed: x.issue, blocks: x.blocks, prior, before: f.before, edits: x.edits, state: { kind: 'applied' } });
      }
    }
    this.checks.push(...made);
    while (this.checks.length > MAX_TRACKED) this.checks.splice(Math.max(0, this.checks.findIndex((c) => c.state.kind !== 'verifying')), 1);
    if (made.length) this.changed.fire();
    return made;
  }

  /** The fixes followed, in the order they were applied (of one folder, when given). */
  all(folderUri?: string): readonly TrackedFix[] {
    return folderUri ? this.checks.filter((c) => c.folderUri === folderUri) : this.checks;
  }

  get(id: number): TrackedFix | undefined {
    return this.checks.find((c) => c.id === id);
  }

  /** What a check says of a finding in view: the fixed one reported again, or one a fix introduced. */
  noteFor(folderUri: string, issueId: string): { check: TrackedFix; role: 'again' | 'introduced' } | undefined {
    for (const check of this.checks) {
      if (check.folderUri !== folderUri) continue;
      if (check.state.kind === 'notRemoved' && check.state.issueId === issueId) return { check, role: 'again' };
      if (check.state.kind === 'introduced' && check.state.issueIds.includes(issueId)) return { check, role: 'introduced' };
    }
    return undefined;
  }

  /** The check of a fixed finding, by the finding's key when its fix was applied. */
  ofFixed(folderUri: string, issueId: string): TrackedFix | undefined {
    return [...this.checks].reverse().find((c) => c.folderUri === folderUri && c.fixed.id === issueId);
  }

  /** Forgets the judged checks (of one folder): the tree's Clear. Those still waiting stay. */
  clear(folderUri?: string): void {
    this.remove((c) => (!folderUri || c.folderUri === folderUri) && c.state.kind !== 'verifying' && c.state.kind !== 'applied');
  }

  /** Resolves once every check of `ids` is judged or unknown, or after `ms` (then as they are). */
  settled(ids: readonly number[], ms: number, token?: { onCancellationRequested: vscode.Event<unknown> }): Promise<TrackedFix[]> {
    const now = () => ids.map((id) => this.get(id)).filter((c): c is TrackedFix => !!c);
    const done = () => now().every((c) => c.state.kind !== 'verifying' && c.state.kind !== 'applied');
    if (done()) return Promise.resolve(now());
    return new Promise((resolve) => {
      const finish = () => { clearTimeout(timer); sub.dispose(); cancel?.dispose(); resolve(now()); };
      const timer = setTimeout(finish, ms);
      const sub = this.onDidChange(() => { if (done()) finish(); });
      const cancel = token?.onCancellationRequested(finish);
    });
  }

  /**
   * Undo Fix after a save: the fix's own change taken back in the file as it is now (the rest
   * of the file as it is). Where its lines are no longer there, the file's text from before
   * the fix is offered instead, said to take later edits back too (Undo restores them).
   */
  async undo(id: number): Promise<boolean> {
    const check = this.get(id);
    if (!check) {
      void this.ctx.notifier.warn(l10n.t('That fix is no longer followed. Use Undo in its file, or rescan.'));
      return false;
    }
    const document = await vscode.workspace.openTextDocument(check.uri);
    const text = document.getText();
    let next = undoFixText(text, check.before, check.edits);
    if (next === undefined) {
      const REVERT = l10n.t('Revert to Before the Fix');
      const answer = await this.ctx.notifier.choose(
        l10n.t('The fix\'s lines in {0} were changed since it was applied, so it cannot be taken back alone.', check.path),
        l10n.t('Revert to Before the Fix puts back the whole file as it was before the fix, taking back the later changes too. The file is edited, not saved, and Undo brings the changes back.'),
        [REVERT],
      );
      if (answer !== REVERT) return false;
      next = check.before;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(text.length)), next);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void this.ctx.notifier.error(l10n.t('The editor refused the change; nothing was modified.'));
      return false;
    }
    await vscode.window.showTextDocument(document, { preview: false });
    this.remove((c) => c === check);
    void this.ctx.notifier.info(l10n.t('Took back the fix for {0} in {1}. The file is edited, not saved.', oneLine(check.fixed.classificationName, 80), check.path));
    return true;
  }

  private remove(which: (c: TrackedFix) => boolean): void {
    const before = this.checks.length;
    for (let i = this.checks.length - 1; i >= 0; i--) if (which(this.checks[i]!)) this.checks.splice(i, 1);
    if (this.checks.length !== before) this.changed.fire();
  }

  /** Whether the check's finding is still held as fixed: a scan of its file since, or an Undo, ends it. */
  private stillFixed(c: TrackedFix): boolean {
    return this.ctx.store.isFixed({ folderUri: c.folderUri, issueId: c.fixed.id });
  }

  private saved(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    // A fix applied earlier whose finding came back, or that a scan of the file has spoken for
    // since, is no longer to be checked (a save would otherwise judge it with the new one).
    this.remove((c) => c.uri.toString() === key && c.state.kind === 'applied' && !this.stillFixed(c));
    const mine = this.checks.filter((c) => c.uri.toString() === key && (c.state.kind === 'applied' || c.state.kind === 'verifying' || (c.state.kind === 'unknown' && this.stillFixed(c))));
    if (!mine.length) return;
    const text = doc.getText();
    // A fix taken back before the save has nothing to check.
    this.remove((c) => mine.includes(c) && !holdsFix(text, c.blocks));
    const held = mine.filter((c) => this.checks.includes(c));
    if (!held.length || verifyFixesMode(doc.uri) === 'off') return;
    const why = this.ctx.saves.queueCheck(doc);
    const at = Date.now();
    for (const c of held) {
      c.savedAt = at;
      c.savedDigest = digest(text);
      c.state = why ? { kind: 'unknown', at: new Date(at).toISOString(), reason: why } : { kind: 'verifying' };
    }
    this.changed.fire();
    if (why) this.say(held);
  }

  private async scanned(e: SavedFilesScan): Promise<void> {
    // Still queued (another scan ran, or the request limit paused it): the checks wait on.
    if (e.result.kind === 'busy' || e.result.kind === 'limited') return;
    const waiting = this.checks.filter((c) => c.state.kind === 'verifying' && e.files.get(c.folderUri)?.has(c.path) && (c.savedAt ?? 0) <= e.startedAt);
    if (!waiting.length) return;
    const at = new Date().toISOString();
    const byFile = new Map<string, TrackedFix[]>();
    for (const c of waiting) byFile.set(c.uri.toString(), [...(byFile.get(c.uri.toString()) ?? []), c]);
    for (const group of byFile.values()) {
      const unknown = (reason: string) => { for (const c of group) c.state = { kind: 'unknown', at, reason }; };
      const why = this.failure(e, group[0]!);
      if (why) {
        unknown(why);
        continue;
      }
      // What the scan was given: the file as saved. Changed on disk since, it cannot be told.
      const text = await readFile(group[0]!.uri.fsPath, 'utf8').catch(() => undefined);
      if (text === undefined || digest(text) !== group[0]!.savedDigest) {
        unknown(l10n.t('the file changed on disk while it was being checked'));
        continue;
      }
      // The scan speaks for a file it took: then its fixed findings are no longer held as fixed.
      if (group.some((c) => this.ctx.store.isFixed({ folderUri: c.folderUri, issueId: c.fixed.id }))) {
        unknown(l10n.t('the scan did not take the file'));
        continue;
      }
      const scanned = this.ctx.store.forFile(group[0]!.uri).map((l) => l.issue);
      const judged = judgeFile(group, text, scanned, at);
      for (const c of group) {
        const outcome = judged.get(c.id);
        if (outcome) c.state = outcome;
        else this.remove((x) => x === c);
      }
    }
    this.changed.fire();
    this.say(waiting.filter((c) => this.checks.includes(c)));
  }

  /** Why a scan of saved files did not judge a file's fixes; undefined when it can. */
  private failure(e: SavedFilesScan, c: TrackedFix): string | undefined {
    if (e.result.kind === 'failed') return e.result.message;
    if (e.result.kind !== 'done') return undefined;
    const s = e.result.summary;
    if (!s) return l10n.t('the scan did not run');
    if (s.cancelled) return l10n.t('the scan was cancelled');
    if (s.error) return s.error.message;
    const name = vscode.workspace.getWorkspaceFolder(c.uri)?.name;
    const f = s.folders.find((x) => x.folder === name);
    if (!f?.scanId) return f?.note ?? l10n.t('the folder was not scanned');
    if (f.unreadLists?.length) return l10n.t('the {0} of the scan could not be read ({1})', listWords(f.unreadLists.map((l) => listName(l.kind))), oneLine(f.unreadLists[0]!.reason, 200).replace(/[.\s]+$/, ''));
    const out = f.leftOut?.find((x) => x.path === c.path);
    if (out) return l10n.t('the file was left out of the scan ({0})', skipReasonLabel(out.reason));
    return undefined;
  }

  /** One message for the fixes a scan judged (or could not). */
  private say(checks: readonly TrackedFix[]): void {
    if (!checks.length) return;
    const text = fixCheckSummary(checks);
    const again = checks.filter((c) => c.state.kind === 'notRemoved');
    const actions = again.length === 1 ? [{ title: l10n.t('Undo Fix'), run: () => this.undo(again[0]!.id) }] : [];
    const show = { title: l10n.t('Show Checked Fixes'), run: () => vscode.commands.executeCommand('codeScanner.issues.focus') };
    const bad = checks.some((c) => c.state.kind === 'notRemoved' || c.state.kind === 'introduced');
    const unknown = checks.some((c) => c.state.kind === 'unknown');
    void (bad ? this.ctx.notifier.warn(text, ...actions, show) : unknown ? this.ctx.notifier.warn(text, show) : this.ctx.notifier.info(text));
  }
}

// Preview and apply the service's fixes. A fixed finding leaves the view while its file
// has the fix: Undo, closing without saving, Revert File or any write of the old text bring
// it back (the store looks at the file's text), redo takes it away again. The preview is a diff editor with Apply and
// Discard in its title bar; Apply All Fixes asks one question, then applies every fix as one
// edit or opens VS Code's refactor preview to pick.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { appliedFixes, applyFix, type LineEdit } from '../../core/fixes';
import { fixBlocks } from '../../core/results';
import { oneLine } from '../../core/text/untrusted';
import { issueRefArg, type IssueRef } from '../commands/args';
import { DisposableObject } from '../disposable';
import type { Notifier } from '../notifier';
import type { LocatedIssue, ResultsStore } from '../results/resultsStore';
import { addLineEdits, composeByFile, fixTarget, type ComposedFile, type ReviewedFixesResult } from './fixTargets';
import type { AppliedInFile } from './fixChecks';
import type { StoredIssue } from '../../core/issues';
import { CONTEXT_KEYS } from '../commands/contextKeys';
import { setContext } from '../commands/manager';
import { l10n, plural } from '../../core/text/l10n';

export const PREVIEW_SCHEME = 'code-scanner-fix';

const digest = (text: string) => createHash('sha1').update(text).digest('base64');

/** The finding a preview shows (its URI carries folder and issue id). */
export function previewRef(uri: vscode.Uri): IssueRef | undefined {
  if (uri.scheme !== PREVIEW_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const folderUri = q.get('folder');
  const issueId = q.get('issue');
  return folderUri && issueId ? { folderUri, issueId } : undefined;
}

/** The finding of the fix preview in the active editor, if that is one. */
function activePreviewRef(): IssueRef | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? previewRef(input.modified) : undefined;
}

function previewUri(ref: IssueRef, located: LocatedIssue): vscode.Uri {
  return vscode.Uri.from({
    scheme: PREVIEW_SCHEME,
    path: located.uri.path,
    query: new URLSearchParams({ folder: ref.folderUri, issue: ref.issueId }).toString(),
  });
}

/** A fix made in a file, so that a redo takes its findings out again. */
interface AppliedFix {
  uri: string;
  before: string;
  after: string;
  refs: IssueRef[];
  /** Each finding's fix as its file shows it (leftFindings.fixBlocks). */
  blocks: Map<string, string[][]>;
  undone: boolean;
}

/** Each finding's fix marks, from the text its edits were made against. */
function blocksOf(before: string, editsOf: ReadonlyMap<string, readonly LineEdit[]>, ids: Iterable<string>): Map<string, string[][]> {
  return new Map([...ids].map((id) => [id, fixBlocks(before, editsOf.get(id) ?? [])]));
}

export class FixController extends DisposableObject {
  private readonly previewChanged = this.own(new vscode.EventEmitter<vscode.Uri>());
  private readonly previews = new Map<string, string>();
  private readonly applied: AppliedFix[] = [];

  constructor(private readonly store: ResultsStore, private readonly notifier: Notifier, private readonly onApplied: (files: AppliedInFile[]) => void = () => undefined) {
    super();
    this.own(vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
      onDidChange: this.previewChanged.event,
      provideTextDocumentContent: (uri) => this.previews.get(uri.toString()) ?? '',
    }));
    this.own(vscode.workspace.onDidCloseTextDocument((d) => { if (d.uri.scheme === PREVIEW_SCHEME) this.previews.delete(d.uri.toString()); }));
    this.own(vscode.workspace.onDidChangeTextDocument((e) => this.followUndo(e)));
    // Apply and Discard reach the palette and their keys while a fix preview is the active editor.
    const previewActive = () => void setContext(CONTEXT_KEYS.fixPreviewActive, !!activePreviewRef());
    this.own(vscode.window.tabGroups.onDidChangeTabs(previewActive));
    this.own(vscode.window.tabGroups.onDidChangeTabGroups(previewActive));
    previewActive();
  }

  private resolve(ref: IssueRef | undefined): LocatedIssue | undefined {
    const located = ref ? this.store.get(ref) : undefined;
    if (!located) void this.notifier.warn(l10n.t('That issue is no longer in the results. Refresh or rescan.'));
    return located;
  }

  /** "Fix with Chat" on a refusal: the chat is told why the diff did not apply. */
  private chatAction(ref: IssueRef, refusal: string) {
    return { title: l10n.t('Fix with Chat'), run: () => vscode.commands.executeCommand('codeScanner.fixWithChat', { ...ref, refusal }) };
  }

  /** Opens a diff of the file's current text against the fixed text; Apply and Discard are in its title bar. */
  async preview(arg: unknown): Promise<boolean> {
    const ref = issueRefArg(arg);
    const located = this.resolve(ref);
    if (!located || !ref) return false;
    const target = await fixTarget(located);
    const fixed = target.ok ? applyFix(located.issue.fix!.diff, target.document.getText(), located.issue.path) : undefined;
    if (!target.ok || !fixed?.ok) {
      const reason = !target.ok ? target.message : fixed!.ok ? '' : fixed!.message;
      void this.notifier.error(reason, ...(target.ok ? [this.chatAction(ref, reason)] : []));
      return false;
    }
    const uri = previewUri(ref, located);
    this.previews.set(uri.toString(), fixed.text);
    this.previewChanged.fire(uri);
    const name = located.uri.path.split('/').pop();
    const title = l10n.t('{0} ↔ Fix: {1}', name, oneLine(located.issue.fix!.explanation || located.issue.classificationName, 60));
    await vscode.commands.executeCommand('vscode.diff', located.uri, uri, title, { preview: true });
    return true;
  }

  /** Apply from the preview's title bar: applies the fix and closes the preview. */
  async applyPreviewed(arg: unknown): Promise<number> {
    // From the title bar: the preview's URI; from the palette or a key: the active preview.
    const ref = arg instanceof vscode.Uri ? previewRef(arg) : issueRefArg(arg) ?? activePreviewRef();
    if (!ref) return 0;
    const n = await this.apply([ref]);
    if (n > 0) await this.closePreviews(ref);
    return n;
  }

  async discardPreviewed(arg: unknown): Promise<void> {
    const ref = arg instanceof vscode.Uri ? previewRef(arg) : issueRefArg(arg) ?? activePreviewRef();
    if (ref) await this.closePreviews(ref);
  }

  private async closePreviews(ref: IssueRef): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
      const input = t.input;
      const r = input instanceof vscode.TabInputTextDiff ? previewRef(input.modified) : undefined;
      return r?.folderUri === ref.folderUri && r.issueId === ref.issueId;
    });
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  /**
   * Applies the fixes of the given findings, file by file: every fix of a file is applied
   * to the same current text and composed into one edit. Refusals name their reason. With
   * `reveal` (one finding's Apply Fix), the file opens at the change and one message says
   * what was fixed and how to take it back.
   */
  async apply(refs: IssueRef[], o: { reveal?: boolean } = {}): Promise<number> {
    const located = refs.map((r) => this.store.get(r)).filter((l): l is LocatedIssue => !!l);
    if (!located.length) {
      void this.notifier.warn(l10n.t('Those issues are no longer in the results. Refresh or rescan.'));
      return 0;
    }
    const { files, refused } = await composeByFile(located);
    const count = await this.applyComposed(files);
    if (count < 0) return 0;
    const reasons = refused.map((r) => `${r.finding}: ${r.reason}`);
    if (reasons.length) {
      const head = count ? plural(count, l10n.t('Applied {0} fix; {1} could not be applied. '), l10n.t('Applied {0} fixes; {1} could not be applied. '), reasons.length) : '';
      // One finding's fix that no longer applies: the chat can adapt it to the code as it is now.
      const chat = refs.length === 1 && !count ? [this.chatAction(refs[0]!, refused[0]!.reason)] : [];
      void this.notifier.error(`${head}${reasons.join(' ')}`, ...chat);
    } else if (count === 1 && o.reveal) {
      const f = files[0]!;
      const l = f.applied[0]!;
      // Where the change is, as Preview Fix shows it: a fix is never made out of sight.
      const line = f.composed.edits[0]?.startLine ?? 0;
      await vscode.window.showTextDocument(f.document, { selection: new vscode.Range(line, 0, line, 0), preview: false, viewColumn: columnOf(f.document.uri) });
      void this.notifier.info(l10n.t('Applied the fix for {0} in {1}. The file is edited, not saved; Undo (Ctrl+Z, ⌘Z on macOS) takes it back.', oneLine(l.issue.classificationName, 80), l.issue.path));
    } else if (count > 1) {
      void this.notifier.info(l10n.t('Applied {0} fixes in {1}. The files are edited, not saved; Undo takes them back.', count, plural(files.length, l10n.t('{0} file'), l10n.t('{0} files'))));
    }
    return count;
  }

  /**
   * One WorkspaceEdit for every composed file: their findings leave the view, and are kept
   * so an undo brings them back. The number applied, or -1 when the editor refused the edit.
   */
  private async applyComposed(files: ComposedFile[]): Promise<number> {
    const edit = new vscode.WorkspaceEdit();
    const made = files.map((f) => {
      addLineEdits(edit, f.document, f.composed.edits);
      const refs = f.applied.map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id }));
      return { document: f.document, before: f.before, refs, blocks: blocksOf(f.before, f.composed.editsOf, refs.map((r) => r.issueId)) };
    });
    const fileIssues = files.map((f) => this.store.forFile(f.document.uri).map((l) => l.issue));
    // Out of the store before the edit: the edit rewrites their lines, and range tracking
    // would otherwise count them as deleted code instead of fixed.
    const takenOut = made.map((m) => this.store.takeOut(m.refs, (id) => m.blocks.get(id)));
    if (made.length && !(await vscode.workspace.applyEdit(edit))) {
      for (const m of made) this.store.putBack(m.refs);
      void this.notifier.error(l10n.t('The editor refused the change; nothing was modified.'));
      return -1;
    }
    let count = 0;
    made.forEach((m, i) => {
      count += takenOut[i].length;
      this.remember({ uri: m.document.uri.toString(), before: digest(m.before), after: digest(m.document.getText()), refs: m.refs, blocks: m.blocks, undone: false });
    });
    this.onApplied(files.map((f, i) => appliedIn(f, takenOut[i]!.map((l) => l.issue), made[i]!.blocks, fileIssues[i]!)));
    return count;
  }


  /**
   * Apply All Fixes…: one question that lists what will change (fixes per file and
   * classification, and what cannot be applied with why). Its main answer applies every
   * applicable fix as one edit; "Review in Preview…" opens VS Code's refactor preview to
   * pick. `choice` answers for automation.
   */
  async applyAll(located: LocatedIssue[], choice?: 'apply' | 'review'): Promise<ReviewedFixesResult> {
    const { files, refused } = await composeByFile(located);
    const offered = files.reduce((n, f) => n + f.applied.length, 0);
    if (!offered) {
      this.reportReviewed({ offered, applied: 0, refused });
      return { offered, applied: 0, refused };
    }
    const answer = choice ?? await this.askApplyAll(files, refused);
    if (answer === 'review') return this.review(files, refused);
    if (answer !== 'apply') return { offered, applied: 0, refused };
    const applied = Math.max(0, await this.applyComposed(files));
    const result = { offered, applied, refused };
    this.reportReviewed(result);
    return result;
  }

  private async askApplyAll(files: ComposedFile[], refused: ReviewedFixesResult['refused']): Promise<'apply' | 'review' | undefined> {
    const offered = files.reduce((n, f) => n + f.applied.length, 0);
    const perFile = files.map((f) => {
      const byClass = new Map<string, number>();
      for (const l of f.applied) byClass.set(l.issue.classificationName, (byClass.get(l.issue.classificationName) ?? 0) + 1);
      const what = [...byClass].map(([name, n]) => `${oneLine(name, 60)}${n > 1 ? ` ×${n}` : ''}`).join(', ');
      return `• ${vscode.workspace.asRelativePath(f.document.uri)}: ${plural(f.applied.length, l10n.t('{0} fix'), l10n.t('{0} fixes'))} (${what})`;
    });
    const shownFiles = perFile.slice(0, 15);
    if (perFile.length > shownFiles.length) shownFiles.push(l10n.t('• …and {0} more files', perFile.length - shownFiles.length));
    const left = refused.slice(0, 8).map((r) => `• ${r.finding}: ${r.reason}`);
    if (refused.length > left.length) left.push(l10n.t('• …and {0} more', refused.length - left.length));
    const APPLY = plural(offered, l10n.t('Apply {0} Fix'), l10n.t('Apply {0} Fixes'));
    const REVIEW = l10n.t('Review in Preview…');
    const picked = await this.notifier.choose(
      l10n.t('Apply {0} in {1}?', plural(offered, l10n.t('{0} fix'), l10n.t('{0} fixes')), plural(files.length, l10n.t('{0} file'), l10n.t('{0} files'))),
      [
        ...shownFiles,
        ...(left.length ? ['', l10n.t('Not applicable, left as they are ({0}):', refused.length), ...left] : []),
        '',
        l10n.t('One edit: the files are changed, not saved, and one Undo takes every fix back. Review in Preview… shows each change to pick from.'),
      ].join('\n'),
      [APPLY, REVIEW],
    );
    return picked === APPLY ? 'apply' : picked === REVIEW ? 'review' : undefined;
  }

  /**
   * Every applicable fix of `located` in one WorkspaceEdit that VS Code's refactor preview
   * shows before anything changes: each fix its own entry (ticked, labelled with its
   * classification, so the preview can group by classification or by file), fixes that
   * cannot be applied listed with why. Only the fixes the person kept take their findings
   * out of view; the others stay.
   */
  private async review(files: ComposedFile[], refused: ReviewedFixesResult['refused']): Promise<ReviewedFixesResult> {
    const edit = new vscode.WorkspaceEdit();
    for (const f of files) {
      for (const l of f.applied) {
        // Each fix its own entry, named by its classification and line (the preview groups
        // entries of the same label under one heading and one description).
        const at = (l.issue.range?.start.line ?? l.issue.line - 1) + 1;
        const label = l10n.t('{0} ({1}), {2} line {3}', oneLine(l.issue.classificationName || l.issue.classificationId, 60), oneLine(l.issue.classificationId, 30), vscode.workspace.asRelativePath(f.document.uri), at);
        const description = oneLine(l.issue.fix!.explanation || l10n.t('Suggested fix'), 80);
        addLineEdits(edit, f.document, f.composed.editsOf.get(l.issue.id)!, { needsConfirmation: true, label, description });
      }
    }
    const offered = files.reduce((n, f) => n + f.applied.length, 0);
    // VS Code opens this preview with every entry unticked: say so, and how to take a file whole.
    void this.notifier.info(l10n.t('The preview lists each fix under its name, file and line; nothing is applied until you tick it. Tick the fixes you want, or choose Group Changes By File in its title bar and tick a file to take all of its fixes, then Apply. Discard changes nothing.'));
    // The findings stay in view while the preview is open: the person decides looking at them.
    const answered = vscode.workspace.applyEdit(edit, { isRefactoring: true });
    void listFixesByName(answered);
    const accepted = await answered;
    let applied = 0;
    if (accepted) {
      const checked: AppliedInFile[] = [];
      for (const f of files) {
        const after = f.document.getText();
        const ids = appliedFixes(f.before, after, f.composed.editsOf) ?? new Set<string>();
        const refs = f.applied.filter((l) => ids.has(l.issue.id)).map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id }));
        const blocks = blocksOf(f.before, f.composed.editsOf, ids);
        // A fix that rewrote its finding's line already took it out as edited code; it is marked fixed now.
        this.store.takeOut(refs, (id) => blocks.get(id));
        applied += refs.length;
        if (refs.length) this.remember({ uri: f.document.uri.toString(), before: digest(f.before), after: digest(after), refs, blocks, undone: false });
        if (refs.length) checked.push(appliedIn(f, f.applied.filter((l) => ids.has(l.issue.id)).map((l) => l.issue), blocks, f.applied.map((l) => l.issue)));
      }
      this.onApplied(checked);
    }
    const result = { offered, applied, refused };
    this.reportReviewed(result);
    return result;
  }

  private reportReviewed(r: ReviewedFixesResult): void {
    const list = r.refused.map((x) => `${x.finding}: ${x.reason}`).join(' ');
    if (!r.offered) {
      void (r.refused.length ? this.notifier.error(l10n.t('No fix could be applied. {0}', list)) : this.notifier.info(l10n.t('No finding in view has a fix that can be applied.')));
      return;
    }
    const head = r.applied
      ? plural(r.offered, l10n.t('Applied {1} of {0} fix. Review and save the files when ready; Undo takes them back.'), l10n.t('Applied {1} of {0} fixes. Review and save the files when ready; Undo takes them back.'), r.applied)
      : l10n.t('No fix was applied.');
    if (r.refused.length) void this.notifier.warn(l10n.t('{0} {1} could not be offered: {2}', head, r.refused.length, list));
    else void this.notifier.info(head);
  }

  private remember(fix: AppliedFix): void {
    this.applied.push(fix);
    // Undo history is the editor's; a few dozen fixes back is plenty to follow it.
    if (this.applied.length > 100) this.applied.shift();
  }

  /**
   * Redo of a fix takes its findings out again. (An undo needs nothing here: the store
   * brings a finding back whenever its file no longer has the fix.)
   */
  private followUndo(e: vscode.TextDocumentChangeEvent): void {
    if (e.reason !== vscode.TextDocumentChangeReason.Undo && e.reason !== vscode.TextDocumentChangeReason.Redo) return;
    const uri = e.document.uri.toString();
    const mine = this.applied.filter((f) => f.uri === uri);
    if (!mine.length) return;
    const now = digest(e.document.getText());
    for (const fix of mine) {
      if (!fix.undone && now === fix.before) fix.undone = true;
      else if (fix.undone && now === fix.after) {
        fix.undone = false;
        this.store.takeOut(fix.refs, (id) => fix.blocks.get(id));
      }
    }
  }
}

/** A composed file's applied fixes, as the fix checks follow them. */
function appliedIn(f: ComposedFile, issues: readonly StoredIssue[], blocks: ReadonlyMap<string, string[][]>, fileIssues: readonly StoredIssue[]): AppliedInFile {
  return {
    document: f.document,
    before: f.before,
    fileIssues,
    fixes: issues.map((issue) => ({ folderUri: f.applied[0]!.folderUri, issue, edits: f.composed.editsOf.get(issue.id) ?? [], blocks: blocks.get(issue.id) ?? [] })),
  };
}

/**
 * Where a fixed file is shown: the group that shows it already, else the first group when
 * the active one holds a page such as the Details view (the file opens beside it, not over it).
 */
function columnOf(uri: vscode.Uri): vscode.ViewColumn {
  const key = uri.toString();
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === key);
  if (visible?.viewColumn) return visible.viewColumn;
  const group = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key));
  if (group) return group.viewColumn;
  const active = vscode.window.tabGroups.activeTabGroup;
  return active.activeTab?.input instanceof vscode.TabInputWebview ? vscode.ViewColumn.One : active.viewColumn;
}

/**
 * Grouped by file (its default), the refactor preview shows an entry as its code only; grouped
 * by type, each fix heads its own entry with its label and explanation. The preview takes the
 * switch only once it shows the edit, and opening it takes focus, so it is asked twice early
 * on and never after (a person who then groups by file keeps it).
 */
async function listFixesByName(answered: Thenable<boolean>): Promise<void> {
  let done = false;
  answered.then(() => (done = true), () => (done = true));
  for (const ms of [400, 1200]) {
    await new Promise((r) => setTimeout(r, ms));
    if (done) return;
    await vscode.commands.executeCommand('refactorPreview.groupByType').then(undefined, () => undefined);
  }
}

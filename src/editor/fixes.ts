// Preview and apply the service's fixes. A fix changes only an uploaded file inside the
// folder (checkFixTarget); several fixes of one file compose (composeFixes) into one edit,
// one undo step. Undo brings the fixed findings back exactly as they were, redo takes them
// away again. The preview is a diff editor with Apply and Discard in its title bar.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { appliedFixes, applyFix, checkFixTarget, composeFixes, type ComposedFixes, type LineEdit } from '../core/fixes';
import { gitHooksDir } from '../core/workspace/git';
import { isFixable } from '../core/issues';
import { oneLine } from '../core/text/untrusted';
import { issueRefArg, plainObjectArg, type IssueRef } from './commands/args';
import { commandCall, type Commands } from './commands/manager';
import { issueForDiagnostic } from './diagnostics';
import { DisposableObject } from './disposable';
import type { Notifier } from './notifier';
import type { LocatedIssue, ResultsStore } from './resultsStore';
import { hideFalsePositives } from './settings';

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

function previewUri(ref: IssueRef, located: LocatedIssue): vscode.Uri {
  return vscode.Uri.from({
    scheme: PREVIEW_SCHEME,
    path: located.uri.path,
    query: new URLSearchParams({ folder: ref.folderUri, issue: ref.issueId }).toString(),
  });
}

/** Each folder's git hooks folder, read at most every few seconds (Apply All Fixes checks many files). */
const hooksDirs = new Map<string, { at: number; dir: Promise<string | undefined> }>();

function hooksDirOf(folderPath: string): Promise<string | undefined> {
  // git runs only for a trusted workspace (its config can name programs git starts).
  if (!vscode.workspace.isTrusted) return Promise.resolve(undefined);
  const kept = hooksDirs.get(folderPath);
  if (kept && Date.now() - kept.at < 5000) return kept.dir;
  const dir = gitHooksDir(folderPath);
  hooksDirs.set(folderPath, { at: Date.now(), dir });
  return dir;
}

/** Checks a finding's fix may write its file, and opens the file. */
async function fixTarget(located: LocatedIssue): Promise<{ ok: true; document: vscode.TextDocument } | { ok: false; message: string }> {
  if (!located.issue.fix) return { ok: false, message: 'This issue has no suggested fix.' };
  const folder = vscode.Uri.parse(located.folderUri);
  const hooksDir = await hooksDirOf(folder.fsPath);
  const target = await checkFixTarget(folder.fsPath, located.issue.path, located.issue.inArchive === true, { hooksDir });
  if (!target.ok) return { ok: false, message: target.message };
  try {
    return { ok: true, document: await vscode.workspace.openTextDocument(located.uri) };
  } catch {
    return { ok: false, message: `Cannot open ${located.issue.path}; it may have been moved or deleted.` };
  }
}

/**
 * Whether a finding's fix can be applied now, with the same checks Apply Fix makes (a file
 * the scan uploaded, inside the folder, not protected; the code not changed since the
 * scan), and the fixed text. Changes nothing.
 */
export async function checkFix(located: LocatedIssue): Promise<{ ok: true; document: vscode.TextDocument; fixed: string } | { ok: false; message: string }> {
  if (!isFixable(located.issue)) {
    return { ok: false, message: located.issue.fix ? 'Its file was not part of the scan\'s upload, so no fix is offered for it.' : 'This issue has no suggested fix.' };
  }
  const target = await fixTarget(located);
  if (!target.ok) return target;
  const fixed = applyFix(located.issue.fix!.diff, target.document.getText(), located.issue.path);
  return fixed.ok ? { ok: true, document: target.document, fixed: fixed.text } : { ok: false, message: fixed.message };
}

/** Replaces only the changed lines, so undo is one step and other findings' ranges survive. */
function addLineEdits(
  edit: vscode.WorkspaceEdit, document: vscode.TextDocument, edits: readonly LineEdit[],
  metadata: vscode.WorkspaceEditEntryMetadata = { needsConfirmation: false, label: 'Code Scanner fix' },
): void {
  for (const e of edits) {
    const start = new vscode.Position(e.startLine, 0);
    const end = e.endLine >= document.lineCount ? document.lineAt(document.lineCount - 1).range.end : new vscode.Position(e.endLine, 0);
    edit.replace(document.uri, new vscode.Range(start, end), e.text, metadata);
  }
}

/** What Apply All Fixes… did: fixes offered in the preview, applied, and refused with reasons. */
export interface ReviewedFixesResult { offered: number; applied: number; refused: { finding: string; reason: string }[] }

/** The fixes of one file composed on its current text. */
interface ComposedFile { document: vscode.TextDocument; before: string; composed: ComposedFixes; applied: LocatedIssue[] }

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : word.endsWith('x') ? 'es' : 's'}`;
}

function describeFinding(l: LocatedIssue): string {
  return `${l.issue.classificationName} (${l.issue.path}:${l.issue.range ? l.issue.range.start.line + 1 : l.issue.line})`;
}

/**
 * The fixes of `located`, file by file: each file's fixes checked (fixTarget) and composed
 * on its current text. Refusals say which finding and why.
 */
async function composeByFile(located: readonly LocatedIssue[]): Promise<{ files: ComposedFile[]; refused: { finding: string; reason: string }[] }> {
  const byFile = new Map<string, LocatedIssue[]>();
  for (const l of located) byFile.set(l.uri.toString(), [...(byFile.get(l.uri.toString()) ?? []), l]);
  const files: ComposedFile[] = [];
  const refused: { finding: string; reason: string }[] = [];
  for (const group of byFile.values()) {
    let document: vscode.TextDocument | undefined;
    const usable: LocatedIssue[] = [];
    for (const l of group) {
      const target = await fixTarget(l);
      if (!target.ok) { refused.push({ finding: describeFinding(l), reason: target.message }); continue; }
      document = target.document;
      usable.push(l);
    }
    if (!document || !usable.length) continue;
    const before = document.getText();
    const composed = composeFixes(before, usable.map((l) => ({ id: l.issue.id, diff: l.issue.fix!.diff, path: l.issue.path })));
    for (const r of composed.refused) refused.push({ finding: describeFinding(usable.find((l) => l.issue.id === r.id)!), reason: r.message });
    if (composed.applied.length) files.push({ document, before, composed, applied: usable.filter((u) => composed.applied.includes(u.issue.id)) });
  }
  return { files, refused };
}

/** A fix made in a file, so that undo and redo can put its findings back or take them out again. */
interface AppliedFix {
  uri: string;
  before: string;
  after: string;
  findings: LocatedIssue[];
  undone: boolean;
}

export class FixController extends DisposableObject {
  private readonly previewChanged = this.own(new vscode.EventEmitter<vscode.Uri>());
  private readonly previews = new Map<string, string>();
  private readonly applied: AppliedFix[] = [];
  private readonly fixedChanged = this.own(new vscode.EventEmitter<void>());
  /** Fires once the set of fixed findings has changed (applied, undone, redone). */
  readonly onDidChangeFixed = this.fixedChanged.event;

  constructor(private readonly store: ResultsStore, private readonly notifier: Notifier) {
    super();
    this.own(vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
      onDidChange: this.previewChanged.event,
      provideTextDocumentContent: (uri) => this.previews.get(uri.toString()) ?? '',
    }));
    this.own(vscode.workspace.onDidCloseTextDocument((d) => { if (d.uri.scheme === PREVIEW_SCHEME) this.previews.delete(d.uri.toString()); }));
    this.own(vscode.workspace.onDidChangeTextDocument((e) => this.followUndo(e)));
  }

  private resolve(ref: IssueRef | undefined): LocatedIssue | undefined {
    const located = ref ? this.store.get(ref) : undefined;
    if (!located) void this.notifier.warn('That issue is no longer in the results. Refresh or rescan.');
    return located;
  }

  /** Opens a diff of the file's current text against the fixed text; Apply and Discard are in its title bar. */
  async preview(arg: unknown): Promise<boolean> {
    const ref = issueRefArg(arg);
    const located = this.resolve(ref);
    if (!located || !ref) return false;
    const target = await fixTarget(located);
    const fixed = target.ok ? applyFix(located.issue.fix!.diff, target.document.getText(), located.issue.path) : undefined;
    if (!target.ok || !fixed?.ok) {
      void this.notifier.error(!target.ok ? target.message : fixed!.ok ? '' : fixed!.message);
      return false;
    }
    const uri = previewUri(ref, located);
    this.previews.set(uri.toString(), fixed.text);
    this.previewChanged.fire(uri);
    const name = located.uri.path.split('/').pop();
    const title = `${name} ↔ Fix: ${oneLine(located.issue.fix!.explanation || located.issue.classificationName, 60)}`;
    await vscode.commands.executeCommand('vscode.diff', located.uri, uri, title, { preview: true });
    return true;
  }

  /** Apply from the preview's title bar: applies the fix and closes the preview. */
  async applyPreviewed(arg: unknown): Promise<number> {
    const ref = arg instanceof vscode.Uri ? previewRef(arg) : issueRefArg(arg);
    if (!ref) return 0;
    const n = await this.apply([ref]);
    if (n > 0) await this.closePreviews(ref);
    return n;
  }

  async discardPreviewed(arg: unknown): Promise<void> {
    const ref = arg instanceof vscode.Uri ? previewRef(arg) : issueRefArg(arg);
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
      void this.notifier.warn('Those issues are no longer in the results. Refresh or rescan.');
      return 0;
    }
    const { files, refused } = await composeByFile(located);
    const count = await this.applyComposed(files);
    if (count < 0) return 0;
    const reasons = refused.map((r) => `${r.finding}: ${r.reason}`);
    if (reasons.length) {
      const head = count ? `Applied ${count} fix${count === 1 ? '' : 'es'}; ${reasons.length} could not be applied. ` : '';
      void this.notifier.error(`${head}${reasons.join(' ')}`);
    } else if (count === 1 && o.reveal) {
      const f = files[0]!;
      const l = f.applied[0]!;
      // Where the change is, as Preview Fix shows it: a fix is never made out of sight.
      const line = f.composed.edits[0]?.startLine ?? 0;
      await vscode.window.showTextDocument(f.document, { selection: new vscode.Range(line, 0, line, 0), preview: false });
      void this.notifier.info(`Applied the fix for ${oneLine(l.issue.classificationName, 80)} in ${l.issue.path}. The file is edited, not saved; Undo (Ctrl+Z, ⌘Z on macOS) takes it back.`);
    } else if (count > 1) {
      void this.notifier.info(`Applied ${count} fixes in ${plural(files.length, 'file')}. The files are edited, not saved; Undo takes them back.`);
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
      return { document: f.document, before: f.before, refs: f.applied.map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id })) };
    });
    // Out of the store before the edit: the edit rewrites their lines, and range tracking
    // would otherwise count them as deleted code instead of keeping them for an undo.
    const takenOut = made.map((m) => this.store.takeOut(m.refs));
    if (made.length && !(await vscode.workspace.applyEdit(edit))) {
      for (const t of takenOut) this.store.putBack(t);
      void this.notifier.error('The editor refused the change; nothing was modified.');
      return -1;
    }
    let count = 0;
    made.forEach((m, i) => {
      count += takenOut[i].length;
      this.remember({ uri: m.document.uri.toString(), before: digest(m.before), after: digest(m.document.getText()), findings: takenOut[i], undone: false });
    });
    if (made.length) this.fixedChanged.fire();
    return count;
  }

  /** Whether a finding left the view because its fix was applied (and not undone since). */
  isFixed(ref: IssueRef): boolean {
    return this.applied.some((f) => !f.undone && f.findings.some((l) => l.folderUri === ref.folderUri && l.issue.id === ref.issueId));
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
      return `• ${vscode.workspace.asRelativePath(f.document.uri)}: ${plural(f.applied.length, 'fix')} (${what})`;
    });
    const shownFiles = perFile.slice(0, 15);
    if (perFile.length > shownFiles.length) shownFiles.push(`• …and ${perFile.length - shownFiles.length} more files`);
    const left = refused.slice(0, 8).map((r) => `• ${r.finding}: ${r.reason}`);
    if (refused.length > left.length) left.push(`• …and ${refused.length - left.length} more`);
    const APPLY = `Apply ${plural(offered, 'Fix')}`;
    const REVIEW = 'Review in Preview…';
    const picked = await this.notifier.choose(
      `Apply ${plural(offered, 'fix')} in ${plural(files.length, 'file')}?`,
      [
        ...shownFiles,
        ...(left.length ? ['', `Not applicable, left as they are (${refused.length}):`, ...left] : []),
        '',
        'One edit: the files are changed, not saved, and one Undo takes every fix back. Review in Preview… shows each change to pick from.',
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
        const label = `${oneLine(l.issue.classificationName || l.issue.classificationId, 60)} (${oneLine(l.issue.classificationId, 30)}), ${vscode.workspace.asRelativePath(f.document.uri)} line ${at}`;
        const description = oneLine(l.issue.fix!.explanation || 'Suggested fix', 80);
        addLineEdits(edit, f.document, f.composed.editsOf.get(l.issue.id)!, { needsConfirmation: true, label, description });
      }
    }
    const offered = files.reduce((n, f) => n + f.applied.length, 0);
    // VS Code opens this preview with every entry unticked: say so, and how to take a file whole.
    void this.notifier.info('The preview lists each fix under its name, file and line; nothing is applied until you tick it. Tick the fixes you want, or choose Group Changes By File in its title bar and tick a file to take all of its fixes, then Apply. Discard changes nothing.');
    // The findings stay in view while the preview is open: the person decides looking at
    // them. Their places now are kept, so an undo can bring back those whose fix is applied.
    const placedBefore = files.map((f) => f.applied.map((l) => ({ ...l, issue: structuredClone(l.issue) })));
    const answered = vscode.workspace.applyEdit(edit, { isRefactoring: true });
    void listFixesByName(answered);
    const accepted = await answered;
    let applied = 0;
    if (accepted) {
      files.forEach((f, i) => {
        const after = f.document.getText();
        const ids = appliedFixes(f.before, after, f.composed.editsOf) ?? new Set<string>();
        // A fix that rewrote its finding's line already took it out (range tracking); the others go now.
        this.store.takeOut(f.applied.filter((l) => ids.has(l.issue.id)).map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id })));
        const out = placedBefore[i].filter((l) => ids.has(l.issue.id));
        applied += out.length;
        if (out.length) this.remember({ uri: f.document.uri.toString(), before: digest(f.before), after: digest(after), findings: out, undone: false });
      });
    }
    const result = { offered, applied, refused };
    this.reportReviewed(result);
    return result;
  }

  private reportReviewed(r: ReviewedFixesResult): void {
    const list = r.refused.map((x) => `${x.finding}: ${x.reason}`).join(' ');
    if (!r.offered) {
      void (r.refused.length ? this.notifier.error(`No fix could be applied. ${list}`) : this.notifier.info('No finding in view has a fix that can be applied.'));
      return;
    }
    const head = r.applied
      ? `Applied ${r.applied} of ${r.offered} fix${r.offered === 1 ? '' : 'es'}. Review and save the files when ready; Undo takes them back.`
      : 'No fix was applied.';
    if (r.refused.length) void this.notifier.warn(`${head} ${r.refused.length} could not be offered: ${list}`);
    else void this.notifier.info(head);
  }

  private remember(fix: AppliedFix): void {
    this.applied.push(fix);
    // Undo history is the editor's; a few dozen fixes back is plenty to follow it.
    if (this.applied.length > 100) this.applied.shift();
  }

  /** Undo of a fix brings its findings back at their places; redo takes them out again. */
  private followUndo(e: vscode.TextDocumentChangeEvent): void {
    if (e.reason !== vscode.TextDocumentChangeReason.Undo && e.reason !== vscode.TextDocumentChangeReason.Redo) return;
    const uri = e.document.uri.toString();
    const mine = this.applied.filter((f) => f.uri === uri);
    if (!mine.length) return;
    const now = digest(e.document.getText());
    let changed = false;
    for (const fix of mine) {
      if (!fix.undone && now === fix.before) {
        fix.undone = true;
        this.store.putBack(fix.findings);
        changed = true;
      } else if (fix.undone && now === fix.after) {
        // Redo: out again. The copies taken before the fix keep their places for the next undo.
        fix.undone = false;
        this.store.takeOut(fix.findings.map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id })));
        changed = true;
      }
    }
    if (changed) this.fixedChanged.fire();
  }
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

export function registerFixes(context: vscode.ExtensionContext, store: ResultsStore, notifier: Notifier, commands: Commands): FixController {
  const fixes = new FixController(store, notifier);
  context.subscriptions.push(
    fixes,
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FixActions(store), {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
  );
  commands.register('codeScanner.previewFix', (arg) => fixes.preview(arg));
  commands.register('codeScanner.applyFix', async (arg) => {
    const ref = issueRefArg(arg);
    return ref && store.get(ref) ? fixes.apply([ref], { reveal: true }) : (void notifier.warn('That issue is no longer in the results. Refresh or rescan.'), 0);
  });
  commands.register('codeScanner.applyPreviewedFix', (arg) => fixes.applyPreviewed(arg));
  commands.register('codeScanner.discardPreviewedFix', (arg) => fixes.discardPreviewed(arg));
  commands.register('codeScanner.applyAllFixesInFile', async (arg) => {
    // From the palette: the active editor's file; from a code action: its file; from a finding: that finding's file.
    const ref = issueRefArg(arg);
    const uri = arg instanceof vscode.Uri ? arg : ref ? store.get(ref)?.uri : vscode.window.activeTextEditor?.document.uri;
    const fixable = uri ? store.forFile(uri).filter((l) => isFixable(l.issue) && !store.dismissalOf(l.issue)) : [];
    if (!fixable.length) {
      void notifier.info('No suggested fixes for this file.');
      return 0;
    }
    return fixes.apply(fixable.map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id })));
  });
  commands.register('codeScanner.applyAllFixes', async (arg) => {
    // From a tree group: its findings; otherwise every finding in view in the workspace.
    const group = groupNodeArg(arg);
    const scope = group
      ? group.issues.map((issue) => store.get({ folderUri: group.folderUri, issueId: issue.id })).filter((l): l is LocatedIssue => !!l)
      : store.all();
    const hideFp = hideFalsePositives();
    const fixable = scope.filter((l) => isFixable(l.issue) && store.isShown(l.issue, hideFp));
    const choice = plainObjectArg<{ choice: unknown }>(arg)?.choice;
    return fixes.applyAll(fixable, choice === 'apply' || choice === 'review' ? choice : undefined);
  });
  return fixes;
}

/** A group node of the findings tree (its context menu passes it). */
function groupNodeArg(v: unknown): { folderUri: string; issues: { id: string }[] } | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const n = v as Record<string, unknown>;
  return n.kind === 'group' && typeof n.folderUri === 'string' && Array.isArray(n.issues) && !n.dismissed
    ? { folderUri: n.folderUri, issues: n.issues.filter((i): i is { id: string } => typeof (i as { id?: unknown })?.id === 'string') }
    : undefined;
}

class FixActions implements vscode.CodeActionProvider {
  constructor(private readonly store: ResultsStore) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const here = this.store.forFile(document.uri);
    if (!here.length) return [];
    // What Apply All Fixes in File will apply: a dismissed finding's fix is not among them.
    const fixable = here.filter((l) => isFixable(l.issue) && !this.store.dismissalOf(l.issue));
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      const l = issueForDiagnostic(here, d);
      if (!l) continue;
      const ref: IssueRef = { folderUri: l.folderUri, issueId: l.issue.id };
      if (isFixable(l.issue)) {
        const explanation = oneLine(l.issue.fix!.explanation || l.issue.classificationName, 60);
        const apply = new vscode.CodeAction(`Code Scanner: Apply Fix — ${explanation}`, vscode.CodeActionKind.QuickFix);
        apply.diagnostics = [d];
        apply.isPreferred = true;
        apply.command = commandCall('codeScanner.applyFix', 'Apply Fix', ref);
        const preview = new vscode.CodeAction(`Code Scanner: Preview Fix — ${explanation}`, vscode.CodeActionKind.QuickFix);
        preview.diagnostics = [d];
        preview.command = commandCall('codeScanner.previewFix', 'Preview Fix', ref);
        actions.push(apply, preview);
      }
      // Every finding, fixable or not, can be read in full from the light bulb.
      const details = new vscode.CodeAction(`Code Scanner: Show Details — ${oneLine(l.issue.classificationName, 60)}`, vscode.CodeActionKind.QuickFix);
      details.diagnostics = [d];
      details.command = commandCall('codeScanner.showDetails', 'Show Finding Details', ref);
      actions.push(details);
    }
    if (fixable.length > 1 && actions.some((a) => a.command?.command === 'codeScanner.applyFix')) {
      const all = new vscode.CodeAction(`Code Scanner: Apply All Fixes in File (${fixable.length})`, vscode.CodeActionKind.QuickFix);
      all.command = commandCall('codeScanner.applyAllFixesInFile', 'Apply All Fixes in File', document.uri);
      actions.push(all);
    }
    return actions;
  }
}

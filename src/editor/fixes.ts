import * as vscode from 'vscode';
import { applyFix, checkFixTarget, computeLineEdits, type FixResult } from '../core/fixes';
import { isFixable } from '../core/issues';
import { issueRefArg } from './commands/args';
import { commandCall, type Commands } from './commands/manager';
import { issueForDiagnostic } from './diagnostics';
import type { Notifier } from './notifier';
import type { IssueRef, LocatedIssue, ResultsStore } from './resultsStore';

const PREVIEW_SCHEME = 'code-scanner-fix';

type Patched = { ok: true; text: string; document: vscode.TextDocument } | { ok: false; message: string };

/** Applies a finding's fix to the file's current text (unsaved edits included), in memory. */
async function patchedText(located: LocatedIssue, base?: string): Promise<Patched> {
  const fix = located.issue.fix;
  if (!fix) return { ok: false, message: 'This issue has no suggested fix.' };
  const folder = vscode.Uri.parse(located.folderUri);
  const target = await checkFixTarget(folder.fsPath, located.issue.path, located.issue.inArchive === true);
  if (!target.ok) return { ok: false, message: target.message };
  let document: vscode.TextDocument;
  try {
    document = await vscode.workspace.openTextDocument(located.uri);
  } catch {
    return { ok: false, message: `Cannot open ${located.issue.path}; it may have been moved or deleted.` };
  }
  const res: FixResult = applyFix(fix.diff, base ?? document.getText(), located.issue.path);
  return res.ok ? { ok: true, text: res.text, document } : { ok: false, message: res.message };
}

/** Replaces only the changed lines, so undo is one step and other findings' ranges survive. */
function addLineEdits(edit: vscode.WorkspaceEdit, document: vscode.TextDocument, after: string): number {
  const edits = computeLineEdits(document.getText(), after);
  for (const e of edits) {
    const start = new vscode.Position(e.startLine, 0);
    const end = e.endLine >= document.lineCount ? document.lineAt(document.lineCount - 1).range.end : new vscode.Position(e.endLine, 0);
    edit.replace(document.uri, new vscode.Range(start, end), e.text, { needsConfirmation: false, label: 'Code Scanner fix' });
  }
  return edits.length;
}

function previewUri(ref: IssueRef, located: LocatedIssue): vscode.Uri {
  return vscode.Uri.from({
    scheme: PREVIEW_SCHEME,
    path: located.uri.path,
    query: new URLSearchParams({ folder: ref.folderUri, issue: ref.issueId }).toString(),
  });
}

function shorten(s: string, max = 80): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export function registerFixes(context: vscode.ExtensionContext, store: ResultsStore, notifier: Notifier, commands: Commands): void {
  const previewChanged = new vscode.EventEmitter<vscode.Uri>();
  const previews = new Map<string, string>();

  const resolve = (ref: IssueRef | undefined): LocatedIssue | undefined => {
    const located = ref ? store.get(ref) : undefined;
    if (!located) void notifier.warn('That issue is no longer in the results. Refresh or rescan.');
    return located;
  };

  async function previewFix(arg: unknown): Promise<boolean> {
    const ref = issueRefArg(arg);
    const located = resolve(ref);
    if (!located || !ref) return false;
    const patched = await patchedText(located);
    if (!patched.ok) {
      void notifier.error(patched.message);
      return false;
    }
    const uri = previewUri(ref, located);
    previews.set(uri.toString(), patched.text);
    previewChanged.fire(uri);
    const explanation = located.issue.fix?.explanation ?? '';
    const name = located.uri.path.split('/').pop();
    await vscode.commands.executeCommand('vscode.diff', located.uri, uri, `${name} ↔ Fix: ${shorten(explanation || located.issue.classificationName, 60)}`, { preview: true });
    void notifier.info(
      `Fix for ${located.issue.classificationName} (${located.issue.path}:${located.issue.line}): ${explanation || 'no explanation given.'}`,
      { title: 'Apply Fix', run: () => applyFixes([ref]) },
    );
    return true;
  }

  /** Applies fixes of one file in order; refusals are reported and leave the text untouched. */
  async function applyFixes(refs: IssueRef[]): Promise<number> {
    const located = refs.map((r) => store.get(r)).filter((l): l is LocatedIssue => !!l);
    if (!located.length) {
      void notifier.warn('Those issues are no longer in the results. Refresh or rescan.');
      return 0;
    }
    const edit = new vscode.WorkspaceEdit();
    const appliedRefs: IssueRef[] = [];
    const refused: string[] = [];
    const byFile = new Map<string, LocatedIssue[]>();
    for (const l of located) byFile.set(l.uri.toString(), [...(byFile.get(l.uri.toString()) ?? []), l]);
    for (const group of byFile.values()) {
      let text: string | undefined;
      let document: vscode.TextDocument | undefined;
      // Bottom-up, so a fix never shifts the lines another fix in the same file expects.
      group.sort((a, b) => b.issue.line - a.issue.line);
      for (const l of group) {
        const res = await patchedText(l, text);
        if (!res.ok) { refused.push(`${l.issue.classificationName} (${l.issue.path}:${l.issue.line}): ${res.message}`); continue; }
        text = res.text;
        document = res.document;
        appliedRefs.push({ folderUri: l.folderUri, issueId: l.issue.id });
      }
      if (document && text !== undefined) addLineEdits(edit, document, text);
    }
    if (appliedRefs.length && !(await vscode.workspace.applyEdit(edit))) {
      void notifier.error('The editor refused the change; nothing was modified.');
      return 0;
    }
    store.remove(appliedRefs);
    if (refused.length) {
      const head = appliedRefs.length ? `Applied ${appliedRefs.length} fix(es); ${refused.length} could not be applied. ` : '';
      void notifier.error(`${head}${refused.join(' ')}`);
    } else if (appliedRefs.length > 1) {
      void notifier.info(`Applied ${appliedRefs.length} fixes. Review and save the file when ready.`);
    }
    return appliedRefs.length;
  }

  context.subscriptions.push(
    previewChanged,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
      onDidChange: previewChanged.event,
      provideTextDocumentContent: (uri) => previews.get(uri.toString()) ?? '',
    }),
    vscode.workspace.onDidCloseTextDocument((d) => { if (d.uri.scheme === PREVIEW_SCHEME) previews.delete(d.uri.toString()); }),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FixActions(store), {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
  );
  commands.register('codeScanner.previewFix', (arg) => previewFix(arg));
  commands.register('codeScanner.applyFix', async (arg) => {
    const ref = issueRefArg(arg);
    return resolve(ref) && ref ? applyFixes([ref]) : 0;
  });
  commands.register('codeScanner.applyAllFixesInFile', async (arg) => {
    // From the palette: the active editor's file; from a code action: its file; from a finding: that finding's file.
    const ref = issueRefArg(arg);
    const uri = arg instanceof vscode.Uri ? arg : ref ? store.get(ref)?.uri : vscode.window.activeTextEditor?.document.uri;
    const fixable = uri ? store.forFile(uri).filter((l) => isFixable(l.issue)) : [];
    if (!fixable.length) {
      void notifier.info('No suggested fixes for this file.');
      return 0;
    }
    return applyFixes(fixable.map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id })));
  });
}

class FixActions implements vscode.CodeActionProvider {
  constructor(private readonly store: ResultsStore) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const inFile = this.store.forFile(document.uri);
    const fixable = inFile.filter((l) => isFixable(l.issue));
    if (!fixable.length) return [];
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      const l = issueForDiagnostic(fixable, d);
      if (!l) continue;
      const ref: IssueRef = { folderUri: l.folderUri, issueId: l.issue.id };
      const explanation = shorten(l.issue.fix!.explanation || l.issue.classificationName, 60);
      const apply = new vscode.CodeAction(`Apply Fix: ${explanation}`, vscode.CodeActionKind.QuickFix);
      apply.diagnostics = [d];
      apply.isPreferred = true;
      apply.command = commandCall('codeScanner.applyFix', 'Apply Fix', ref);
      const preview = new vscode.CodeAction(`Preview Fix: ${explanation}`, vscode.CodeActionKind.QuickFix);
      preview.diagnostics = [d];
      preview.command = commandCall('codeScanner.previewFix', 'Preview Fix', ref);
      actions.push(apply, preview);
    }
    if (actions.length && fixable.length > 1) {
      const all = new vscode.CodeAction(`Apply All Fixes in File (${fixable.length})`, vscode.CodeActionKind.QuickFix);
      all.command = commandCall('codeScanner.applyAllFixesInFile', 'Apply All Fixes in File', document.uri);
      actions.push(all);
    }
    return actions;
  }
}

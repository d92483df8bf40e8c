// Where a fix may write and what it changes: a fix changes only an uploaded file inside the
// folder (checkFixTarget), and several fixes of one file compose (composeFixes) into one
// edit of that file, each on the text the others produce. Nothing here changes anything.
import * as vscode from 'vscode';
import { applyFix, checkFixTarget, composeFixes, type ComposedFixes, type LineEdit } from '../../core/fixes';
import { isFixable } from '../../core/issues';
import { gitHooksDir } from '../../core/workspace/git';
import type { LocatedIssue } from '../results/resultsStore';
import { l10n } from '../../core/text/l10n';

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
export async function fixTarget(located: LocatedIssue): Promise<{ ok: true; document: vscode.TextDocument } | { ok: false; message: string }> {
  if (!located.issue.fix) return { ok: false, message: l10n.t('This issue has no suggested fix.') };
  const folder = vscode.Uri.parse(located.folderUri);
  const hooksDir = await hooksDirOf(folder.fsPath);
  const target = await checkFixTarget(folder.fsPath, located.issue.path, located.issue.inArchive === true, { hooksDir });
  if (!target.ok) return { ok: false, message: target.message };
  try {
    return { ok: true, document: await vscode.workspace.openTextDocument(located.uri) };
  } catch {
    return { ok: false, message: l10n.t('Cannot open {0}; it may have been moved or deleted.', located.issue.path) };
  }
}

/**
 * Whether a finding's fix can be applied now, with the same checks Apply Fix makes (a file
 * the scan uploaded, inside the folder, not protected; the code not changed since the
 * scan), and the fixed text. Changes nothing.
 */
export async function checkFix(located: LocatedIssue): Promise<{ ok: true; document: vscode.TextDocument; fixed: string } | { ok: false; message: string }> {
  if (!isFixable(located.issue)) {
    return { ok: false, message: located.issue.fix ? l10n.t('Its file was not part of the scan\'s upload, so no fix is offered for it.') : l10n.t('This issue has no suggested fix.') };
  }
  const target = await fixTarget(located);
  if (!target.ok) return target;
  const fixed = applyFix(located.issue.fix!.diff, target.document.getText(), located.issue.path);
  return fixed.ok ? { ok: true, document: target.document, fixed: fixed.text } : { ok: false, message: fixed.message };
}

/** Replaces only the changed lines, so undo is one step and other findings' ranges survive. */
export function addLineEdits(
  edit: vscode.WorkspaceEdit, document: vscode.TextDocument, edits: readonly LineEdit[],
  metadata: vscode.WorkspaceEditEntryMetadata = { needsConfirmation: false, label: l10n.t('Code Scanner fix') },
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
export interface ComposedFile { document: vscode.TextDocument; before: string; composed: ComposedFixes; applied: LocatedIssue[] }


function describeFinding(l: LocatedIssue): string {
  return `${l.issue.classificationName} (${l.issue.path}:${l.issue.range ? l.issue.range.start.line + 1 : l.issue.line})`;
}

/**
 * The fixes of `located`, file by file: each file's fixes checked (fixTarget) and composed
 * on its current text. Refusals say which finding and why.
 */
export async function composeByFile(located: readonly LocatedIssue[]): Promise<{ files: ComposedFile[]; refused: { finding: string; reason: string }[] }> {
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

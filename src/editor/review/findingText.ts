// How one finding reads in the editor: a Markdown summary for tooltips and hovers (server
// text escaped, links only to our own commands), and plain text for the clipboard.
import * as vscode from 'vscode';
import { cweUrl, currentLine, findingPlainText, fixStatusWords, hoverFactLines, isFixable, triageWords, type StoredIssue } from '../../core/issues';
import { escapeMarkdown as escape } from '../../core/text/untrusted';
import type { IssueRef } from '../commands/args';
import type { CommandId } from '../commands/signatures';
import { DISMISS_LABELS } from '../../core/results/dismissWords';
import type { Dismissal } from '../results/resultsStore';
import { l10n } from '../../core/text/l10n';

/** Commands a hover may run: only these, never anything named by the service. */
export const HOVER_COMMANDS: CommandId[] = ['codeScanner.showDetails', 'codeScanner.previewFix', 'codeScanner.applyFix', 'codeScanner.fixWithChat', 'codeScanner.undoFix'];

const capitalized = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

function commandLink(id: CommandId, ref: IssueRef): string {
  return `command:${id}?${encodeURIComponent(JSON.stringify([ref]))}`;
}


/**
 * The summary a tooltip or hover shows. With `ref`, links to Show Details and the fix
 * commands are added; the Markdown must then be trusted for exactly HOVER_COMMANDS.
 */
export function findingMarkdown(issue: StoredIssue, o: { ref?: IssueRef; dismissal?: Dismissal; besideDiagnostic?: boolean; fixNote?: string; undoFix?: boolean } = {}): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  const cwe = cweUrl(issue.classificationId);
  // Beside its diagnostic (an editor hover) the title and description are already there: not twice.
  if (!o.besideDiagnostic) {
    md.appendMarkdown(`**${escape(issue.classificationName)}** `);
    md.appendMarkdown(cwe ? `([${escape(issue.classificationId)}](${cwe}))\n\n` : `(${escape(issue.classificationId)})\n\n`);
  }
  const { inline, own } = hoverFactLines(issue);
  const facts = [...inline, o.besideDiagnostic && cwe && `[${escape(issue.classificationId)}](${cwe})`].filter(Boolean);
  md.appendMarkdown(`${facts.join(' · ')}\n\n`);
  for (const line of own) md.appendMarkdown(`${line}\n\n`);
  if (!o.besideDiagnostic) md.appendMarkdown(`${escape(issue.path)}:${currentLine(issue)}\n\n`);
  if (issue.stale) md.appendMarkdown(l10n.t('*The code changed since this scan, so this finding could not be placed. Rescan.*\n\n'));
  if (issue.classificationDescription && !o.besideDiagnostic) md.appendMarkdown(`${escape(issue.classificationDescription)}\n\n`);
  if (issue.falsePositive) md.appendMarkdown(l10n.t('*Auto-triage: likely a false positive.* {0}\n\n', escape(issue.triageReasoning ?? '')));
  else if (issue.triageStatus) md.appendMarkdown(`${l10n.t('Auto-triage: {0}', `${escape(triageWords(issue.triageStatus))}${issue.triageReasoning ? ` — ${escape(issue.triageReasoning)}` : ''}`)}\n\n`);
  if (o.fixNote) md.appendMarkdown(`$(warning) ${escape(capitalized(o.fixNote))}${o.undoFix && o.ref ? ` · ${l10n.t('[Undo Fix]({0})', commandLink('codeScanner.undoFix', o.ref))}` : ''}\n\n`);
  if (o.dismissal) md.appendMarkdown(l10n.t('*Dismissed here as {0}* (only in this workspace; the service keeps it open).\n\n', DISMISS_LABELS[o.dismissal.reason]));
  if (issue.fix && isFixable(issue)) md.appendMarkdown(l10n.t('$(lightbulb) Fix available: {0}\n\n', escape(issue.fix.explanation)));
  else if (issue.fix) md.appendMarkdown(l10n.t('Suggested fix not offered: the file was not among the uploaded files.\n\n'));
  else if (issue.fixStatus) md.appendMarkdown(l10n.t('No suggested fix: {0}.\n\n', escape(fixStatusWords(issue.fixStatus))));
  if (o.ref) {
    const links = [l10n.t('[Show Details]({0})', commandLink('codeScanner.showDetails', o.ref))];
    if (isFixable(issue)) links.push(l10n.t('[Preview Fix]({0})', commandLink('codeScanner.previewFix', o.ref)), l10n.t('[Apply Fix]({0})', commandLink('codeScanner.applyFix', o.ref)));
    if (!o.dismissal) links.push(l10n.t('[Fix with Chat]({0})', commandLink('codeScanner.fixWithChat', o.ref)));
    md.appendMarkdown(links.join(' · '));
    md.isTrusted = { enabledCommands: HOVER_COMMANDS };
  }
  return md;
}

/** Every field, as plain text (Copy Details). */
export function findingText(issue: StoredIssue, folderName?: string): string {
  return findingPlainText(issue, folderName);
}

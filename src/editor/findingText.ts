// How one finding reads in the editor: a Markdown summary for tooltips and hovers (server
// text escaped, links only to our own commands), and plain text for the clipboard.
import * as vscode from 'vscode';
import { cweUrl, fixStatusWords, isFixable, slaWords, statusWords, triageWords, type StoredIssue } from '../core/issues';
import { escapeMarkdown as escape } from '../core/text/untrusted';
import type { IssueRef } from './commands/args';
import type { CommandId } from './commands/signatures';
import { DISMISS_LABELS, capitalize, currentLine, reachabilityText } from './findingFacts';
import type { Dismissal } from './resultsStore';

export { DISMISS_LABELS, capitalize, currentLine } from './findingFacts';

/** Commands a hover may run: only these, never anything named by the service. */
export const HOVER_COMMANDS: CommandId[] = ['codeScanner.showDetails', 'codeScanner.previewFix', 'codeScanner.applyFix'];

function commandLink(id: CommandId, ref: IssueRef): string {
  return `command:${id}?${encodeURIComponent(JSON.stringify([ref]))}`;
}


/**
 * The summary a tooltip or hover shows. With `ref`, links to Show Details and the fix
 * commands are added; the Markdown must then be trusted for exactly HOVER_COMMANDS.
 */
export function findingMarkdown(issue: StoredIssue, o: { ref?: IssueRef; dismissal?: Dismissal; besideDiagnostic?: boolean } = {}): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  const cwe = cweUrl(issue.classificationId);
  // Beside its diagnostic (an editor hover) the title and description are already there: not twice.
  if (!o.besideDiagnostic) {
    md.appendMarkdown(`**${escape(issue.classificationName)}** `);
    md.appendMarkdown(cwe ? `([${escape(issue.classificationId)}](${cwe}))\n\n` : `(${escape(issue.classificationId)})\n\n`);
  }
  const facts = [
    `Urgency: **${escape(capitalize(issue.urgency))}**`,
    reachabilityText(issue) && `Reachability: ${escape(reachabilityText(issue)!)}`,
    issue.slaStatus && `SLA: ${escape(slaWords(issue.slaStatus))}`,
    `Status: ${escape(statusWords(issue.status))}`,
    o.besideDiagnostic && cwe && `[${escape(issue.classificationId)}](${cwe})`,
  ].filter(Boolean);
  md.appendMarkdown(`${facts.join(' · ')}\n\n`);
  if (!o.besideDiagnostic) md.appendMarkdown(`${escape(issue.path)}:${currentLine(issue)}\n\n`);
  if (issue.stale) md.appendMarkdown('*The code changed since this scan, so this finding could not be placed. Rescan.*\n\n');
  if (issue.classificationDescription && !o.besideDiagnostic) md.appendMarkdown(`${escape(issue.classificationDescription)}\n\n`);
  if (issue.falsePositive) md.appendMarkdown(`*Auto-triage: likely a false positive.* ${escape(issue.triageReasoning ?? '')}\n\n`);
  else if (issue.triageStatus) md.appendMarkdown(`Auto-triage: ${escape(triageWords(issue.triageStatus))}${issue.triageReasoning ? ` — ${escape(issue.triageReasoning)}` : ''}\n\n`);
  if (o.dismissal) md.appendMarkdown(`*Dismissed here as ${DISMISS_LABELS[o.dismissal.reason]}* (only in this workspace; the service keeps it open).\n\n`);
  if (issue.fix && isFixable(issue)) md.appendMarkdown(`$(lightbulb) Fix available: ${escape(issue.fix.explanation)}\n\n`);
  else if (issue.fix) md.appendMarkdown('Suggested fix not offered: the file was not among the uploaded files.\n\n');
  else if (issue.fixStatus) md.appendMarkdown(`No suggested fix: ${escape(fixStatusWords(issue.fixStatus))}.\n\n`);
  if (o.ref) {
    const links = [`[Show Details](${commandLink('codeScanner.showDetails', o.ref)})`];
    if (isFixable(issue)) links.push(`[Preview Fix](${commandLink('codeScanner.previewFix', o.ref)})`, `[Apply Fix](${commandLink('codeScanner.applyFix', o.ref)})`);
    md.appendMarkdown(links.join(' · '));
    md.isTrusted = { enabledCommands: HOVER_COMMANDS };
  }
  return md;
}

/** Every field, as plain text (Copy Details). */
export function findingText(issue: StoredIssue, folderName?: string): string {
  const lines = [
    `${issue.classificationName} (${issue.classificationId})`,
    `Urgency: ${issue.urgency}`,
    `Status: ${statusWords(issue.status)}`,
    `Location: ${folderName ? `${folderName}/` : ''}${issue.path}:${currentLine(issue)}`,
    `Issue id: ${issue.id}`,
  ];
  if (issue.slaStatus) lines.push(`SLA status: ${slaWords(issue.slaStatus)}`);
  const reach = reachabilityText(issue);
  if (reach) lines.push(`Reachability: ${reach}`);
  if (issue.assignee) lines.push(`Assigned to: ${[issue.assignee.name, issue.assignee.email].filter(Boolean).join(' ')}`);
  if (issue.createdAt) lines.push(`Found: ${issue.createdAt}`);
  if (issue.branch || issue.gitSha) lines.push(`Branch: ${issue.branch ?? '—'} · Commit: ${issue.gitSha ?? '—'}`);
  if (issue.classificationDescription) lines.push('', issue.classificationDescription);
  if (issue.triageStatus) lines.push('', `Auto-triage: ${triageWords(issue.triageStatus)}${issue.triageReasoning ? ` — ${issue.triageReasoning}` : ''}`);
  if (issue.fix) lines.push('', `Suggested fix: ${issue.fix.explanation}`, '', issue.fix.diff);
  else if (issue.fixStatus) lines.push('', `Auto-fix: ${fixStatusWords(issue.fixStatus)}`);
  return lines.join('\n');
}

// A finding as text: every field for the clipboard (Copy Details), and the facts line of a
// hover in Markdown (the service's text escaped). The facts come from the one table.
import { escapeMarkdown } from '../text/untrusted';
import { FINDING_FACTS, currentLine, factLines, factsFor, type FindingFact } from './facts';
import type { StoredIssue } from './model';
import { serviceIdOf } from './kinds';
import { fixStatusWords, triageWords } from './words';
import { l10n } from '../text/l10n';

/** Every field, as plain text (Copy Details). */
export function findingPlainText(issue: StoredIssue, folderName?: string, facts: readonly FindingFact[] = FINDING_FACTS): string {
  const lines = [
    `${issue.classificationName} (${issue.classificationId})`,
    l10n.t('Location: {0}', `${folderName ? `${folderName}/` : ''}${issue.path}:${currentLine(issue)}`),
    ...factLines(issue, facts),
    // The service's id, as its web app shows it (the editor's key adds the list).
    l10n.t('Issue id: {0}', serviceIdOf(issue)),
  ];
  if (issue.classificationDescription) lines.push('', issue.classificationDescription);
  if (issue.triageStatus) lines.push('', l10n.t('Auto-triage: {0}', `${triageWords(issue.triageStatus)}${issue.triageReasoning ? ` — ${issue.triageReasoning}` : ''}`));
  if (issue.fix) lines.push('', l10n.t('Suggested fix: {0}', issue.fix.explanation), '', issue.fix.diff);
  else if (issue.fixStatus) lines.push('', l10n.t('Auto-fix: {0}', fixStatusWords(issue.fixStatus)));
  return lines.join('\n');
}

/** The hover's line of facts in Markdown: "Urgency: **High** · Status: open · …". */
export function hoverFactsMarkdown(issue: StoredIssue, facts: readonly FindingFact[] = FINDING_FACTS): string[] {
  return factsFor(issue, 'hover', facts).map(({ fact, words }) => {
    const text = escapeMarkdown(words);
    return `${fact.label}: ${fact.look === 'strong' ? `**${text}**` : fact.look === 'code' ? `\`${words.replace(/`/g, '')}\`` : text}`;
  });
}

/** The hover's facts laid out: short values on one line joined by " · ", sentences (ownLine) each on a line of their own. */
export function hoverFactLines(issue: StoredIssue, facts: readonly FindingFact[] = FINDING_FACTS): { inline: string[]; own: string[] } {
  const shown = factsFor(issue, 'hover', facts);
  const md = hoverFactsMarkdown(issue, facts);
  return { inline: md.filter((_, n) => !shown[n]!.fact.ownLine), own: md.filter((_, n) => shown[n]!.fact.ownLine) };
}

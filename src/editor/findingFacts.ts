// Small facts about a finding used by every surface (tree, hover, details view). No
// `vscode` import, so the details page can be tested in plain Node.
import type { StoredIssue } from '../core/issues';
import type { DismissReason } from './resultsStore';

export function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** The 1-based line a finding is at now (tracked through edits), else the service's line. */
export function currentLine(issue: StoredIssue): number {
  return issue.range ? issue.range.start.line + 1 : issue.line;
}

export const DISMISS_LABELS: Record<DismissReason, string> = {
  'false-positive': 'false positive',
  'accepted-risk': 'accepted risk',
  'wont-fix': "won't fix",
};

/** A count of 0 with "reachable" says nothing the word does not, so only a positive count is told. */
export function reachabilityText(issue: StoredIssue): string | undefined {
  if (issue.reachable === undefined) return undefined;
  if (!issue.reachable) return 'not reachable';
  return issue.endpointCount ? `reachable from ${issue.endpointCount} endpoint${issue.endpointCount === 1 ? '' : 's'}` : 'reachable';
}

import type { StoredIssue } from './model';
import { urgencyRank } from './severity';

export type GroupBy = 'file' | 'urgency' | 'classification';

export interface IssueGroup {
  key: string;
  label: string;
  count: number;
  issues: StoredIssue[];
}

function keyOf(issue: StoredIssue, by: GroupBy): { key: string; label: string } {
  switch (by) {
    case 'file': return { key: issue.path, label: issue.path };
    case 'urgency': return { key: issue.urgency, label: issue.urgency };
    case 'classification':
      return { key: issue.classificationId, label: `${issue.classificationId}: ${issue.classificationName}` };
  }
}

function currentLine(i: StoredIssue): number {
  return i.range ? i.range.start.line + 1 : i.line;
}

function compareGroups(by: GroupBy) {
  return (a: IssueGroup, b: IssueGroup): number => {
    if (by === 'urgency') return urgencyRank(a.key) - urgencyRank(b.key) || a.key.localeCompare(b.key);
    if (by === 'classification') return b.count - a.count || a.key.localeCompare(b.key);
    return a.key.localeCompare(b.key);
  };
}

/** Reachable first, then those the service did not judge, then unreachable. */
function reachRank(i: StoredIssue): number {
  return i.reachable === true ? 0 : i.reachable === undefined ? 1 : 2;
}

/** Inside a group: most urgent first, then reachable, then by file and line (what to look at first). */
export function compareIssues(a: StoredIssue, b: StoredIssue): number {
  return urgencyRank(a.urgency) - urgencyRank(b.urgency) || reachRank(a) - reachRank(b)
    || a.path.localeCompare(b.path) || currentLine(a) - currentLine(b) || a.id.localeCompare(b.id);
}

export function groupIssues(issues: readonly StoredIssue[], by: GroupBy): IssueGroup[] {
  const groups = new Map<string, IssueGroup>();
  for (const issue of issues) {
    const { key, label } = keyOf(issue, by);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, label, count: 0, issues: [] }));
    g.issues.push(issue);
    g.count++;
  }
  const out = [...groups.values()];
  for (const g of out) g.issues.sort(compareIssues);
  return out.sort(compareGroups(by));
}



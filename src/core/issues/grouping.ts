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

/** Inside a group: by file, then line, then most urgent, so the order matches reading order. */
function compareIssues(a: StoredIssue, b: StoredIssue): number {
  return a.path.localeCompare(b.path) || currentLine(a) - currentLine(b)
    || urgencyRank(a.urgency) - urgencyRank(b.urgency) || a.id.localeCompare(b.id);
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

export interface IssueFilter {
  /** Statuses to show; empty or undefined shows every status. */
  statuses?: readonly string[];
  hideFalsePositives?: boolean;
}

export function filterIssues(issues: readonly StoredIssue[], f: IssueFilter): StoredIssue[] {
  const statuses = f.statuses?.length ? new Set(f.statuses.map((s) => s.toLowerCase())) : undefined;
  return issues.filter((i) => (!statuses || statuses.has(i.status)) && !(f.hideFalsePositives && i.falsePositive));
}

// One table of what a finding says, read by every rendering of it: the tree's row (its
// description and accessible label), the Problems message, the details page, the hover,
// Copy Details, the agent tools and the SARIF export. A field of the service's
// finding that people or tools should see is one entry here (its label, its words, its
// data, where it shows); each rendering lays the entries out its own way. What each
// rendering shows around the table (title, location, triage, the fix) is its own.
import type { StoredIssue } from './model';
import { normalizeUrgency } from './severity';
import { slaWords, statusWords } from './words';
import { plural } from '../text/plural';

/** The places a finding is rendered. */
export type Rendering = 'row' | 'problems' | 'details' | 'hover' | 'clipboard' | 'agent' | 'sarif';

/** Where a tree row shows the finding: among the findings that would block CI, or as itself. */
export interface RowContext { pushCheck?: boolean }

export interface FindingFact {
  /** Its name for machines: the agent tools' field and the SARIF property. */
  readonly key: string;
  /** Its name for people. */
  readonly label: string;
  /** In words for people (known values in plain language); undefined when the finding has none. */
  words(issue: StoredIssue): string | undefined;
  /** As data for machines (agent tools, SARIF); undefined when the finding has none. */
  data(issue: StoredIssue): string | number | boolean | undefined;
  /** Where it shows. */
  readonly in: readonly Rendering[];
  /** How it looks where that matters: stressed, code (ids), or a point in time. */
  readonly look?: 'strong' | 'code' | 'time';
  /** A sentence rather than a value (a policy's guidance): in the hover, a line of its own. */
  readonly ownLine?: boolean;
  /** Its mark in a tree row, where a word or two must do (else its words). */
  mark?(issue: StoredIssue, on: RowContext): string | undefined;
}

const EVERYWHERE: readonly Rendering[] = ['details', 'hover', 'clipboard', 'agent', 'sarif'];
const MARKED: readonly Rendering[] = ['row', ...EVERYWHERE];
const NOT_HOVER: readonly Rendering[] = ['details', 'clipboard', 'agent', 'sarif'];

export function capitalize(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** The 1-based line a finding is at now (tracked through edits), else the service's line. */
export function currentLine(issue: StoredIssue): number {
  return issue.range ? issue.range.start.line + 1 : issue.line;
}

/** A count of 0 with "reachable" says nothing the word does not, so only a positive count is told. */
export function reachabilityText(issue: StoredIssue): string | undefined {
  if (issue.reachable === undefined) return undefined;
  if (!issue.reachable) return 'not reachable';
  return issue.endpointCount ? `reachable from ${plural(issue.endpointCount, 'endpoint')}` : 'reachable';
}

const blank = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v);

export const FINDING_FACTS: readonly FindingFact[] = [
  { key: 'urgency', label: 'Urgency', words: (i) => capitalize(normalizeUrgency(i.urgency)), data: (i) => normalizeUrgency(i.urgency), in: EVERYWHERE, look: 'strong' },
  { key: 'new', label: 'New', words: (i) => (i.isNew ? 'not found before the latest full scan' : undefined), data: (i) => (i.isNew ? true : undefined), in: MARKED, mark: () => 'new' },
  {
    key: 'policies', label: 'Violates policy',
    words: (i) => (i.policies?.length ? i.policies.map((p) => (p.guidance ? `${p.name} (${p.guidance})` : p.name)).join('; ') : undefined),
    data: (i) => (i.policies?.length ? i.policies.map((p) => p.name).join(', ') : undefined),
    in: MARKED,
    ownLine: true,
    // Among what would block CI, the approved policies it breaks; else how many it breaks.
    mark: (i, on) => (on.pushCheck
      ? `blocks CI: ${(i.policies ?? []).filter((p) => !p.unapproved).map((p) => p.name).join(', ')}`
      : `violates ${i.policies!.length === 1 ? 'a policy' : `${i.policies!.length} policies`}`),
  },
  { key: 'status', label: 'Status', words: (i) => statusWords(i.status), data: (i) => i.status, in: EVERYWHERE },
  { key: 'slaStatus', label: 'SLA status', words: (i) => (blank(i.slaStatus) ? slaWords(i.slaStatus!) : undefined), data: (i) => blank(i.slaStatus), in: EVERYWHERE },
  { key: 'reachable', label: 'Reachability', words: reachabilityText, data: (i) => i.reachable, in: MARKED, mark: (i) => (i.reachable ? 'reachable' : undefined) },
  {
    key: 'assignee', label: 'Assigned to',
    words: (i) => blank([i.assignee?.name, i.assignee?.email && `<${i.assignee.email}>`].filter(Boolean).join(' ')),
    data: (i) => blank(i.assignee?.email ?? i.assignee?.name),
    in: NOT_HOVER,
  },
  { key: 'createdAt', label: 'Found', words: (i) => blank(i.createdAt), data: (i) => blank(i.createdAt), in: NOT_HOVER, look: 'time' },
  { key: 'project', label: 'Project', words: (i) => blank(i.projectName), data: (i) => blank(i.projectName), in: NOT_HOVER },
  { key: 'branch', label: 'Branch', words: (i) => blank(i.branch), data: (i) => blank(i.branch), in: NOT_HOVER },
  { key: 'commit', label: 'Commit', words: (i) => blank(i.gitSha), data: (i) => blank(i.gitSha), in: NOT_HOVER, look: 'code' },
  // The rest of the row's marks: the details page, the hover and the others tell these their own way.
  { key: 'stale', label: 'Code changed', words: (i) => (i.stale ? 'code changed since the scan' : undefined), data: (i) => (i.stale ? true : undefined), in: ['row'] },
  { key: 'falsePositive', label: 'Auto-triage', words: (i) => (i.falsePositive ? 'likely false positive' : undefined), data: (i) => (i.falsePositive ? true : undefined), in: ['row'] },
];

/** The facts a rendering shows that this finding has, in the table's order, with their words. */
export function factsFor(issue: StoredIssue, rendering: Rendering, facts: readonly FindingFact[] = FINDING_FACTS): { fact: FindingFact; words: string }[] {
  return facts.flatMap((fact) => {
    if (!fact.in.includes(rendering)) return [];
    const words = fact.words(issue);
    return words === undefined ? [] : [{ fact, words }];
  });
}

/** The facts a rendering for machines shows, as `{ key: data }` (absent values left out). */
export function factData(issue: StoredIssue, rendering: 'agent' | 'sarif', facts: readonly FindingFact[] = FINDING_FACTS): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const fact of facts) {
    if (!fact.in.includes(rendering)) continue;
    const v = fact.data(issue);
    if (v !== undefined) out[fact.key] = v;
  }
  return out;
}

/** The facts as Copy Details writes them: one `Label: words` line each. */
export function factLines(issue: StoredIssue, facts: readonly FindingFact[] = FINDING_FACTS): string[] {
  return factsFor(issue, 'clipboard', facts).map(({ fact, words }) => `${fact.label}: ${words}`);
}

/** A tree row's marks ("new", "violates a policy", "reachable"...), in the table's order. */
export function rowMarks(issue: StoredIssue, on: RowContext = {}, facts: readonly FindingFact[] = FINDING_FACTS): string[] {
  return factsFor(issue, 'row', facts).flatMap(({ fact, words }) => {
    const mark = fact.mark ? fact.mark(issue, on) : words;
    return mark ? [mark] : [];
  });
}

/**
 * The Problems panel's message: a likely false positive says so first, then the finding's
 * name, urgency and description, then the table's facts for Problems.
 */
export function problemsMessage(issue: StoredIssue, facts: readonly FindingFact[] = FINDING_FACTS): string {
  const prefix = issue.falsePositive ? 'Likely false positive: ' : '';
  const detail = issue.classificationDescription ? ` — ${issue.classificationDescription}` : '';
  const more = factsFor(issue, 'problems', facts).map(({ fact, words }) => ` · ${fact.label}: ${words}`).join('');
  return `${prefix}${issue.classificationName} (${issue.urgency})${detail}${more}`;
}

/** "CWE-798" read as "CWE 798" rather than "CWE minus 798". */
export function spokenId(id: string): string {
  return id.replace(/-/g, ' ');
}

/**
 * A finding's row in the tree: its label (urgency and line first, as a narrow side bar cuts
 * the rest), its description and what a screen reader says (the marks a sighted user sees).
 * `dismissed`: the local dismissal's words, the one mark that is not the finding's own.
 */
export function findingRow(issue: StoredIssue, o: { groupBy: string; pushCheck?: boolean; dismissed?: string; facts?: readonly FindingFact[] }): { label: string; description: string; accessibleLabel: string } {
  const line = currentLine(issue);
  const where = o.groupBy === 'file' ? `line ${line}` : `${issue.path.slice(issue.path.lastIndexOf('/') + 1)}:${line}`;
  const label = o.groupBy === 'urgency' ? where : `${capitalize(issue.urgency)} · ${where}`;
  const marks = [...rowMarks(issue, { pushCheck: o.pushCheck }, o.facts), ...(o.dismissed ? [`dismissed: ${o.dismissed}`] : [])];
  return {
    label,
    description: [issue.classificationName, issue.classificationId, ...marks].join(' · '),
    accessibleLabel: [`${capitalize(issue.urgency)} ${issue.classificationName}`, spokenId(issue.classificationId), `${issue.path} line ${line}`, ...marks].filter(Boolean).join(', '),
  };
}

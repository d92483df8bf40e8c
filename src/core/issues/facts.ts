// One table of what a finding says, read by every rendering of it: the details page, the
// hover, Copy Details, the agent tools and the SARIF export. A field of the service's
// finding that people or tools should see is one entry here (its label, its words, its
// data, where it shows); each rendering lays the entries out its own way. What each
// rendering shows around the table (title, location, triage, the fix) is its own.
import type { StoredIssue } from './model';
import { normalizeUrgency } from './severity';
import { slaWords, statusWords } from './words';
import { plural } from '../text/plural';

/** The places a finding is rendered. */
export type Rendering = 'details' | 'hover' | 'clipboard' | 'agent' | 'sarif';

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
}

const EVERYWHERE: readonly Rendering[] = ['details', 'hover', 'clipboard', 'agent', 'sarif'];
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
  { key: 'new', label: 'New', words: (i) => (i.isNew ? 'not found before the latest full scan' : undefined), data: (i) => (i.isNew ? true : undefined), in: EVERYWHERE },
  {
    key: 'policies', label: 'Violates policy',
    words: (i) => (i.policies?.length ? i.policies.map((p) => (p.guidance ? `${p.name} (${p.guidance})` : p.name)).join('; ') : undefined),
    data: (i) => (i.policies?.length ? i.policies.map((p) => p.name).join(', ') : undefined),
    in: EVERYWHERE,
    ownLine: true,
  },
  { key: 'status', label: 'Status', words: (i) => statusWords(i.status), data: (i) => i.status, in: EVERYWHERE },
  { key: 'slaStatus', label: 'SLA status', words: (i) => (blank(i.slaStatus) ? slaWords(i.slaStatus!) : undefined), data: (i) => blank(i.slaStatus), in: EVERYWHERE },
  { key: 'reachable', label: 'Reachability', words: reachabilityText, data: (i) => i.reachable, in: EVERYWHERE },
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

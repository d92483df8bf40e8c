// One table of what a finding says, read by every rendering of it: the tree's row (its
// description and accessible label), the Problems message, the details page, the hover,
// Copy Details, the agent tools and the SARIF export. A field of the service's
// finding that people or tools should see is one entry here (its label, its words, its
// data, where it shows); each rendering lays the entries out its own way. What each
// rendering shows around the table (title, location, triage, the fix) is its own.
import type { StoredIssue } from './model';
import { normalizeUrgency } from './severity';
import { slaWords, statusWords, urgencyLabel } from './words';
import { kindLabel, kindOf } from './kinds';
import { l10n, plural } from '../text/l10n';

/** The places a finding is rendered. */
export type Rendering = 'row' | 'problems' | 'details' | 'hover' | 'clipboard' | 'agent' | 'sarif';

/** Where a tree row shows the finding: among the findings that would block CI, or as itself; in which grouping. */
export interface RowContext { pushCheck?: boolean; groupBy?: string }

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
  /** In Problems, before the finding's name rather than after it (its list: "Security · SQL Injection…"). */
  readonly lead?: boolean;
}

const EVERYWHERE: readonly Rendering[] = ['details', 'hover', 'clipboard', 'agent', 'sarif'];
const MARKED: readonly Rendering[] = ['row', ...EVERYWHERE];
const NOT_HOVER: readonly Rendering[] = ['details', 'clipboard', 'agent', 'sarif'];
const WITH_PROBLEMS: readonly Rendering[] = ['problems', ...EVERYWHERE];
const MARKED_WITH_PROBLEMS: readonly Rendering[] = ['row', ...WITH_PROBLEMS];
const FOR_MACHINES: readonly Rendering[] = ['agent', 'sarif'];

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
  if (!issue.reachable) return l10n.t('not reachable');
  return issue.endpointCount ? l10n.t('reachable from {0}', plural(issue.endpointCount, l10n.t('{0} endpoint'), l10n.t('{0} endpoints'))) : l10n.t('reachable');
}

const blank = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v);

export const FINDING_FACTS: readonly FindingFact[] = [
  // Which of the service's lists: security, code quality or dependencies.
  {
    key: 'kind', get label() { return l10n.t('Kind'); }, words: (i) => kindLabel(kindOf(i)), data: (i) => kindOf(i), in: MARKED_WITH_PROBLEMS, lead: true,
    // Grouped by kind, the group says it.
    mark: (i, on) => (on.groupBy === 'kind' ? undefined : kindLabel(kindOf(i))),
  },
  { key: 'urgency', get label() { return l10n.t('Urgency'); }, words: (i) => urgencyLabel(i.urgency), data: (i) => normalizeUrgency(i.urgency), in: EVERYWHERE, look: 'strong' },
  { key: 'new', get label() { return l10n.t('New'); }, words: (i) => (i.isNew ? l10n.t('not found before the latest full scan') : undefined), data: (i) => (i.isNew ? true : undefined), in: MARKED, mark: () => l10n.t('new') },
  {
    key: 'policies', get label() { return l10n.t('Violates policy'); },
    words: (i) => (i.policies?.length ? i.policies.map((p) => (p.guidance ? `${p.name} (${p.guidance})` : p.name)).join('; ') : undefined),
    data: (i) => (i.policies?.length ? i.policies.map((p) => p.name).join(', ') : undefined),
    in: MARKED,
    ownLine: true,
    // Among what would block CI by the policies, the approved ones it breaks; else how many it breaks.
    mark: (i, on) => (on.pushCheck && !i.blocksCi
      ? l10n.t('blocks CI: {0}', (i.policies ?? []).filter((p) => !p.unapproved).map((p) => p.name).join(', '))
      : plural(i.policies!.length, l10n.t('violates a policy'), l10n.t('violates {0} policies'))),
  },
  {
    key: 'newInBranch', get label() { return l10n.t('New in this branch'); },
    words: (i) => (i.newInBranch ? l10n.t('not in the scan of the commit this branch started from') : undefined),
    data: (i) => (i.newInBranch ? true : undefined), in: MARKED, mark: () => l10n.t('new in this branch'),
  },
  // Among what would block CI by its gate: the rules it trips.
  {
    key: 'blocksCi', get label() { return l10n.t('Blocks CI'); },
    words: (i) => (i.blocksCi?.length ? i.blocksCi.join(', ') : undefined),
    data: (i) => (i.blocksCi?.length ? i.blocksCi.join(', ') : undefined),
    in: MARKED,
    mark: (i) => l10n.t('blocks CI: {0}', i.blocksCi!.join(', ')),
  },
  // A dependency finding: its package, what fixes it, whether it is malicious.
  {
    key: 'malicious', get label() { return l10n.t('Malicious'); },
    words: (i) => (i.dependency?.malicious ? l10n.t('a malicious package: remove it and check what it ran') : undefined),
    data: (i) => (i.dependency?.malicious ? true : undefined), in: MARKED_WITH_PROBLEMS, mark: () => l10n.t('malicious'),
  },
  {
    key: 'package', get label() { return l10n.t('Package'); },
    words: (i) => (i.dependency ? [i.dependency.name, i.dependency.version].filter(Boolean).join(' ') : undefined),
    data: (i) => i.dependency?.name, in: WITH_PROBLEMS,
  },
  { key: 'installedVersion', get label() { return l10n.t('Installed version'); }, words: (i) => i.dependency?.version, data: (i) => i.dependency?.version, in: FOR_MACHINES },
  { key: 'ecosystem', get label() { return l10n.t('Ecosystem'); }, words: (i) => blank(i.dependency?.ecosystem), data: (i) => blank(i.dependency?.ecosystem), in: EVERYWHERE },
  { key: 'cve', get label() { return l10n.t('CVE'); }, words: (i) => blank(i.dependency?.cve), data: (i) => blank(i.dependency?.cve), in: EVERYWHERE, look: 'code' },
  {
    key: 'fixVersion', get label() { return l10n.t('Fixed in'); },
    words: (i) => (blank(i.dependency?.fixVersion) ? l10n.t('upgrade to {0}', i.dependency!.fixVersion!) : undefined),
    data: (i) => blank(i.dependency?.fixVersion), in: MARKED_WITH_PROBLEMS,
  },
  { key: 'status', get label() { return l10n.t('Status'); }, words: (i) => (blank(i.status) ? statusWords(i.status) : undefined), data: (i) => blank(i.status), in: EVERYWHERE },
  { key: 'slaStatus', get label() { return l10n.t('SLA status'); }, words: (i) => (blank(i.slaStatus) ? slaWords(i.slaStatus!) : undefined), data: (i) => blank(i.slaStatus), in: EVERYWHERE },
  { key: 'reachable', get label() { return l10n.t('Reachability'); }, words: reachabilityText, data: (i) => i.reachable, in: MARKED, mark: (i) => (i.reachable ? l10n.t('reachable') : undefined) },
  {
    key: 'assignee', get label() { return l10n.t('Assigned to'); },
    words: (i) => blank([i.assignee?.name, i.assignee?.email && `<${i.assignee.email}>`].filter(Boolean).join(' ')),
    data: (i) => blank(i.assignee?.email ?? i.assignee?.name),
    in: NOT_HOVER,
  },
  { key: 'createdAt', get label() { return l10n.t('Found'); }, words: (i) => blank(i.createdAt), data: (i) => blank(i.createdAt), in: NOT_HOVER, look: 'time' },
  { key: 'project', get label() { return l10n.t('Project'); }, words: (i) => blank(i.projectName), data: (i) => blank(i.projectName), in: NOT_HOVER },
  { key: 'branch', get label() { return l10n.t('Branch'); }, words: (i) => blank(i.branch), data: (i) => blank(i.branch), in: NOT_HOVER },
  { key: 'commit', get label() { return l10n.t('Commit'); }, words: (i) => blank(i.gitSha), data: (i) => blank(i.gitSha), in: NOT_HOVER, look: 'code' },
  { key: 'explanation', get label() { return l10n.t('Explanation'); }, words: (i) => blank(i.explanation), data: (i) => blank(i.explanation), in: EVERYWHERE, ownLine: true },
  // The rest of the row's marks: the details page, the hover and the others tell these their own way.
  { key: 'stale', get label() { return l10n.t('Code changed'); }, words: (i) => (i.stale ? l10n.t('code changed since the scan') : undefined), data: (i) => (i.stale ? true : undefined), in: ['row'] },
  { key: 'falsePositive', label: 'Auto-triage', words: (i) => (i.falsePositive ? l10n.t('likely false positive') : undefined), data: (i) => (i.falsePositive ? true : undefined), in: ['row'] },
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
  const prefix = issue.falsePositive ? l10n.t('Likely false positive: ') : '';
  const detail = issue.classificationDescription ? ` — ${issue.classificationDescription}` : '';
  const shown = factsFor(issue, 'problems', facts);
  const lead = shown.filter(({ fact }) => fact.lead).map(({ words }) => `${words} · `).join('');
  const more = shown.filter(({ fact }) => !fact.lead).map(({ fact, words }) => ` · ${fact.label}: ${words}`).join('');
  return `${prefix}${lead}${issue.classificationName} (${urgencyLabel(issue.urgency)})${detail}${more}`;
}

/** "CWE-798" read as "CWE 798" rather than "CWE minus 798". */
export function spokenId(id: string): string {
  return id.replace(/-/g, ' ');
}

/**
 * A finding's row in the tree: its label (urgency and line first, as a narrow side bar cuts
 * the rest), its description and what a screen reader says (the marks a sighted user sees).
 * `dismissed`: the local dismissal's words; `note`: what the check of a fix says of it (the
 * two marks that are not the finding's own).
 */
export function findingRow(issue: StoredIssue, o: { groupBy: string; pushCheck?: boolean; dismissed?: string; note?: string; facts?: readonly FindingFact[] }): { label: string; description: string; accessibleLabel: string } {
  const line = currentLine(issue);
  const where = o.groupBy === 'file' ? l10n.t('line {0}', line) : `${issue.path.slice(issue.path.lastIndexOf('/') + 1)}:${line}`;
  const label = o.groupBy === 'urgency' ? where : `${urgencyLabel(issue.urgency)} · ${where}`;
  const marks = [...rowMarks(issue, { pushCheck: o.pushCheck, groupBy: o.groupBy }, o.facts), ...(o.dismissed ? [l10n.t('dismissed: {0}', o.dismissed)] : []), ...(o.note ? [o.note] : [])];
  return {
    label,
    description: [issue.classificationName, issue.classificationId, ...marks].join(' · '),
    accessibleLabel: [`${urgencyLabel(issue.urgency)} ${issue.classificationName}`, spokenId(issue.classificationId), l10n.t('{0} line {1}', issue.path, line), ...marks].filter(Boolean).join(', '),
  };
}

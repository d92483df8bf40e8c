// Would CI block this? By CI's own gate where the repository's CI configuration (or the
// setting codeScanner.ciGate) names one (decisions.md, "Every list the service keeps, and
// CI's own gate"): the service's blocking rules (`--block-on`, `--fail`), or `--fail-on`
// judged as the CLI judges it. With no gate found, the rule of "Before push, and agents": a
// finding blocks when it violates a company policy that is not `approved: false`, and the
// verdict says that the policies decided. "Blocked" or "clear" only from a completed scan of
// what would leave the machine, read whole; anything else is "unknown" with its reason and
// what helps. Never "would pass" when it could not check.
import { kindOf, serviceIdOf, type FindingKind, type PolicyViolation, type StoredIssue } from '../issues';
import type { OutgoingKind } from '../workspace/outgoing';
import type { CiGate } from '../workspace/ciGate';
import { failOnTrips } from './failOn';
import type { ServiceGateOutcome } from './serviceGate';
import { l10n, listWords, plural } from '../text/l10n';

/** Why the verdict is unknown. */
export type UnknownReason = 'signed-out' | 'no-policies' | 'policies-unreadable' | 'scan-failed' | 'incomplete' | 'unreachable' | 'not-checked' | 'nothing-to-check'
  | 'gate-unreadable' | 'gate-refused' | 'gate-pending';

/** CI's gate and where it was read: a CI configuration file's line, or the setting. */
export interface JudgedGate {
  gate: CiGate;
  source: { from: 'ci'; file: string; line: number } | { from: 'setting' };
}

/** The commit judged whole, as CI scans it: by a new clean scan of it, or the service's own scan of it (reused). */
export interface JudgedCommit { sha: string; reused: boolean }

export type PushVerdict =
  | {
    kind: 'blocked'; what: OutgoingKind; blocking: { issue: StoredIssue; policies: PolicyViolation[]; rules?: string[] }[]; files: number; gate?: JudgedGate; count?: number; commit?: JudgedCommit;
    /** How many of the blocking findings this branch introduces (branchNew.ts), or why that is unknown. */
    branch?: { introduced: number } | { unknown: string };
  }
  | { kind: 'clear'; what: OutgoingKind; files: number; gate?: JudgedGate; commit?: JudgedCommit }
  | { kind: 'unknown'; what: OutgoingKind; reason: UnknownReason; detail?: string; gate?: JudgedGate };

/** The policies that make a finding block: those it violates that are not unapproved. */
export function blockingPolicies(issue: StoredIssue): PolicyViolation[] {
  return (issue.policies ?? []).filter((p) => !p.unapproved);
}

export interface VerdictFacts {
  what: OutgoingKind;
  /** How many files were sent (after what the scan leaves out). */
  files: number;
  /** The findings of the completed scan of those files, matched against the policies. */
  findings: readonly StoredIssue[];
  /** How many active policies the findings were matched against: undefined when not readable. */
  policies: number | undefined;
  /**
   * What the check did not see, in words: a list of findings that could not be read, a
   * problem the service reported with the scan, a file left out of it. Nothing unseen passes.
   */
  incomplete?: string;
  /** CI's gate, when one was found: it decides instead of the policies. */
  gate?: JudgedGate;
  /** The service's answer for a `--block-on` or `--fail` gate. */
  service?: ServiceGateOutcome;
  /** The whole commit was judged (Check Branch Before Push with CI's gate), not the changed files. */
  commit?: JudgedCommit;
}

/** The gate's flags as CI's command gives them. */
export function gateFlags(g: CiGate): string {
  switch (g.kind) {
    case 'block-on': return `--block-on ${g.slugs.join(',')}`;
    case 'fail': return '--fail';
    case 'fail-on': return `--fail-on ${[g.threshold, g.malicious ? 'malicious' : undefined].filter(Boolean).join(',')}`;
    default: return 'corgea scan';
  }
}

/** Where the gate was read, in words. */
export function gateWhere(j: JudgedGate): string {
  return j.source.from === 'ci' ? `${j.source.file}:${j.source.line}` : l10n.t('the setting {0}', 'codeScanner.ciGate');
}

/** The finding the service named by its own id: a security finding first, as the gate's lists rank. */
const LIST_ORDER: FindingKind[] = ['security', 'dependency', 'quality'];
function findingNamed(findings: readonly StoredIssue[], id: string): StoredIssue | undefined {
  const named = findings.filter((i) => serviceIdOf(i) === id);
  return named.sort((a, b) => LIST_ORDER.indexOf(kindOf(a)) - LIST_ORDER.indexOf(kindOf(b)))[0];
}

function byGate(f: VerdictFacts, j: JudgedGate): PushVerdict {
  const base = { what: f.what, gate: j, ...(f.commit ? { commit: f.commit } : {}) };
  const passes = (): PushVerdict => (f.incomplete ? { kind: 'unknown', ...base, reason: 'incomplete', detail: f.incomplete } : { kind: 'clear', ...base, files: f.files });
  const g = j.gate;
  switch (g.kind) {
    case 'unreadable':
      return { kind: 'unknown', ...base, reason: 'gate-unreadable', detail: l10n.t('CI\'s gate ({0}) cannot be read: {1}', gateWhere(j), g.why) };
    case 'none':
      // CI runs the scan and never fails on what it finds.
      return { kind: 'clear', ...base, files: f.files };
    case 'fail-on': {
      const trips = failOnTrips(g, f.findings);
      if (trips.length) return { kind: 'blocked', ...base, files: f.files, count: trips.length, blocking: trips.map((issue) => ({ issue, policies: [], rules: [gateFlags(g)] })) };
      return passes();
    }
    default: {
      const s = f.service;
      if (!s) return { kind: 'unknown', ...base, reason: 'not-checked' };
      if (s.kind === 'refused') {
        const parts = [
          s.unknown.length ? l10n.t('no rule named {0}', listWords(s.unknown)) : '',
          s.inactive.length ? l10n.t('{0} not active', listWords(s.inactive)) : '',
          s.nonCi.length ? l10n.t('{0} not scoped to CI', listWords(s.nonCi)) : '',
        ].filter(Boolean);
        const why = parts.length ? parts.join('; ') : (s.message?.replace(/[.\s]+$/, '') ?? l10n.t('no reason given'));
        return { kind: 'unknown', ...base, reason: 'gate-refused', detail: l10n.t('the service refuses CI\'s gate {0} ({1}): {2}, so CI would stop there too', gateFlags(g), gateWhere(j), why) };
      }
      if (s.kind === 'not-ready') return { kind: 'unknown', ...base, reason: 'gate-pending', detail: l10n.t('the service had not finished judging the scan after {0} minutes (it said "{1}")', Math.round(s.waitedMs / 60_000), s.status) };
      if (!s.block) return passes();
      const blocking = s.issues.flatMap((b) => {
        const issue = findingNamed(f.findings, b.id);
        return issue ? [{ issue, policies: [], rules: b.slugs.length ? b.slugs : b.rules }] : [];
      });
      return { kind: 'blocked', ...base, files: f.files, count: Math.max(s.blocked, blocking.length), blocking };
    }
  }
}

export function pushVerdict(f: VerdictFacts): PushVerdict {
  if (f.gate) return byGate(f, f.gate);
  if (f.policies === undefined) return { kind: 'unknown', what: f.what, reason: 'policies-unreadable' };
  if (f.policies === 0) return { kind: 'unknown', what: f.what, reason: 'no-policies' };
  const blocking = f.findings.map((issue) => ({ issue, policies: blockingPolicies(issue) })).filter((b) => b.policies.length);
  if (blocking.length) return { kind: 'blocked', what: f.what, blocking, files: f.files };
  // What was read blocks nothing; what was not read might.
  return f.incomplete ? { kind: 'unknown', what: f.what, reason: 'incomplete', detail: f.incomplete } : { kind: 'clear', what: f.what, files: f.files };
}

/** How to act on an unknown verdict, in words. */
const HELP: Record<UnknownReason, string> = {
  get 'signed-out'() { return l10n.t('sign in (Code Scanner: Sign In) and check again'); },
  get 'no-policies'() { return l10n.t('your company has no active policies on the service, so nothing tells what CI blocks; ask whoever manages them'); },
  get 'policies-unreadable'() { return l10n.t('the service does not let this account read the company\'s policies, so nothing tells what CI blocks; ask for the permission or check in CI'); },
  get 'scan-failed'() { return l10n.t('check again; if it keeps failing, see Show Log'); },
  get incomplete() { return l10n.t('check again; if it keeps failing, see Show Log'); },
  get unreachable() { return l10n.t('check your connection (Code Scanner: Check Connection) and check again'); },
  get 'not-checked'() { return l10n.t('check again'); },
  get 'nothing-to-check'() { return l10n.t('stage or commit a change, then check'); },
  get 'gate-unreadable'() { return l10n.t('set {0} to the flags CI\'s scan uses (for example {1}) and check again', 'codeScanner.ciGate', '--block-on criticals'); },
  get 'gate-refused'() { return l10n.t('correct the rules in the service\'s web app (its blocking rules) or CI\'s {0}, then check again', '--block-on'); },
  get 'gate-pending'() { return l10n.t('check again in a few minutes'); },
};

/** How many blocking findings the branch brought, in words. */
function branchWords(b: { introduced: number } | { unknown: string }): string {
  if ('unknown' in b) return l10n.t('Which of them this branch introduces is unknown: {0}.', b.unknown);
  return b.introduced === 0 ? l10n.t('They were all there before this branch.') : plural(b.introduced, l10n.t('This branch introduces {0} of them.'), l10n.t('This branch introduces {0} of them.'));
}

/** A commit as git shows it in one line. */
const short = (sha: string) => sha.slice(0, 7);

/** A gated verdict in one line: the gate and where it was read are named. */
function gatedText(v: PushVerdict, j: JudgedGate): string {
  const flags = gateFlags(j.gate);
  const where = gateWhere(j);
  switch (v.kind) {
    case 'blocked': {
      const rules = [...new Set(v.blocking.flatMap((b) => b.rules ?? []))];
      const n = v.count ?? v.blocking.length;
      const head = j.gate.kind === 'fail-on' || !rules.length
        ? plural(n, l10n.t('CI would block: {0} finding trips {1} ({2}).'), l10n.t('CI would block: {0} findings trip {1} ({2}).'), flags, where)
        : plural(n, l10n.t('CI would block: {0} finding breaks {1} ({2} in {3}).'), l10n.t('CI would block: {0} findings break {1} ({2} in {3}).'), listWords(rules), flags, where);
      if (!v.commit) return head;
      const on = v.commit.reused ? l10n.t('Judged on the service\'s own scan of commit {0}.', short(v.commit.sha)) : l10n.t('Judged on commit {0}, all its files, as CI scans it.', short(v.commit.sha));
      return [head, on, v.branch ? branchWords(v.branch) : ''].filter(Boolean).join(' ');
    }
    case 'clear':
      if (j.gate.kind === 'none') return l10n.t('CI would pass: its scan ({0}) has no {1}, {2} or {3}, so findings never fail it.', where, '--block-on', '--fail', '--fail-on');
      if (v.commit?.reused) return l10n.t('CI would pass {0} ({1}) on commit {2}, judged on the service\'s own scan of it.', flags, where, short(v.commit.sha));
      if (v.commit) return plural(v.files, l10n.t('CI would pass {1} ({2}) on commit {3}, its {0} file, as CI scans it.'), l10n.t('CI would pass {1} ({2}) on commit {3}, its {0} files, as CI scans it.'), flags, where, short(v.commit.sha));
      return v.what === 'staged'
        ? plural(v.files, l10n.t('CI would pass {1} ({2}) on the {0} staged file. This covers the staged files only.'), l10n.t('CI would pass {1} ({2}) on the {0} staged files. This covers the staged files only.'), flags, where)
        : plural(v.files, l10n.t('CI would pass {1} ({2}) on the {0} changed file.'), l10n.t('CI would pass {1} ({2}) on the {0} changed files.'), flags, where);
    default:
      return '';
  }
}

/** The verdict in one line a person acts on. */
export function verdictText(v: PushVerdict): string {
  if (v.gate && v.kind !== 'unknown') return gatedText(v, v.gate);
  // Judged by the policies: said so, for CI may gate otherwise.
  const byPolicies = v.kind !== 'unknown' ? ` ${l10n.t('No CI gate was found in the repository, so the company\'s policies decide.')}` : '';
  return `${policyText(v)}${byPolicies}`;
}

function policyText(v: PushVerdict): string {
  switch (v.kind) {
    case 'blocked': {
      const byPolicy = new Map<string, number>();
      for (const b of v.blocking) for (const p of b.policies) byPolicy.set(p.name, (byPolicy.get(p.name) ?? 0) + 1);
      const names = [...byPolicy].sort((a, b) => b[1] - a[1]).map(([name, n]) => (byPolicy.size > 1 ? `${name} (${n})` : name));
      return plural(v.blocking.length, l10n.t('CI would block: {0} finding violates {1}.'), l10n.t('CI would block: {0} findings violate {1}.'), listWords(names));
    }
    case 'clear':
      return v.what === 'staged'
        ? plural(v.files, l10n.t('No policy violations in the {0} staged file.'), l10n.t('No policy violations in the {0} staged files.'))
        : plural(v.files, l10n.t('No policy violations in the {0} changed file.'), l10n.t('No policy violations in the {0} changed files.'));
    case 'unknown':
      return l10n.t('Unknown whether CI would block this: {0}. To know, {1}.', v.detail ?? UNKNOWN_WORDS[v.reason], HELP[v.reason]);
  }
}

const UNKNOWN_WORDS: Record<UnknownReason, string> = {
  get 'signed-out'() { return l10n.t('you are not signed in'); },
  get 'no-policies'() { return l10n.t('there are no policies to check against'); },
  get 'policies-unreadable'() { return l10n.t('the company\'s policies could not be read'); },
  get 'scan-failed'() { return l10n.t('the scan did not complete'); },
  get incomplete() { return l10n.t('the check did not see everything that would leave the machine'); },
  get unreachable() { return l10n.t('the service could not be reached'); },
  get 'not-checked'() { return l10n.t('the check did not run'); },
  get 'nothing-to-check'() { return l10n.t('nothing would leave the machine'); },
  get 'gate-unreadable'() { return l10n.t('CI\'s gate could not be read'); },
  get 'gate-refused'() { return l10n.t('the service refuses CI\'s gate'); },
  get 'gate-pending'() { return l10n.t('the service did not finish judging the scan'); },
};

// Would CI block this? (decisions.md, "Before push, and agents"): a finding blocks when it
// violates a company policy as the policy matching defines it and that policy is not
// `approved: false`. The verdict is "blocked" or "clear" only from a completed scan of what
// would leave the machine, read whole, with the company's policies known; anything else is
// "unknown" with its reason and what helps. Never "would pass" when it could not check.
import type { PolicyViolation, StoredIssue } from '../issues';
import type { OutgoingKind } from '../workspace/outgoing';
import { l10n, listWords, plural } from '../text/l10n';

/** Why the verdict is unknown. */
export type UnknownReason = 'signed-out' | 'no-policies' | 'policies-unreadable' | 'scan-failed' | 'incomplete' | 'unreachable' | 'not-checked' | 'nothing-to-check';

export type PushVerdict =
  | { kind: 'blocked'; what: OutgoingKind; blocking: { issue: StoredIssue; policies: PolicyViolation[] }[]; files: number }
  | { kind: 'clear'; what: OutgoingKind; files: number }
  | { kind: 'unknown'; what: OutgoingKind; reason: UnknownReason; detail?: string };

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
}

export function pushVerdict(f: VerdictFacts): PushVerdict {
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
};

/** The verdict in one line a person acts on. */
export function verdictText(v: PushVerdict): string {
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
};

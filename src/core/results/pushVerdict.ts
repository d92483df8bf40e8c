// Would CI block this? (decisions.md, "Before push, and agents"): a finding blocks when it
// violates a company policy as the policy matching defines it and that policy is not
// `approved: false`. The verdict is "blocked" or "clear" only from a completed scan of what
// would leave the machine, read whole, with the company's policies known; anything else is
// "unknown" with its reason and what helps. Never "would pass" when it could not check.
import type { PolicyViolation, StoredIssue } from '../issues';
import { listWords, plural } from '../text/plural';
import type { OutgoingKind } from '../workspace/outgoing';

/** Why the verdict is unknown. */
export type UnknownReason = 'signed-out' | 'no-policies' | 'policies-unreadable' | 'scan-failed' | 'unreachable' | 'not-checked' | 'nothing-to-check';

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
}

export function pushVerdict(f: VerdictFacts): PushVerdict {
  if (f.policies === undefined) return { kind: 'unknown', what: f.what, reason: 'policies-unreadable' };
  if (f.policies === 0) return { kind: 'unknown', what: f.what, reason: 'no-policies' };
  const blocking = f.findings.map((issue) => ({ issue, policies: blockingPolicies(issue) })).filter((b) => b.policies.length);
  return blocking.length ? { kind: 'blocked', what: f.what, blocking, files: f.files } : { kind: 'clear', what: f.what, files: f.files };
}

const WHAT: Record<OutgoingKind, string> = { staged: 'staged', branch: 'changed' };

/** How to act on an unknown verdict, in words. */
const HELP: Record<UnknownReason, string> = {
  'signed-out': 'sign in (Code Scanner: Sign In) and check again',
  'no-policies': 'your company has no active policies on the service, so nothing tells what CI blocks; ask whoever manages them',
  'policies-unreadable': 'the service does not let this account read the company\'s policies, so nothing tells what CI blocks; ask for the permission or check in CI',
  'scan-failed': 'check again; if it keeps failing, see Show Log',
  unreachable: 'check your connection (Code Scanner: Check Connection) and check again',
  'not-checked': 'check again',
  'nothing-to-check': 'stage or commit a change, then check',
};

/** The verdict in one line a person acts on. */
export function verdictText(v: PushVerdict): string {
  switch (v.kind) {
    case 'blocked': {
      const byPolicy = new Map<string, number>();
      for (const b of v.blocking) for (const p of b.policies) byPolicy.set(p.name, (byPolicy.get(p.name) ?? 0) + 1);
      const names = [...byPolicy].sort((a, b) => b[1] - a[1]).map(([name, n]) => (byPolicy.size > 1 ? `${name} (${n})` : name));
      return `CI would block: ${plural(v.blocking.length, 'finding')} ${v.blocking.length === 1 ? 'violates' : 'violate'} ${listWords(names)}.`;
    }
    case 'clear':
      return `No policy violations in the ${plural(v.files, `${WHAT[v.what]} file`)}.`;
    case 'unknown':
      return `Unknown whether CI would block this: ${v.detail ?? UNKNOWN_WORDS[v.reason]}. To know, ${HELP[v.reason]}.`;
  }
}

const UNKNOWN_WORDS: Record<UnknownReason, string> = {
  'signed-out': 'you are not signed in',
  'no-policies': 'there are no policies to check against',
  'policies-unreadable': 'the company\'s policies could not be read',
  'scan-failed': 'the scan did not complete',
  unreachable: 'the service could not be reached',
  'not-checked': 'the check did not run',
  'nothing-to-check': 'nothing would leave the machine',
};

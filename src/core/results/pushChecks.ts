// Each folder's last check before a push, kept across reloads in the workspace's state (the
// verdict stands until what was checked changes, and a reload changes nothing of that). Read
// back as any stored state is: checked record by record, a record that does not read left
// out, never trusted to open a file outside its folder.
import { STATE_KEYS } from '../persist/stateKeys';
import { z } from 'zod';
import type { StoredIssue } from '../issues';
import type { OutgoingKind } from '../workspace/outgoing';
import { isInsideFolder } from '../workspace/insideFolder';
import type { PushVerdict } from './pushVerdict';
import { readStoredIssue } from './storage';

export const PUSH_CHECKS_KEY = STATE_KEYS.pushChecks.key;

/** A folder's check before a push: the verdict and the blocking findings as the views show them. */
export interface StoredPushCheck {
  what: OutgoingKind;
  verdict: PushVerdict;
  /** What was checked exactly (outgoing.ts): the verdict stands while it is the same. */
  identity: string;
  /** When the check ended. */
  at: string;
  /** The findings that block, placed in the files as they were then. */
  issues: StoredIssue[];
  /** The checked content has changed since (a new commit, a staged change): the verdict is old. */
  outdated?: boolean;
}

const what = z.enum(['staged', 'branch']);
const text = z.string().max(10_000);
const gateSchema = z.object({
  gate: z.looseObject({ kind: z.enum(['block-on', 'fail', 'fail-on', 'none', 'unreadable']) }),
  source: z.union([
    z.object({ from: z.literal('ci'), file: z.string().max(4096).refine(isInsideFolder), line: z.number().int().min(1) }),
    z.object({ from: z.literal('setting') }),
  ]),
});
const commit = z.object({ sha: z.string().regex(/^[0-9a-f]{40,64}$/), reused: z.boolean() });
const common = { what, gate: gateSchema.optional(), commit: commit.optional() };
const verdictSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('blocked'), ...common, files: z.number().int().min(0), count: z.number().int().min(0).optional(), blocking: z.array(z.looseObject({ issue: z.unknown(), policies: z.array(z.looseObject({ id: z.number(), name: text })), rules: z.array(text).optional() })) }),
  z.looseObject({ kind: z.literal('clear'), ...common, files: z.number().int().min(0) }),
  z.looseObject({
    kind: z.literal('unknown'), what, gate: gateSchema.optional(), detail: text.optional(),
    reason: z.enum(['signed-out', 'no-policies', 'policies-unreadable', 'scan-failed', 'incomplete', 'unreachable', 'not-checked', 'nothing-to-check', 'gate-unreadable', 'gate-refused', 'gate-pending']),
  }),
]);
const recordSchema = z.object({ what, verdict: verdictSchema, identity: z.string().max(1000), at: z.string().max(100), issues: z.array(z.unknown()).max(10_000), outdated: z.boolean().optional() });

/** The checks kept, by folder URI; what does not read is left out. */
export function readPushChecks(raw: unknown): Map<string, StoredPushCheck> {
  const out = new Map<string, StoredPushCheck>();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [folderUri, value] of Object.entries(raw as Record<string, unknown>)) {
    const r = recordSchema.safeParse(value);
    if (!r.success || r.data.verdict.what !== r.data.what) continue;
    const issues = r.data.issues.map(readStoredIssue).filter((i): i is StoredIssue => !!i);
    const v = r.data.verdict;
    if (v.kind === 'blocked') {
      const blocking = v.blocking.flatMap((b) => {
        const issue = readStoredIssue(b.issue);
        return issue ? [{ ...b, issue }] : [];
      });
      out.set(folderUri, { ...r.data, issues, verdict: { ...v, blocking } as PushVerdict });
    } else {
      out.set(folderUri, { ...r.data, issues, verdict: v as PushVerdict });
    }
  }
  return out;
}

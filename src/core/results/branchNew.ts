// New in this branch (decisions.md, "New in this branch"): a finding is new when the base
// commit's reusable scan has no finding of the same list, classification and file whose
// line reads the same (trimmed). Lines move between commits; their text is what is kept.
import { kindOf, type StoredIssue } from '../issues';

type Text = (path: string) => Promise<string | undefined>;

function lineOf(text: string | undefined, line: number): string {
  return (text?.split(/\r\n|\r|\n/)[line - 1] ?? '').trim();
}

async function keysOf(findings: readonly StoredIssue[], textOf: Text): Promise<Map<StoredIssue, string>> {
  const texts = new Map<string, Promise<string | undefined>>();
  const out = new Map<StoredIssue, string>();
  for (const i of findings) {
    if (!texts.has(i.path)) texts.set(i.path, textOf(i.path));
    out.set(i, JSON.stringify([kindOf(i), i.classificationId, i.path, lineOf(await texts.get(i.path), i.line)]));
  }
  return out;
}

/** The findings of `now` that the base's findings do not have: the ids this branch introduces. */
export async function introducedFindings(now: readonly StoredIssue[], nowText: Text, base: readonly StoredIssue[], baseText: Text): Promise<Set<string>> {
  const before = new Set((await keysOf(base, baseText)).values());
  const introduced = new Set<string>();
  for (const [issue, key] of await keysOf(now, nowText)) if (!before.has(key)) introduced.add(issue.id);
  return introduced;
}

// What is new: a finding is new when the folder's findings before its latest full scan did
// not have it (after the first full scan: that scan's own findings, so what a partial scan
// finds first is new), matched by the service's id or else by classification, file and the text of
// its line (the service may give a finding found again a new id). The baseline is kept as
// short hashes of those keys: it is stored with the results and need not copy the code.
import { createHash } from 'node:crypto';
import { forEachInSlices } from '../async';
import type { StoredIssue } from '../issues';
import type { LeftFinding } from './leftFindings';
import { fingerprint } from './placement';

function hashed(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 16);
}

function keysOf(issue: StoredIssue): [string, string] {
  return [hashed(`id:${issue.id}`), hashed(fingerprint(issue))];
}

/**
 * The baseline made of a folder's findings and of those that left it through their file
 * (a fix applied, lines deleted): the code of a fix thrown away is not new when a scan
 * reports it again.
 */
export async function baselineOf(issues: readonly StoredIssue[], left: readonly LeftFinding[] = []): Promise<string[]> {
  const keys = new Set<string>();
  const add = (i: StoredIssue) => { for (const k of keysOf(i)) keys.add(k); };
  await forEachInSlices(issues, add);
  await forEachInSlices(left, (l) => add(l.issue));
  return [...keys];
}

/** Marks each finding new or not against `baseline`; without one (no earlier full scan) none is new. */
export async function markNew(issues: readonly StoredIssue[], baseline: readonly string[] | undefined): Promise<void> {
  const known = baseline && new Set(baseline);
  await forEachInSlices(issues, (i) => {
    if (!known) {
      delete i.isNew;
      return;
    }
    const [byId, byText] = keysOf(i);
    if (known.has(byId) || known.has(byText)) delete i.isNew;
    else i.isNew = true;
  });
}

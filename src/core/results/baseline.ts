// What is new: a finding is new when the folder's findings before its latest full scan did
// not have it, matched by the service's id or else by classification, file and the text of
// its line (the service may give a finding found again a new id). The baseline is kept as
// short hashes of those keys: it is stored with the results and need not copy the code.
import { createHash } from 'node:crypto';
import { forEachInSlices } from '../async';
import type { StoredIssue } from '../issues';
import { fingerprint } from './placement';

function hashed(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 16);
}

function keysOf(issue: StoredIssue): [string, string] {
  return [hashed(`id:${issue.id}`), hashed(fingerprint(issue))];
}

/** The baseline made of a folder's findings, and of those a fix took out (`gone` ids). */
export async function baselineOf(issues: readonly StoredIssue[], gone: readonly string[] = []): Promise<string[]> {
  const keys = new Set<string>();
  await forEachInSlices(issues, (i) => { for (const k of keysOf(i)) keys.add(k); });
  for (const id of gone) keys.add(hashed(`id:${id}`));
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

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
 * reports it again. A key is kept once per finding that has it, so two findings on lines
 * that read the same count as two.
 */
export async function baselineOf(issues: readonly StoredIssue[], left: readonly LeftFinding[] = []): Promise<string[]> {
  const ids = new Set<string>();
  const texts: string[] = [];
  const add = (i: StoredIssue) => {
    const [byId, byText] = keysOf(i);
    if (ids.has(byId)) return;
    ids.add(byId);
    texts.push(byText);
  };
  await forEachInSlices(issues, add);
  await forEachInSlices(left, (l) => add(l.issue));
  return [...ids, ...texts];
}

/**
 * Marks each finding new or not against `baseline`; without one (no earlier full scan) none
 * is new. One to one: a finding known by its id takes its own place first; each other
 * finding then takes one earlier finding of its text, so a second line that reads like a
 * known one is new.
 */
export async function markNew(issues: readonly StoredIssue[], baseline: readonly string[] | undefined): Promise<void> {
  if (!baseline) {
    await forEachInSlices(issues, (i) => { delete i.isNew; });
    return;
  }
  const left = new Map<string, number>();
  for (const k of baseline) left.set(k, (left.get(k) ?? 0) + 1);
  const take = (k: string) => {
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    return n > 0;
  };
  const rest: StoredIssue[] = [];
  await forEachInSlices(issues, (i) => {
    const [byId, byText] = keysOf(i);
    if (!take(byId)) {
      rest.push(i);
      return;
    }
    take(byText);
    delete i.isNew;
  });
  // Earlier lines first: a line added below one that reads the same is the new one.
  rest.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  await forEachInSlices(rest, (i) => {
    if (take(keysOf(i)[1])) delete i.isNew;
    else i.isNew = true;
  });
}

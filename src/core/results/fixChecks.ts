// Whether an applied fix worked, as the service says it: once its file is saved, a partial
// scan of the file is judged against what the file had before the fix. The fixed finding
// reported again means the fix did not remove it; a finding no earlier scan had, on the
// lines the fix wrote, is one the fix introduced. Only a completed scan whose lists were all
// read judges: anything else leaves the outcome unknown, never verified.
import type { StoredIssue } from '../issues';
import { blockAt, holdsFix, lineKey } from './leftFindings';
import { fingerprint } from './placement';

/** Where a fix stands: applied but not yet saved, waiting for the service, or judged. */
export type FixCheckState =
  | { kind: 'applied' }
  | { kind: 'verifying' }
  | { kind: 'verified'; at: string }
  /** The service reports the fixed finding again (`issueId` is its key in the new results). */
  | { kind: 'notRemoved'; at: string; issueId: string }
  | { kind: 'introduced'; at: string; issueIds: string[] }
  | { kind: 'unknown'; at: string; reason: string };

export type FixOutcome = Exclude<FixCheckState, { kind: 'applied' } | { kind: 'verifying' }>;

export interface FixCheck {
  id: number;
  folderUri: string;
  /** The fixed file, relative to its folder. */
  path: string;
  /** The finding as it was when its fix was applied. */
  fixed: StoredIssue;
  /** What marks the fix in the file (leftFindings.fixBlocks). */
  blocks: string[][];
  /** The keys (id and fingerprint) of the file's other findings before the fix. */
  prior: string[];
  state: FixCheckState;
}

const key = lineKey;

/** The keys a finding is known by: its id, and its classification, file and line text. */
export function findingKeys(issue: StoredIssue): [string, string] {
  return [`id:${issue.id}`, fingerprint(issue)];
}

/** The 0-based lines of `lines` (keyed) that hold the fix's blocks, with one line around each. */
function fixLines(lines: readonly string[], blocks: readonly (readonly string[])[], near: number): Set<number> {
  const out = new Set<number>();
  for (const block of blocks) {
    const at = blockAt(lines, block, near);
    if (at < 0) continue;
    for (let i = at - 1; i <= at + block.length; i++) if (i >= 0) out.add(i);
  }
  return out;
}

const lineOf = (i: StoredIssue) => i.range?.start.line ?? i.line - 1;

/**
 * The outcome of each fix of one file, from the findings a completed scan of the file (read
 * whole) reports for it and the text that scan was given. A fix the text no longer holds
 * gets no outcome (undefined): it was taken back before the scan.
 */
export function judgeFile(checks: readonly FixCheck[], scannedText: string, scanned: readonly StoredIssue[], at: string): Map<number, FixOutcome | undefined> {
  const lines = scannedText.split(/\r\n|\r|\n/).map(key);
  const out = new Map<number, FixOutcome | undefined>();
  const used = new Set<string>();
  const regions = new Map<number, Set<number>>();
  const judged = checks.filter((c) => {
    if (holdsFix(scannedText, c.blocks)) return true;
    out.set(c.id, undefined);
    return false;
  });
  for (const c of judged) regions.set(c.id, fixLines(lines, c.blocks, lineOf(c.fixed)));
  const again = new Map<number, string>();
  // The fixed finding reported under its own id (a service that keeps ids) is it, first.
  for (const c of judged) {
    const same = scanned.find((s) => !used.has(s.id) && s.id === c.fixed.id);
    if (same) {
      used.add(same.id);
      again.set(c.id, same.id);
    }
  }
  // The file's other findings as they were before the first of these fixes (the later ones'
  // findings were in it then): each takes one finding of the scan, by id, then by its line's
  // text, so a finding next to the fix that was there before is not taken for the fixed one.
  const first = [...judged].sort((a, b) => a.id - b.id)[0];
  const pool = new Map<string, number>();
  for (const k of first?.prior ?? []) pool.set(k, (pool.get(k) ?? 0) + 1);
  const take = (k: string) => {
    const n = pool.get(k) ?? 0;
    if (n > 0) pool.set(k, n - 1);
    return n > 0;
  };
  const fresh: StoredIssue[] = [];
  for (const s of scanned) {
    if (used.has(s.id)) continue;
    const [byId, byText] = findingKeys(s);
    if (take(byId)) take(byText);
    else fresh.push(s);
  }
  let rest = fresh.filter((s) => !take(findingKeys(s)[1]));
  // The fixed finding reported again under a new id: its classification on its old line's
  // text, or on the lines the fix wrote.
  for (const c of judged) {
    if (again.has(c.id)) continue;
    const oldText = c.fixed.lineText === undefined ? '' : key(c.fixed.lineText);
    const region = regions.get(c.id)!;
    const same = rest.find((s) => s.classificationId === c.fixed.classificationId && (s.kind ?? 'quality') === (c.fixed.kind ?? 'quality')
      && ((oldText !== '' && key(s.lineText ?? '') === oldText) || region.has(lineOf(s))));
    if (same) {
      rest = rest.filter((s) => s !== same);
      again.set(c.id, same.id);
    }
  }
  const isNew = rest;
  for (const c of judged) {
    const notRemoved = again.get(c.id);
    if (notRemoved !== undefined) {
      out.set(c.id, { kind: 'notRemoved', at, issueId: notRemoved });
      continue;
    }
    const region = regions.get(c.id)!;
    const introduced = isNew.filter((s) => region.has(lineOf(s))).map((s) => s.id);
    out.set(c.id, introduced.length ? { kind: 'introduced', at, issueIds: introduced } : { kind: 'verified', at });
  }
  return out;
}

/** The keys of a file's findings before a fix, without the fixed ones: what the check compares with. */
export function priorKeys(fileIssues: readonly StoredIssue[], fixedIds: ReadonlySet<string>): string[] {
  return fileIssues.filter((i) => !fixedIds.has(i.id)).flatMap((i) => findingKeys(i));
}

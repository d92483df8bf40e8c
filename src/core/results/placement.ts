// Where each finding is in the user's text now: at the service's line when the file is as
// scanned, marked stale when it changed since, left out when it is gone or outside the folder.
import { createHash } from 'node:crypto';
import { nextTurn } from '../async/slices';
import { isInsideFolder } from '../workspace/insideFolder';
import { rangeForLine, type StoredIssue } from '../issues';
import { kindOf } from '../issues/kinds';
import { dependencyLine } from '../issues/manifests';
import { upgradeFix } from '../issues/upgrade';

/** The text of a folder's file as the editor sees it (an open editor's text wins over the disk); undefined when it is gone. */
export type ReadText = (folderUri: string, relPath: string) => Promise<string | undefined>;

export function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/**
 * Identifies a finding across scans: its list, file, classification and the code on its
 * line (a code quality finding's without its list, as before the lists were told apart).
 */
export function fingerprint(issue: StoredIssue): string {
  const code = (issue.lineText ?? '').replace(/\s+/g, ' ').trim();
  if (!code) return `id:${issue.id}`;
  const kind = kindOf(issue);
  return `${kind === 'quality' ? '' : `${kind}\n`}${issue.path}\n${issue.classificationId}\n${code}`;
}

/**
 * A dependency finding has no line of the service's: it goes on the line of its file that
 * names the package, as the file is now (where the editor has followed it since, it stays
 * there), with its upgrade as its fix where the edit is clear.
 */
function placeDependency(issue: StoredIssue, text: string, lines: string[]): void {
  const dep = issue.dependency!;
  if (!issue.range) {
    const range = rangeForLine(text, dependencyLine(issue.path, text, dep.name), lines);
    issue.range = range;
    issue.lineText = lines[range.start.line] ?? '';
  }
  // Its line is where it is: the service gave none.
  issue.line = issue.range.start.line + 1;
  issue.stale = undefined;
  issue.fix ??= upgradeFix(issue.path, text, dep);
}

export interface PlaceOptions {
  readText: ReadText;
  /** Whether the service's line numbers still hold for this file's current text. */
  trustLines(relPath: string, text: string): boolean;
  /** Filled with the digest of each file whose findings were placed from the service's lines. */
  digests: Record<string, string>;
}

/** Longest the placing runs before it lets other work in: tens of thousands of findings. */
const SLICE_MS = 10;

/**
 * Gives each finding a range in the file as it is now and drops findings whose file no
 * longer exists or lies outside the folder. A finding that has no range yet is placed at
 * the service's line when `trustLines` says the file is as scanned, and marked stale
 * otherwise. The findings are changed in place: they are a fetch's own objects, and a copy
 * of 50,000 would be garbage that lives just long enough for the young generation to copy it.
 */
export async function place(folderUri: string, issues: StoredIssue[], o: PlaceOptions): Promise<StoredIssue[]> {
  const texts = new Map<string, string | undefined>();
  const lines = new Map<string, string[]>();
  const linesOf = (path: string, text: string) => {
    let l = lines.get(path);
    if (!l) lines.set(path, (l = text.split(/\r\n|\r|\n/)));
    return l;
  };
  const out: StoredIssue[] = [];
  let last = performance.now();
  for (const issue of issues) {
    if (performance.now() - last > SLICE_MS) {
      await nextTurn();
      last = performance.now();
    }
    // The path comes from the service: never follow one out of the scanned folder.
    if (!isInsideFolder(issue.path)) continue;
    if (!texts.has(issue.path)) texts.set(issue.path, await o.readText(folderUri, issue.path));
    const text = texts.get(issue.path);
    if (text === undefined) continue;
    if (issue.dependency) {
      placeDependency(issue, text, linesOf(issue.path, text));
      out.push(issue);
      continue;
    }
    if (issue.range) {
      issue.stale = undefined;
      out.push(issue);
      continue;
    }
    if (!o.trustLines(issue.path, text)) {
      issue.range = undefined;
      issue.stale = true;
      out.push(issue);
      continue;
    }
    o.digests[issue.path] ??= digest(text);
    const range = rangeForLine(text, issue.line, linesOf(issue.path, text));
    issue.range = range;
    issue.stale = undefined;
    // Remembered so the finding survives edits that rewrite its line unchanged (revert, formatter).
    issue.lineText ??= lines.get(issue.path)![range.start.line] ?? '';
    out.push(issue);
  }
  return out;
}

// Where each finding is in the user's text now: at the service's line when the file is as
// scanned, marked stale when it changed since, left out when it is gone or outside the folder.
import { createHash } from 'node:crypto';
import { nextTurn } from '../async/slices';
import { isInsideFolder } from '../workspace/insideFolder';
import { rangeForLine, type StoredIssue } from '../issues';

/** The text of a folder's file as the editor sees it (an open editor's text wins over the disk); undefined when it is gone. */
export type ReadText = (folderUri: string, relPath: string) => Promise<string | undefined>;

export function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** Identifies a finding across scans: its file, classification and the code on its line. */
export function fingerprint(issue: StoredIssue): string {
  const code = (issue.lineText ?? '').replace(/\s+/g, ' ').trim();
  return code ? `${issue.path}\n${issue.classificationId}\n${code}` : `id:${issue.id}`;
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
    if (!lines.has(issue.path)) {
      lines.set(issue.path, text.split(/\r\n|\r|\n/));
      o.digests[issue.path] ??= digest(text);
    }
    const range = rangeForLine(text, issue.line, lines.get(issue.path));
    issue.range = range;
    issue.stale = undefined;
    // Remembered so the finding survives edits that rewrite its line unchanged (revert, formatter).
    issue.lineText ??= lines.get(issue.path)![range.start.line] ?? '';
    out.push(issue);
  }
  return out;
}

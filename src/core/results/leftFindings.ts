// Findings that left the view through their file, not through a scan: a fix was applied,
// their lines were deleted, or the file was. The change may be thrown away by any route
// (Undo, close without saving, Revert File, git checkout, another editor, a reload), so a
// finding that left is kept whole and comes back as soon as its file's text no longer has
// the change. Only a completed scan of the file forgets it: the scan speaks for the file.
import { splitLines, type LineEdit } from '../fixes';
import { rangeForLine, type Range, type StoredIssue } from '../issues';
import { digest } from './placement';

/** How a finding left: its fix was applied, its lines were edited away, its file was deleted. */
export type LeftHow = 'fixed' | 'edited' | 'deleted';

export interface LeftFinding {
  /** The finding as it was when it left (its range then). */
  issue: StoredIssue;
  how: LeftHow;
  /**
   * For a fix: the lines it wrote, one run of consecutive lines per edit (compared without
   * whitespace). The file lacking any of them means the fix is not there.
   */
  fixBlocks?: string[][];
}

/** Lines compared the way a formatter may rewrite them: whitespace does not count. */
export const lineKey = (line: string) => line.replace(/\s+/g, '');
const key = lineKey;

/**
 * A fix's lines of fewer visible characters than this prove nothing on their own (a `}`
 * is everywhere): the unchanged line before and after the edit go with them.
 */
const FEW_CHARS = 8;

/**
 * What marks each edit of a fix in the file it made: the edit's new lines, with the lines
 * around it when those alone are too few to tell (a deletion writes none). `before` is the
 * text the edits were made against.
 */
export function fixBlocks(before: string, edits: readonly LineEdit[]): string[][] {
  const old = splitLines(before);
  const blocks: string[][] = [];
  for (const e of edits) {
    const fresh = splitLines(e.text).map(key);
    if (fresh.join('').length >= FEW_CHARS) {
      blocks.push(fresh);
      continue;
    }
    const above = e.startLine > 0 ? [key(old[e.startLine - 1]!)] : [];
    const below = e.endLine < old.length ? [key(old[e.endLine]!)] : [];
    const block = [...above, ...fresh, ...below];
    if (block.join('').length) blocks.push(block);
  }
  return blocks;
}

/**
 * Where `lines` (keyed) hold `block` as consecutive lines: the start nearest to line `near`
 * (the first without it), or -1.
 */
export function blockAt(lines: readonly string[], block: readonly string[], near = 0): number {
  let best = -1;
  outer: for (let i = 0; i + block.length <= lines.length; i++) {
    for (let k = 0; k < block.length; k++) if (lines[i + k] !== block[k]) continue outer;
    if (best < 0 || Math.abs(i - near) < Math.abs(best - near)) best = i;
    if (i >= near) break;
  }
  return best;
}

/** Whether `lines` (keyed) hold `block` as consecutive lines somewhere. */
function holdsBlock(lines: readonly string[], block: readonly string[]): boolean {
  return blockAt(lines, block) >= 0;
}

/** Whether the text still has every edit of the fix. A fix with no mark to look for counts as there. */
export function holdsFix(text: string, blocks: readonly (readonly string[])[]): boolean {
  if (!blocks.length) return true;
  const lines = text.split(/\r\n|\r|\n/).map(key);
  return blocks.every((b) => holdsBlock(lines, b));
}

/** The range of line `index` of `lines` without its indentation. */
function lineRange(lines: readonly string[], index: number): Range {
  const content = lines[index] ?? '';
  const indent = content.length - content.trimStart().length;
  return { start: { line: index, character: indent === content.length ? 0 : indent }, end: { line: index, character: content.length } };
}

/** The line nearest to `near` whose text is `lineText` (whitespace aside); a blank line text proves nothing. */
function findLine(lines: readonly string[], lineText: string | undefined, near: number): number | undefined {
  const wanted = key(lineText ?? '');
  if (!wanted) return undefined;
  let best: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (key(lines[i]!) !== wanted) continue;
    if (best === undefined || Math.abs(i - near) < Math.abs(best - near)) best = i;
  }
  return best;
}

/**
 * The range of the line nearest to line `near` (0-based) of `text` that reads `lineText`
 * (whitespace aside); undefined when there is none, or the line text is blank.
 */
export function rangeOfLineText(text: string, lineText: string, near: number): Range | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const at = findLine(lines, lineText, near);
  return at === undefined ? undefined : lineRange(lines, at);
}

/** Where a finding that came back goes: its range, or stale (listed, at no line) when its code cannot be found. */
export type Return = { range: Range } | { stale: true };

/**
 * Whether a finding that left comes back with the file's text as it is now, and where.
 * It comes back when the file is again exactly as scanned (`scannedDigest`), when a fix's
 * lines are no longer all in it, and when the code of a finding whose lines were deleted
 * (or whose file was) is back on its line. Undefined: it stays away.
 */
export function returnOf(left: LeftFinding, text: string | undefined, scannedDigest: string | undefined): Return | undefined {
  if (text === undefined) return undefined;
  const lines = text.split(/\r\n|\r|\n/);
  if (scannedDigest !== undefined && digest(text) === scannedDigest) return { range: rangeForLine(text, left.issue.line, lines) };
  const was = left.issue.range?.start.line ?? left.issue.line - 1;
  const sameLine = left.issue.lineText !== undefined && key(left.issue.lineText) !== '' && key(lines[was] ?? '') === key(left.issue.lineText);
  if (left.how !== 'fixed') return sameLine ? { range: lineRange(lines, was) } : undefined;
  if (holdsFix(text, left.fixBlocks ?? [])) return undefined;
  const at = sameLine ? was : findLine(lines, left.issue.lineText, was);
  return at === undefined ? { stale: true } : { range: lineRange(lines, at) };
}

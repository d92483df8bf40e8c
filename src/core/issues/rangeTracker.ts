import type { Position, Range } from './model';

/** One text replacement, with positions in the document as it was before this change. */
export interface TextChange {
  range: Range;
  text: string;
}

function compare(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/** Where the end of `text` lands when it is inserted at `at`. */
function endOfInsertion(at: Position, text: string): Position {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length === 1) return { line: at.line, character: at.character + text.length };
  return { line: at.line + lines.length - 1, character: lines[lines.length - 1].length };
}

/** Moves a position that lies at or after the change's end. */
function shift(pos: Position, change: TextChange, insertedEnd: Position): Position {
  const { end } = change.range;
  if (pos.line === end.line) {
    return { line: insertedEnd.line, character: insertedEnd.character + (pos.character - end.character) };
  }
  return { line: pos.line + (insertedEnd.line - end.line), character: pos.character };
}

/**
 * Moves `range` through one edit. Text typed right at either edge stays outside the range
 * (the range never grows by typing next to it). Returns undefined when the edit removed
 * the range's text: a deletion covering it, or a replacement of whole lines containing it.
 */
export function trackRange(range: Range, change: TextChange): Range | undefined {
  const { start: cs, end: ce } = change.range;
  const insertedEnd = endOfInsertion(cs, change.text);
  const isInsertion = compare(cs, ce) === 0;

  // Entirely after the range (an insertion exactly at its end included): nothing moves.
  if (compare(cs, range.end) > 0 || (isInsertion && compare(cs, range.end) === 0 && compare(range.start, range.end) < 0)) {
    return range;
  }
  // Entirely before the range (an insertion exactly at its start included): shift it.
  if (compare(ce, range.start) <= 0) {
    return { start: shift(range.start, change, insertedEnd), end: shift(range.end, change, insertedEnd) };
  }
  // The edit covers the whole range.
  if (compare(cs, range.start) <= 0 && compare(ce, range.end) >= 0) {
    const spansLines = ce.line > cs.line;
    if (change.text.length === 0 || spansLines) return undefined;
    return { start: cs, end: insertedEnd };
  }
  // Partial overlap or an edit inside the range: keep the untouched parts, stretch around the edit.
  const start = compare(cs, range.start) < 0 ? insertedEnd : range.start;
  const end = compare(ce, range.end) > 0 ? cs : shift(range.end, change, insertedEnd);
  return compare(start, end) <= 0 ? { start, end } : { start, end: start };
}

/** Line text compared the way a formatter may rewrite it: whitespace does not count. */
function lineKey(text: string): string {
  return text.replace(/\s+/g, '');
}

/**
 * For a change that swallowed a finding's line: finds that line's text (`lineText`, as it
 * was when the finding was placed) among the lines the change inserted, nearest to where
 * the finding was, and returns its range there (the line without its indentation).
 * A revert, a formatter or any whole-document replacement rewrites every line while most
 * stay the same; only a line that is really gone loses its finding.
 */
export function relocateInReplacement(range: Range, lineText: string, change: TextChange): Range | undefined {
  const wanted = lineKey(lineText);
  if (!wanted) return undefined; // a blank line matches anywhere, so it proves nothing
  const { start: cs } = change.range;
  const lines = change.text.split(/\r\n|\r|\n/);
  let best: number | undefined;
  // The first inserted line only is a whole line when the change starts at a line's start.
  for (let k = cs.character === 0 ? 0 : 1; k < lines.length; k++) {
    if (lineKey(lines[k]) !== wanted) continue;
    if (best === undefined || Math.abs(cs.line + k - range.start.line) < Math.abs(cs.line + best - range.start.line)) best = k;
  }
  if (best === undefined) return undefined;
  const content = lines[best];
  const indent = content.length - content.trimStart().length;
  return { start: { line: cs.line + best, character: indent }, end: { line: cs.line + best, character: content.length } };
}

/**
 * Applies a document's content changes in order (VS Code reports them so that applying
 * them one after another is correct). With `lineText` (the finding's line when it was
 * placed), a change that replaces the finding's line moves it to where that line now is.
 */
export function trackRangeThrough(range: Range, changes: readonly TextChange[], lineText?: string): Range | undefined {
  let r: Range | undefined = range;
  for (const c of changes) {
    if (!r) return undefined;
    r = trackRange(r, c) ?? (lineText === undefined ? undefined : relocateInReplacement(r, lineText, c));
  }
  return r;
}

/**
 * The editor's line (0-based) where the service's line `line` (1-based) starts. The service
 * counts lines by LF, as git and most scanners do; the editor also breaks lines at a lone
 * CR (old Mac line endings, stray carriage returns). In a file with lone CRs the two
 * numbers differ, and a finding would otherwise be shown lines away from its code.
 */
export function editorLineOfServiceLine(text: string, line: number): number {
  if (!text.includes('\r')) return line - 1;
  let at = 0;
  for (let n = 1; n < line; n++) {
    const lf = text.indexOf('\n', at);
    if (lf < 0) break;
    at = lf + 1;
  }
  // Editor line breaks before that offset: CRLF and LF count once, a lone CR too.
  let breaks = 0;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) breaks++;
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) breaks++;
  }
  return breaks;
}

/** The range a finding on the service's `line` (1-based) covers in `text`: the line without its indentation. */
export function rangeForLine(text: string, line: number, lines: readonly string[] = text.split(/\r\n|\r|\n/)): Range {
  const index = Math.min(Math.max(editorLineOfServiceLine(text, line), 0), Math.max(lines.length - 1, 0));
  const content = lines[index] ?? '';
  const indent = content.length - content.trimStart().length;
  const start = indent === content.length ? 0 : indent;
  return { start: { line: index, character: start }, end: { line: index, character: content.length } };
}

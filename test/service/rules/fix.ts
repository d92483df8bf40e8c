// Turns line edits into a unified diff of one file (3 lines of context, a/ and b/
// prefixes on archive-root-relative paths). The `diff` library writes the hunks, so the
// headers are right and the patch applies with its applyPatch.
import { FILE_HEADERS_ONLY, createTwoFilesPatch } from 'diff';
import type { LineEdit, SourceFile } from './types';

export function applyEdits(lines: string[], edits: LineEdit[]): string[] {
  const out = [...lines];
  for (const e of [...edits].sort((a, b) => b.index - a.index)) out.splice(e.index, e.deleteCount, ...e.insert);
  return out;
}

export function fixDiff(file: SourceFile, edits: LineEdit[]): string {
  const after = applyEdits(file.lines, edits).join('\n');
  return createTwoFilesPatch(`a/${file.path}`, `b/${file.path}`, file.text, after, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/** A new line for the file: ends with '\r' in a CRLF file, so lines joined with '\n' stay consistent. */
export function newLine(file: SourceFile, content: string): string {
  return file.eol === '\r\n' ? `${content}\r` : content;
}

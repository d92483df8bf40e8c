import { diffLines } from 'diff';

/** Replace lines [startLine, endLine) of the old text with `text` (complete lines, with their line breaks). */
export interface LineEdit {
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * The smallest line-level edits that turn `before` into `after`, so applying a fix touches
 * only the lines it changes (other findings' tracked ranges and the undo stack stay tidy).
 */
export function computeLineEdits(before: string, after: string): LineEdit[] {
  const edits: LineEdit[] = [];
  let line = 0;
  let pending: LineEdit | undefined;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? part.value.split('\n').length - (part.value.endsWith('\n') ? 1 : 0);
    if (part.added) {
      pending ??= { startLine: line, endLine: line, text: '' };
      pending.text += part.value;
    } else if (part.removed) {
      pending ??= { startLine: line, endLine: line, text: '' };
      pending.endLine += count;
      line += count;
    } else {
      if (pending) edits.push(pending);
      pending = undefined;
      line += count;
    }
  }
  if (pending) edits.push(pending);
  return edits;
}

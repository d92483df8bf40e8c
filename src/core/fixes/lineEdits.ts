import { diffLines } from 'diff';

/** Replace lines [startLine, endLine) of the old text with `text` (complete lines, with their line breaks). */
export interface LineEdit {
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * Bounds the line diff below, which runs on the extension host. A fix that rewrites most
 * of a big file would otherwise cost the diff quadratic time (seconds of a frozen editor):
 * past these sizes the changed middle is replaced as one edit instead.
 */
export const MAX_DIFFED_LINES = 5000;
export const MAX_DIFF_EDITS = 2000;

/** Lines with their line breaks kept (the last one may lack one), so joining them gives the text back. */
export function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/**
 * The smallest line-level edits that turn `before` into `after`, so applying a fix touches
 * only the lines it changes (other findings' tracked ranges and the undo stack stay tidy).
 * Unchanged lines at both ends are skipped in linear time; only the changed middle is
 * diffed, and only when it is small enough to diff quickly.
 */
export function computeLineEdits(before: string, after: string): LineEdit[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const oldMiddle = a.slice(head, a.length - tail);
  const newMiddle = b.slice(head, b.length - tail);
  if (oldMiddle.length === 0 && newMiddle.length === 0) return [];
  const whole: LineEdit[] = [{ startLine: head, endLine: head + oldMiddle.length, text: newMiddle.join('') }];
  if (oldMiddle.length === 0 || newMiddle.length === 0 || oldMiddle.length + newMiddle.length > MAX_DIFFED_LINES) return whole;
  const parts = diffLines(oldMiddle.join(''), newMiddle.join(''), { maxEditLength: MAX_DIFF_EDITS });
  if (!parts) return whole;

  const edits: LineEdit[] = [];
  let line = head;
  let pending: LineEdit | undefined;
  for (const part of parts) {
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

// Undo Fix after the file was saved (and maybe edited since), when the editor's own undo is
// gone or would take other work back too: the fix's own change, reversed, applied to the text
// as it is now, found by its context as a patch is. Where it cannot be found, nothing is
// guessed: the caller offers the whole text from before the fix instead.
import { applyPatch, createPatch } from 'diff';
import type { LineEdit } from './lineEdits';
import { splitLines } from './lineEdits';

/** `before` with only `edits` made (each replaces lines [startLine, endLine) of `before`). */
function withEdits(before: string, edits: readonly LineEdit[]): string {
  const lines = splitLines(before);
  for (const e of [...edits].sort((a, b) => b.startLine - a.startLine)) lines.splice(e.startLine, e.endLine - e.startLine, ...splitLines(e.text));
  return lines.join('');
}

/**
 * The text `current` with the fix's change taken back, or undefined when the lines the fix
 * wrote (and their context) are no longer there to take back.
 */
export function undoFixText(current: string, before: string, edits: readonly LineEdit[]): string | undefined {
  if (!edits.length) return undefined;
  const fixed = withEdits(before, edits);
  if (fixed === before) return undefined;
  const patch = createPatch('file', fixed, before, undefined, undefined, { context: 3 });
  const out = applyPatch(current, patch);
  return typeof out === 'string' && out !== current ? out : undefined;
}

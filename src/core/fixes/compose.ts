// Several fixes of one file applied together. Each fix's diff was made against the file as
// scanned, so each is applied to the current text on its own and turned into line edits;
// edits of different fixes that touch the same lines cannot both be right and the later
// fix is refused with that reason. Fixes a few lines apart (whose diff contexts overlap,
// but not their changes) compose: all edits are applied together, bottom-up.
import { applyFix, type FixRefusal } from './applyFix';
import { computeLineEdits, type LineEdit } from './lineEdits';

export interface FixInput {
  id: string;
  diff: string;
  /** The file the finding is in; the diff must change this file. */
  path: string;
}

export interface ComposedFixes {
  /** The text with every accepted fix applied. */
  text: string;
  /** The line edits (against the input text) that make `text`, top to bottom. */
  edits: LineEdit[];
  applied: string[];
  refused: { id: string; reason: FixRefusal | 'overlaps'; message: string }[];
}

function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/** True when two edits change some of the same lines (or insert at the same place). */
function clash(a: LineEdit, b: LineEdit): boolean {
  if (a.startLine === b.startLine) return true;
  return Math.max(a.startLine, b.startLine) < Math.min(a.endLine, b.endLine);
}

export function composeFixes(text: string, fixes: readonly FixInput[]): ComposedFixes {
  const accepted: LineEdit[] = [];
  const applied: string[] = [];
  const refused: ComposedFixes['refused'] = [];
  for (const f of fixes) {
    const r = applyFix(f.diff, text, f.path);
    if (!r.ok) {
      refused.push({ id: f.id, reason: r.reason, message: r.message });
      continue;
    }
    const edits = computeLineEdits(text, r.text);
    if (edits.some((e) => accepted.some((a) => clash(a, e)))) {
      refused.push({
        id: f.id, reason: 'overlaps',
        message: 'It changes the same lines as another fix applied with it; apply it on its own after a rescan.',
      });
      continue;
    }
    accepted.push(...edits);
    applied.push(f.id);
  }
  accepted.sort((a, b) => a.startLine - b.startLine);
  const lines = splitLines(text);
  for (const e of [...accepted].reverse()) lines.splice(e.startLine, e.endLine - e.startLine, ...splitLines(e.text));
  return { text: lines.join(''), edits: accepted, applied, refused };
}

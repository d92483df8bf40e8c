// Several fixes of one file applied together. Each fix's diff was made against the file as
// scanned, so each is applied to the current text on its own and turned into line edits;
// edits of different fixes that touch the same lines cannot both be right and the later
// fix is refused with that reason. Fixes a few lines apart (whose diff contexts overlap,
// but not their changes) compose: all edits are applied together, bottom-up.
import { applyFix, type FixRefusal } from './applyFix';
import { computeLineEdits, splitLines, type LineEdit } from './lineEdits';
import { l10n } from '../text/l10n';

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
  /** Each applied fix's own edits (against the input text), for a preview that lists them one by one. */
  editsOf: Map<string, LineEdit[]>;
  refused: { id: string; reason: FixRefusal | 'overlaps'; message: string }[];
}


/** True when two edits change some of the same lines (or insert at the same place). */
function clash(a: LineEdit, b: LineEdit): boolean {
  if (a.startLine === b.startLine) return true;
  return Math.max(a.startLine, b.startLine) < Math.min(a.endLine, b.endLine);
}

export function composeFixes(text: string, fixes: readonly FixInput[]): ComposedFixes {
  const accepted: LineEdit[] = [];
  const applied: string[] = [];
  const editsOf = new Map<string, LineEdit[]>();
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
        message: l10n.t('It changes the same lines as another fix applied with it; apply it on its own after a rescan.'),
      });
      continue;
    }
    accepted.push(...edits);
    applied.push(f.id);
    editsOf.set(f.id, edits);
  }
  accepted.sort((a, b) => a.startLine - b.startLine);
  const lines = splitLines(text);
  for (const e of [...accepted].reverse()) lines.splice(e.startLine, e.endLine - e.startLine, ...splitLines(e.text));
  return { text: lines.join(''), edits: accepted, applied, editsOf, refused };
}

/**
 * Which of the fixes made `after` out of `before`, when a person could leave out any of
 * their edits (VS Code's refactor preview has a tick box per edit). The edits of all fixes
 * do not overlap, so a walk from top to bottom tells for each edit whether the text there
 * is its new lines or still the old ones. A fix counts as applied only when all of its
 * edits are; undefined when the text is neither (changed by something else meanwhile).
 */
export function appliedFixes(before: string, after: string, editsOf: ReadonlyMap<string, readonly LineEdit[]>): Set<string> | undefined {
  const old = splitLines(before);
  const now = splitLines(after);
  const all = [...editsOf].flatMap(([id, edits]) => edits.map((e) => ({ id, e }))).sort((a, b) => a.e.startLine - b.e.startLine);
  const applied = new Set(editsOf.keys());
  let delta = 0;
  let checkedUpTo = 0;
  const same = (from: number, lines: readonly string[]) => lines.every((l, i) => now[from + i] === l);
  for (const { id, e } of all) {
    // Lines between edits are unchanged by any of them.
    if (!same(checkedUpTo + delta, old.slice(checkedUpTo, e.startLine))) return undefined;
    const fresh = splitLines(e.text);
    const original = old.slice(e.startLine, e.endLine);
    // The longer alternative first: an empty one (a deletion, an insertion) always matches.
    const at = e.startLine + delta;
    const isNew = fresh.length >= original.length ? same(at, fresh) : !same(at, original) && same(at, fresh);
    if (isNew) delta += fresh.length - original.length;
    else if (same(at, original)) applied.delete(id);
    else return undefined;
    checkedUpTo = e.endLine;
  }
  if (!same(checkedUpTo + delta, old.slice(checkedUpTo)) || now.length !== old.length + delta) return undefined;
  return applied;
}

import { l10n } from '../text/l10n';
// Gitignore-style patterns from places we do not control (a repository's .gitignore, its
// .vscode/settings.json exclude list) are matched by the `ignore` library with regular
// expressions that backtrack: a pattern with many `**` segments costs seconds per path
// (measured: 5 `**` on a 40-folder-deep path, ~50 ms; 13, ~8 s). Patterns are therefore
// bounded before use. An exclusion too complex to match is replaced by a simpler one that
// matches at least the same files (more is left out, never less); a re-inclusion (`!…`)
// too complex to match is dropped (what it would re-include stays left out).

/** Most `**` segments a pattern may have; three cost ~0.3 ms on a 40-folder-deep path. */
export const MAX_GLOBSTARS = 3;
/** Longest pattern kept as written. */
export const MAX_PATTERN_CHARS = 512;

export interface BoundedPatterns {
  patterns: string[];
  /** One line per pattern that was changed or dropped, for the log. */
  notes: string[];
}

function globstars(segments: string[]): number {
  return segments.filter((s) => s === '**').length;
}

/**
 * The pattern itself when it is cheap to match; otherwise a pattern matching a superset of
 * its files (`**` + its last literal segments), or undefined for a re-inclusion.
 */
export function boundPattern(raw: string): { pattern: string; changed: boolean } | undefined {
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return { pattern: trimmed, changed: false };
  const negated = trimmed.startsWith('!');
  const body = negated ? trimmed.slice(1) : trimmed;
  const segments = body.split('/');
  if (globstars(segments) <= MAX_GLOBSTARS && body.length <= MAX_PATTERN_CHARS) return { pattern: trimmed, changed: false };
  if (negated) return undefined;
  // Keep the last segment that is not `**` (and a trailing `**`, "everything inside").
  const trailing = segments[segments.length - 1] === '**' || segments[segments.length - 1] === '';
  const last = [...segments].reverse().find((s) => s !== '**' && s !== '');
  if (!last || last.length > MAX_PATTERN_CHARS) return { pattern: '**', changed: true };
  return { pattern: `**/${last}${trailing ? '/**' : ''}`, changed: true };
}

/** Bounds every pattern of a list; `source` names where the patterns came from in the notes. */
export function boundPatterns(lines: readonly string[], source: string): BoundedPatterns {
  const patterns: string[] = [];
  const notes: string[] = [];
  for (const line of lines) {
    const b = boundPattern(line);
    if (!b) {
      notes.push(l10n.t('{0}: the re-inclusion "{1}" is too complex to match and was ignored (those files stay left out).', source, line.slice(0, 120)));
      continue;
    }
    if (b.changed) notes.push(l10n.t('{0}: the pattern "{1}" is too complex to match; "{2}" was used instead (it leaves out at least the same files).', source, line.slice(0, 120), b.pattern));
    patterns.push(b.pattern);
  }
  return { patterns, notes };
}

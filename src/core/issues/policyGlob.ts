// Glob patterns from the service (a policy's glob and its excludes), matched in time bounded
// by the sizes of the pattern and the path. A pattern is the service's data: compiled to a
// regular expression (as minimatch does) `+(a|aa)+(a|aa)…b` held the extension host for a
// minute, at every start. So no regular expression and no extglob: `**` (any folders), `*`,
// `?`, `[…]` classes and `\` escapes, matched by the greedy walk with one step back to the
// last star (O(path × pattern)); braces of one level (`*.{js,ts}`) are alternatives, at most
// MAX_ALTERNATIVES in all. Anything else unusual is read as literal text; a pattern too
// long or with too many wildcards cannot be read, and matches nothing.

export const MAX_GLOB_CHARS = 300;
const MAX_WILDCARDS = 40;
const MAX_ALTERNATIVES = 32;

/** One character test of a segment pattern: a literal, `?`, or a class. */
type CharTest = { kind: 'char'; c: string } | { kind: 'any' } | { kind: 'class'; negated: boolean; ranges: [string, string][] };
type Token = CharTest | { kind: 'star' };
/** A path segment pattern, or `**` (any number of segments). */
type Segment = Token[] | 'globstar';

/** Reads one segment's text into tokens; undefined when a class is left open (then the `[` is literal). */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) out.push({ kind: 'char', c: text[++i]! });
    else if (c === '*') {
      if (out.at(-1)?.kind !== 'star') out.push({ kind: 'star' });
    } else if (c === '?') out.push({ kind: 'any' });
    else if (c === '[') {
      const cls = readClass(text, i);
      if (cls) {
        out.push(cls.test);
        i = cls.end;
      } else out.push({ kind: 'char', c });
    } else out.push({ kind: 'char', c });
  }
  return out;
}

/** A `[…]` class starting at `start`: its test and the index of its `]`. */
function readClass(text: string, start: number): { test: CharTest; end: number } | undefined {
  let i = start + 1;
  const negated = text[i] === '!' || text[i] === '^';
  if (negated) i++;
  const ranges: [string, string][] = [];
  let first = true;
  for (; i < text.length; i++) {
    let c = text[i]!;
    if (c === ']' && !first) return { test: { kind: 'class', negated, ranges }, end: i };
    first = false;
    if (c === '\\' && i + 1 < text.length) c = text[++i]!;
    if (text[i + 1] === '-' && i + 2 < text.length && text[i + 2] !== ']') {
      ranges.push([c, text[i + 2]!]);
      i += 2;
    } else ranges.push([c, c]);
  }
  return undefined;
}

function passes(t: CharTest, c: string): boolean {
  if (t.kind === 'char') return t.c === c;
  if (t.kind === 'any') return true;
  const inside = t.ranges.some(([a, b]) => c >= a && c <= b);
  return inside !== t.negated;
}

/**
 * Whether `pattern` takes `items`, where a star takes any run of items and every other
 * part exactly one: greedy, stepping back only to the last star, so O(items × pattern).
 * Used for the characters of a name and, one level up, for the names of a path.
 */
function walk<P, I>(pattern: readonly P[], items: readonly I[], isStar: (p: P) => boolean, takes: (p: P, item: I) => boolean): boolean {
  let p = 0;
  let i = 0;
  let star = -1;
  let mark = 0;
  while (i < items.length) {
    const part = pattern[p];
    if (part !== undefined && !isStar(part) && takes(part, items[i]!)) {
      p++;
      i++;
    } else if (part !== undefined && isStar(part)) {
      star = p++;
      mark = i;
    } else if (star >= 0) {
      p = star + 1;
      i = ++mark;
    } else return false;
  }
  while (p < pattern.length && isStar(pattern[p]!)) p++;
  return p === pattern.length;
}

const segmentMatches = (ts: readonly Token[], name: string) => walk(ts, [...name], (t) => t.kind === 'star', (t, c) => t.kind !== 'star' && passes(t, c));

const pathMatches = (segs: readonly Segment[], names: readonly string[]) => walk(segs, names, (s) => s === 'globstar', (s, name) => s !== 'globstar' && segmentMatches(s, name));

/** `a{b,c}d` -> `abd`, `acd` (one level of braces); undefined past MAX_ALTERNATIVES. */
function alternatives(pattern: string): string[] | undefined {
  let out = [''];
  const re = /\{([^{}]*,[^{}]*)\}/g;
  let at = 0;
  for (const m of pattern.matchAll(re)) {
    const before = pattern.slice(at, m.index);
    const options = m[1]!.split(',');
    out = out.flatMap((prefix) => options.map((o) => prefix + before + o));
    if (out.length > MAX_ALTERNATIVES) return undefined;
    at = m.index + m[0].length;
  }
  return out.map((p) => p + pattern.slice(at));
}

/** A compiled service pattern: `matches` a `/`-separated relative path. */
export interface ServiceGlob {
  matches(path: string): boolean;
}

/**
 * Compiles a service glob pattern; undefined when it cannot be read (empty, too long, too
 * many wildcards or alternatives): the caller decides what an unreadable pattern means.
 */
export function compileGlob(pattern: string): ServiceGlob | undefined {
  const text = pattern.trim().replace(/^\.?\//, '');
  if (!text || text.length > MAX_GLOB_CHARS) return undefined;
  if ((text.match(/[*?[]/g)?.length ?? 0) > MAX_WILDCARDS) return undefined;
  const alts = alternatives(text);
  if (!alts) return undefined;
  const compiled = alts.map((alt) => {
    const segs = alt.split('/').filter((s, i, all) => s !== '' || i === all.length - 1).map((s): Segment => (s === '**' ? 'globstar' : tokens(s)));
    // `api/**` is what is inside `api`, not `api` itself (as minimatch reads it).
    if (segs.length > 1 && segs.at(-1) === 'globstar') segs.push([{ kind: 'star' }]);
    return segs;
  });
  return {
    matches(path: string): boolean {
      const names = path.split('/');
      return compiled.some((segs) => pathMatches(segs, names));
    },
  };
}

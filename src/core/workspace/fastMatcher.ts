// gitignore-style matching for fixed rule lists tested against tens of thousands of paths
// (default excludes, credential files). `ignore` tests every rule against the path and each
// of its folders: microseconds a path, and it keeps every path it was asked about. Here:
// - a rule without a slash inside (`node_modules/`, `*.pem`, `!.env.example`) only ever
//   looks at one name; a folder's verdict is worked out once from its parent's and its own
//   name (a selection walks sorted paths, so each folder is entered once), and a name is
//   first put through a cheap necessary condition (its literal text, its suffix). A name
//   that equals a rule or ends with a rule's suffix, in ASCII and with no negation that
//   could take it back, is decided there; only what is left is judged by `ignore`, so
//   nothing is kept per name;
// - rules with a path in them (`**/.aws/credentials`) go to `ignore` as a whole, and only
//   for paths that hold, as whole segments, every name such a rule spells out.
// - `ignore` is only set up when some name or path needs it, from rules it compiled once in
//   the process: making and first using the two lists' `ignore`s was 15-19 ms of a
//   process's first scan (Node 24, this machine), and most small folders never need them.
// Same answers as `ignore` (a test compares them on every path built from the rules' names).
import ignore, { type Ignore } from 'ignore';

/** What a folder's path says for the paths inside it. */
export interface FolderVerdict {
  /** The folder, or one above it, matches: so does everything inside. */
  readonly excluded: boolean;
  /** Which names of the path rules the folder's path holds as segments (a bit each). */
  readonly seen: number;
}

export interface PathMatcher {
  /** Whether a path matches (a folder given with its trailing slash). */
  (relPath: string): boolean;
  /** The verdict of the folder all paths are relative to. */
  readonly top: FolderVerdict;
  /** The verdict of the folder `name` inside the folder `parent`; `relPath` is its path (no trailing slash). */
  folder(parent: FolderVerdict, name: string, relPath: string): FolderVerdict;
  /** Whether the file `name` in the folder `folder` matches; `relPath` is its whole path. */
  file(folder: FolderVerdict, name: string, relPath: string): boolean;
}

const GLOB = /[*?[\]\\]/;

function isNameRule(rule: string): boolean {
  const body = rule.replace(/^!/, '').replace(/\/$/, '');
  return !body.includes('/');
}

/** The literal folder or file names a path rule mentions: a path without any of them cannot match it. */
function literalNames(rule: string): string[] {
  return rule.replace(/^!/, '').split('/').filter((s) => s && !GLOB.test(s));
}

/**
 * A necessary condition for a name to match some positive name rule: exact names, suffixes
 * (`*.pem`), and for anything else the literal pieces in order, anchored where the pattern
 * is. False means no rule can match; true means `ignore` must judge.
 */
class NamePrefilter {
  private readonly exact = new Set<string>();
  private readonly exactFolder = new Set<string>();
  /** Suffix rules by the text after the suffix's last dot: `.min.js` under `js`. */
  private readonly suffixes = new Map<string, { suffix: string; folderOnly: boolean }[]>();
  private readonly others: { pieces: string[]; anchoredStart: boolean; anchoredEnd: boolean; folderOnly: boolean }[] = [];

  /** The negated rules' own prefilter: a name none of them could match is never taken back. */
  private readonly negations: NamePrefilter | undefined;

  constructor(rules: readonly string[], private readonly lower: boolean) {
    const negated = rules.filter((r) => r.startsWith('!')).map((r) => r.slice(1));
    this.negations = negated.length ? new NamePrefilter(negated, lower) : undefined;
    for (const raw of rules) {
      if (raw.startsWith('!') || raw.startsWith('#') || !raw.trim()) continue; // negations only ever un-match
      const folderOnly = raw.endsWith('/');
      let body = raw.replace(/\/$/, '').replace(/^\//, '');
      if (lower) body = body.toLowerCase();
      if (!GLOB.test(body)) {
        (folderOnly ? this.exactFolder : this.exact).add(body);
      } else if (body.startsWith('*') && !GLOB.test(body.slice(1)) && body.slice(1).includes('.')) {
        const suffix = body.slice(1);
        const key = suffix.slice(suffix.lastIndexOf('.') + 1);
        const list = this.suffixes.get(key) ?? [];
        list.push({ suffix, folderOnly });
        this.suffixes.set(key, list);
      } else {
        // An escape or a class makes the text around it unreliable as literal pieces: break there.
        const pieces = body.split(/\*+|\?|\[[^\]]*\]?|\\./).filter((p) => p.length > 0);
        this.others.push({ pieces, anchoredStart: !/^[*?[\\]/.test(body), anchoredEnd: !/[*?\]]$/.test(body) || body.endsWith('\\]'), folderOnly });
      }
    }
  }

  mayMatch(nameIn: string, isFolder: boolean): boolean {
    const name = this.lower ? nameIn.toLowerCase() : nameIn;
    return this.textMatches(name, isFolder) || this.piecesMayMatch(name, isFolder);
  }

  /**
   * The verdict of the name rules on a name when its text alone settles it: false when no
   * rule could match; true when it equals a rule or ends with a rule's suffix (`*` matches
   * any run of characters but `/`, and a name has none), no negation could match it, and it
   * is ASCII (beyond it, JavaScript's lower case and `ignore`'s case-insensitive matching
   * part ways). Undefined: `ignore` must judge.
   */
  judge(nameIn: string, isFolder: boolean): boolean | undefined {
    const name = this.lower ? nameIn.toLowerCase() : nameIn;
    if (!this.textMatches(name, isFolder)) return this.piecesMayMatch(name, isFolder) ? undefined : false;
    if (!isAscii(nameIn) || this.negations?.mayMatch(nameIn, isFolder)) return undefined;
    return true;
  }

  /** An exact or suffix rule matches `name` (already in the rules' letter case). */
  private textMatches(name: string, isFolder: boolean): boolean {
    if (this.exact.has(name) || (isFolder && this.exactFolder.has(name))) return true;
    const dot = name.lastIndexOf('.');
    if (dot >= 0 && this.suffixes.size) {
      const list = this.suffixes.get(name.slice(dot + 1));
      if (list) for (const s of list) if ((isFolder || !s.folderOnly) && name.endsWith(s.suffix)) return true;
    }
    return false;
  }

  private piecesMayMatch(name: string, isFolder: boolean): boolean {
    for (const o of this.others) {
      if ((isFolder || !o.folderOnly) && piecesFit(name, o)) return true;
    }
    return false;
  }
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Rule lists compiled by `ignore`, once per process (its rules compile their patterns when first used). */
const compiled = new Map<string, Ignore>();

/**
 * A new `ignore` for `rules`, with its own memory of answers, made from rules compiled once:
 * `ignore` takes over another's rules as they are (its documented `add(ignoreInstance)`).
 */
function ignoreOf(rules: readonly string[], ignorecase: boolean): Ignore {
  const key = `${ignorecase ? 'i' : 'c'}\n${rules.join('\n')}`;
  let template = compiled.get(key);
  if (!template) {
    if (compiled.size >= 16) compiled.clear();
    template = ignore({ ignorecase }).add(rules as string[]);
    compiled.set(key, template);
  }
  return ignore({ ignorecase }).add(template);
}

/** Whether the pieces occur in `name` in order, at its start or end where the pattern is anchored. */
function piecesFit(name: string, o: { pieces: string[]; anchoredStart: boolean; anchoredEnd: boolean }): boolean {
  let at = 0;
  const last = o.pieces.length - 1;
  for (let i = 0; i <= last; i++) {
    const p = o.pieces[i];
    if (i === 0 && o.anchoredStart) {
      if (!name.startsWith(p)) return false;
      at = p.length;
    } else if (i === last && o.anchoredEnd) {
      if (name.length - p.length < at || !name.endsWith(p)) return false;
    } else {
      const found = name.indexOf(p, at);
      if (found < 0) return false;
      at = found + p.length;
    }
  }
  return true;
}

export function fastMatcher(rules: readonly string[], opts: { ignorecase: boolean }): PathMatcher {
  const top: FolderVerdict = { excluded: false, seen: 0 };
  const nameRules = rules.filter(isNameRule);
  const pathRules = rules.filter((r) => !isNameRule(r));
  // A negated path rule could re-include what a name rule excluded: judge everything whole then.
  if (pathRules.some((r) => r.startsWith('!'))) {
    const whole = ignoreOf(rules, opts.ignorecase);
    const m = ((relPath: string) => whole.ignores(relPath)) as PathMatcher;
    return Object.assign(m, {
      top,
      folder: (parent: FolderVerdict, _name: string, relPath: string) => (parent.excluded || whole.ignores(`${relPath}/`) ? { excluded: true, seen: 0 } : top),
      file: (folder: FolderVerdict, _name: string, relPath: string) => folder.excluded || whole.ignores(relPath),
    });
  }
  let namesIgnore: Ignore | undefined;
  const names = (): Ignore => (namesIgnore ??= ignoreOf(nameRules, opts.ignorecase));
  const prefilter = new NamePrefilter(nameRules, opts.ignorecase);
  let pathsIgnore: Ignore | undefined;
  const paths = (): Ignore => (pathsIgnore ??= ignoreOf(rules, opts.ignorecase));
  // Each path rule names folders or files literally (`.aws`, `credentials`): a path lacking
  // any of one rule's names as a whole segment cannot match that rule.
  const bits = new Map<string, number>();
  const needs = pathRules.map((r) => {
    let mask = 0;
    for (const n of literalNames(r)) {
      const key = opts.ignorecase ? n.toLowerCase() : n;
      if (!bits.has(key)) bits.set(key, bits.size < 31 ? 1 << bits.size : 0);
      mask |= bits.get(key)!;
    }
    return mask;
  });
  // More distinct names than bits: the path rules are judged on every path instead.
  const alwaysWhole = [...bits.values()].includes(0);
  const bitOf = (name: string): number => (bits.size ? bits.get(opts.ignorecase ? name.toLowerCase() : name) ?? 0 : 0);
  const pathMayMatch = (seen: number): boolean => alwaysWhole || needs.some((mask) => (mask & seen) === mask);

  const folder = (parent: FolderVerdict, name: string, relPath: string): FolderVerdict => {
    if (parent.excluded) return parent;
    const seen = parent.seen | bitOf(name);
    // A folder, with the trailing slash: that is how gitignore judges folders.
    const byName = prefilter.judge(name, true);
    if (byName ?? names().ignores(`${name}/`)) return { excluded: true, seen };
    if (pathRules.length && pathMayMatch(seen) && paths().ignores(`${relPath}/`)) return { excluded: true, seen };
    return seen === parent.seen ? parent : { excluded: false, seen };
  };
  const file = (dir: FolderVerdict, name: string, relPath: string): boolean => {
    if (dir.excluded) return true;
    if (prefilter.judge(name, false) ?? names().ignores(name)) return true;
    return pathRules.length > 0 && pathMayMatch(dir.seen | bitOf(name)) && paths().ignores(relPath);
  };
  const whole = (relPath: string): boolean => {
    let dir = top;
    let start = 0;
    for (;;) {
      const slash = relPath.indexOf('/', start);
      if (slash < 0) break;
      dir = folder(dir, relPath.slice(start, slash), relPath.slice(0, slash));
      if (dir.excluded) return true;
      start = slash + 1;
    }
    // A folder path given with its trailing slash has no name after it.
    return start < relPath.length && file(dir, relPath.slice(start), relPath);
  };
  return Object.assign(whole, { top, folder, file });
}

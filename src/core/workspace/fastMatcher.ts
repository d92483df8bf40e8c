// gitignore-style matching for fixed rule lists tested against tens of thousands of paths
// (default excludes, credential files). `ignore` tests every rule against the path and each
// of its folders: tens of microseconds a path, most of a large selection's time. A rule
// without a slash inside (`node_modules/`, `*.pem`, `!.env.example`) only ever looks at one
// name, so such rules are judged once per distinct name (most names repeat: index.js,
// package.json) and the answer is kept; rules with a path in them go to `ignore` as a whole,
// and only for paths that hold every name such a rule spells out. Same answers as `ignore` (a test
// compares them).
import ignore, { type Ignore } from 'ignore';

function isNameRule(rule: string): boolean {
  const body = rule.replace(/^!/, '').replace(/\/$/, '');
  return !body.includes('/');
}

/** The literal folder or file names a path rule mentions: a path without any of them cannot match it. */
function literalNames(rule: string): string[] {
  return rule.replace(/^!/, '').split('/').filter((s) => s && !/[*?[\]\\]/.test(s));
}

export function fastMatcher(rules: readonly string[], opts: { ignorecase: boolean }): (relPath: string) => boolean {
  const nameRules = rules.filter(isNameRule);
  const pathRules = rules.filter((r) => !isNameRule(r));
  // A negated path rule could re-include what a name rule excluded: judge everything whole then.
  if (pathRules.some((r) => r.startsWith('!'))) {
    const whole = ignore({ ignorecase: opts.ignorecase }).add(rules as string[]);
    return (relPath) => whole.ignores(relPath);
  }
  const names: Ignore = ignore({ ignorecase: opts.ignorecase }).add(nameRules);
  const paths: Ignore | undefined = pathRules.length ? ignore({ ignorecase: opts.ignorecase }).add(rules as string[]) : undefined;
  // Each path rule names folders or files literally (`.aws`, `credentials`): a path lacking
  // any of one rule's names as a whole segment cannot match that rule.
  const needs = pathRules.map((r) => literalNames(r).map((n) => (opts.ignorecase ? n.toLowerCase() : n)));
  const memo = new Map<string, boolean>();
  const nameMatches = (segment: string): boolean => {
    let hit = memo.get(segment);
    if (hit === undefined) {
      hit = names.ignores(segment);
      // The cache is per matcher, and a matcher lives for one selection.
      memo.set(segment, hit);
    }
    return hit;
  };
  return (relPath) => {
    let start = 0;
    for (;;) {
      const slash = relPath.indexOf('/', start);
      if (slash < 0) {
        // A folder path given with its trailing slash has no name after it.
        if (start < relPath.length && nameMatches(relPath.slice(start))) return true;
        break;
      }
      // A folder: its name with the trailing slash, as gitignore judges folders.
      if (nameMatches(relPath.slice(start, slash + 1))) return true;
      start = slash + 1;
    }
    if (!paths) return false;
    const probe = `/${opts.ignorecase ? relPath.toLowerCase() : relPath}/`;
    return needs.some((names) => names.every((n) => probe.includes(`/${n}/`))) && paths.ignores(relPath);
  };
}

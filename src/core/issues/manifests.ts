// Where a dependency finding lives, and the edit that upgrades it. The service names a
// manifest or lock file and a package, no line (decisions.md, "A dependency finding"): the
// finding sits on the first line of that file naming the package, else on line 1. Upgrade
// to X edits the version the manifest asks for, in the manifests whose syntax is plain
// enough to edit one line without guessing (npm package.json, Python requirements files
// and pyproject.toml, Maven pom.xml, Go go.mod); anywhere else, or where the line is not
// clear (no version, a range, a property, the package named twice), there is no edit and
// the version is offered to copy instead.

export interface DependencyRef { name: string; version?: string; ecosystem?: string; fixVersion?: string }

/** A one-line edit: 0-based line, its text now and after. */
export interface ManifestEdit { line: number; before: string; after: string }

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).toLowerCase();
}

/** PEP 503: names compare lowercase, runs of `-`, `_`, `.` equal. */
function pythonName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** A Maven name is `group:artifact`; lines name the artifact. */
function artifactOf(name: string): string {
  return name.includes(':') ? name.slice(name.lastIndexOf(':') + 1) : name;
}

function isPythonFile(base: string): boolean {
  return /^requirements.*\.(txt|in)$/.test(base) || base === 'pyproject.toml' || base === 'pipfile' || base === 'pipfile.lock' || base === 'poetry.lock' || base === 'setup.py' || base === 'setup.cfg';
}

/** Whether a line names the package: per file where the syntax says how, else as a whole word. */
function namer(path: string, name: string): (line: string) => boolean {
  const base = baseName(path);
  if (base === 'package.json') {
    const key = new RegExp(`"${escape(name)}"\\s*:`);
    return (l) => key.test(l);
  }
  if (base === 'package-lock.json' || base === 'npm-shrinkwrap.json') {
    const key = new RegExp(`"(?:node_modules/)?${escape(name)}"\\s*:`);
    return (l) => key.test(l);
  }
  if (base === 'pnpm-lock.yaml') {
    const key = new RegExp(`(^|[\\s/'"])${escape(name)}(@|'?"?:)`);
    return (l) => key.test(l);
  }
  if (isPythonFile(base)) {
    const want = pythonName(name);
    return (l) => [...l.matchAll(/[A-Za-z0-9][A-Za-z0-9._-]*/g)].some((m) => pythonName(m[0]) === want);
  }
  if (base === 'pom.xml' || base.endsWith('.gradle') || base.endsWith('.gradle.kts')) {
    const artifact = escape(artifactOf(name));
    const re = new RegExp(`<artifactId>\\s*${artifact}\\s*</artifactId>|[:'"]${artifact}[:'"]`);
    return (l) => re.test(l);
  }
  // A whole word: not part of a longer name (`lodash` is not `lodash.merge` nor `@types/lodash`).
  const word = new RegExp(`(^|[^A-Za-z0-9_.@/-])${escape(name)}($|[^A-Za-z0-9_.-])`);
  return (l) => word.test(l);
}

function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** The 1-based line of `path` (its text) that names the package: the first, else 1. */
export function dependencyLine(path: string, text: string, name: string): number {
  if (!name.trim()) return 1;
  const names = namer(path, name.trim());
  const lines = linesOf(text);
  const at = lines.findIndex(names);
  return at < 0 ? 1 : at + 1;
}

/** A plain version: digits and dots, an optional `v` and pre-release or build part; no range. */
const PLAIN_VERSION = /^v?\d+(\.\d+)*([-+][0-9A-Za-z.-]+)?$/;

/** The edit of the manifest line that asks for the package, or undefined when that is not clear. */
export function upgradeEdit(path: string, text: string, dep: DependencyRef): ManifestEdit | undefined {
  const fix = dep.fixVersion?.trim();
  if (!fix || !PLAIN_VERSION.test(fix) || !dep.name.trim()) return undefined;
  const base = baseName(path);
  const lines = linesOf(text);
  const edits = base === 'package.json' ? npmEdits(lines, dep.name, fix)
    : /^requirements.*\.(txt|in)$/.test(base) ? requirementEdits(lines, dep.name, fix)
      : base === 'pyproject.toml' ? pyprojectEdits(lines, dep.name, fix)
        : base === 'pom.xml' ? mavenEdits(lines, dep.name, fix)
          : base === 'go.mod' ? goEdits(lines, dep.name, fix)
            : [];
  // Named twice (a dependency and a dev dependency, two requirement files' worth): which one is not clear.
  return edits.length === 1 ? edits[0] : undefined;
}

/** `"name": "^1.2.3"` in package.json: the range's operator kept, its version replaced. */
function npmEdits(lines: string[], name: string, fix: string): ManifestEdit[] {
  const re = new RegExp(`^(\\s*"${escape(name)}"\\s*:\\s*")([~^]|>=|=)?([^"\\s]+)("\\s*,?\\s*)$`);
  return lines.flatMap((line, n) => {
    const m = re.exec(line);
    if (!m || !PLAIN_VERSION.test(m[3]!)) return [];
    return [{ line: n, before: line, after: `${m[1]}${m[2] ?? ''}${fix.replace(/^v/, '')}${m[4]}` }];
  });
}

/** `name==1.2.3` (or `>=`, `~=`) in a requirements file, markers and comments kept. */
function requirementEdits(lines: string[], name: string, fix: string): ManifestEdit[] {
  const want = pythonName(name);
  return lines.flatMap((line, n) => {
    const m = /^(\s*)([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?(\s*)(===|==|>=|~=)(\s*)([^\s;#,]+)(.*)$/.exec(line);
    if (!m || pythonName(m[2]!) !== want || !PLAIN_VERSION.test(m[7]!) || m[8]!.trimStart().startsWith(',')) return [];
    return [{ line: n, before: line, after: `${m[1]}${m[2]}${m[3] ?? ''}${m[4]}${m[5]}${m[6]}${fix.replace(/^v/, '')}${m[8]}` }];
  });
}

/** pyproject.toml: a PEP 621 string (`"name>=1.2"`) or a Poetry line (`name = "^1.2"`, `name = { version = "^1.2", … }`). */
function pyprojectEdits(lines: string[], name: string, fix: string): ManifestEdit[] {
  const want = pythonName(name);
  const version = fix.replace(/^v/, '');
  return lines.flatMap((line, n) => {
    const pep = /^(.*["'])([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?(\s*)(===|==|>=|~=)(\s*)([^\s"',;]+)(["'].*)$/.exec(line);
    if (pep && pythonName(pep[2]!) === want && PLAIN_VERSION.test(pep[7]!)) {
      return [{ line: n, before: line, after: `${pep[1]}${pep[2]}${pep[3] ?? ''}${pep[4]}${pep[5]}${pep[6]}${version}${pep[8]}` }];
    }
    const poetry = /^(\s*["']?)([A-Za-z0-9][A-Za-z0-9._-]*)(["']?\s*=\s*(?:\{[^}]*\bversion\s*=\s*)?["'])([~^]|>=|==)?([^"']+)(["'].*)$/.exec(line);
    if (poetry && pythonName(poetry[2]!) === want && PLAIN_VERSION.test(poetry[5]!)) {
      return [{ line: n, before: line, after: `${poetry[1]}${poetry[2]}${poetry[3]}${poetry[4] ?? ''}${version}${poetry[6]}` }];
    }
    return [];
  });
}

/** pom.xml: the literal `<version>` of the `<dependency>` naming the artifact (and its group, when the name has one). */
function mavenEdits(lines: string[], name: string, fix: string): ManifestEdit[] {
  const group = name.includes(':') ? name.slice(0, name.lastIndexOf(':')) : undefined;
  const artifactRe = new RegExp(`<artifactId>\\s*${escape(artifactOf(name))}\\s*</artifactId>`);
  const groupRe = group ? new RegExp(`<groupId>\\s*${escape(group)}\\s*</groupId>`) : undefined;
  // Each block naming the package: its edit, or undefined where its version is not a literal here.
  const named: (ManifestEdit | undefined)[] = [];
  let start = -1;
  lines.forEach((line, n) => {
    if (/<dependency>/.test(line)) start = n;
    if (!/<\/dependency>/.test(line) || start < 0) return;
    const block = lines.slice(start, n + 1);
    const text = block.join('\n');
    if (artifactRe.test(text) && (!groupRe || groupRe.test(text))) {
      const at = block.findIndex((l) => /<version>/.test(l));
      // `${property}` is set elsewhere: not this line's to change.
      const m = at < 0 ? null : /^(.*<version>\s*)([^<\s]+)(\s*<\/version>.*)$/.exec(block[at]!);
      named.push(m && PLAIN_VERSION.test(m[2]!) ? { line: start + at, before: block[at]!, after: `${m[1]}${fix.replace(/^v/, '')}${m[3]}` } : undefined);
    }
    start = -1;
  });
  return named.every((e) => e !== undefined) ? named as ManifestEdit[] : [];
}

/** go.mod: the module's line of a `require` (single or in a block); replace and exclude lines are not requirements. */
function goEdits(lines: string[], name: string, fix: string): ManifestEdit[] {
  const version = fix.startsWith('v') ? fix : `v${fix}`;
  const module = escape(name);
  let block: string | undefined;
  return lines.flatMap((line, n) => {
    const open = /^\s*(require|replace|exclude|retract)\s*\(\s*$/.exec(line);
    if (open) { block = open[1]; return []; }
    if (block && /^\s*\)\s*$/.test(line)) { block = undefined; return []; }
    const re = block === 'require'
      ? new RegExp(`^(\\s*${module}\\s+)(v[^\\s/]+)(.*)$`)
      : block === undefined ? new RegExp(`^(\\s*require\\s+${module}\\s+)(v[^\\s/]+)(.*)$`) : undefined;
    const m = re?.exec(line);
    if (!m || !PLAIN_VERSION.test(m[2]!)) return [];
    return [{ line: n, before: line, after: `${m[1]}${version}${m[3]}` }];
  });
}

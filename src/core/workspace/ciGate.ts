// Which gate this repository's CI puts on a scan (decisions.md, "Which gate this
// repository's CI uses"): the first `corgea scan` command of its CI configuration, read as
// text (nothing runs), with its --block-on, --fail, --fail-on and --project-name. A value
// the text does not give (a variable, a secret) is not guessed: the gate is then unreadable,
// and a verdict on it is unknown.
import { l10n } from '../text/l10n';

/** The CI configuration files, in the order they are read; GitHub's workflows by name. */
export const CI_CONFIG_FILES = ['.github/workflows/*.yml', '.github/workflows/*.yaml', '.gitlab-ci.yml', 'azure-pipelines.yml', 'bitbucket-pipelines.yml', '.circleci/config.yml', 'Jenkinsfile'] as const;

/** Whether a repository path is one of the CI configuration files. */
export function isCiConfigFile(path: string): boolean {
  return /^\.github\/workflows\/[^/]+\.ya?ml$/.test(path) || CI_CONFIG_FILES.includes(path as (typeof CI_CONFIG_FILES)[number]);
}

/** The order files are read in: as CI_CONFIG_FILES lists them, workflows by name. */
export function ciFileOrder(a: string, b: string): number {
  const rank = (p: string) => (p.startsWith('.github/workflows/') ? 0 : CI_CONFIG_FILES.indexOf(p as (typeof CI_CONFIG_FILES)[number]));
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

export type Threshold = 'CR' | 'HI' | 'ME' | 'LO';
export const THRESHOLDS: readonly Threshold[] = ['CR', 'HI', 'ME', 'LO'];

export type CiGate =
  /** `--block-on SLUG,...`: the named CI blocking rules, as the service evaluates them. */
  | { kind: 'block-on'; slugs: string[] }
  /** `--fail` (deprecated): every active blocking rule. */
  | { kind: 'fail' }
  /** `--fail-on CR,HI,ME,LO,malicious`: a security finding at or above the lowest urgency listed; any malicious dependency. */
  | { kind: 'fail-on'; threshold?: Threshold; malicious: boolean }
  /** A scan without a gate: CI does not fail on findings. */
  | { kind: 'none' }
  /** The command's gate cannot be read from the text: why, in words. */
  | { kind: 'unreadable'; why: string };

export interface FoundGate {
  gate: CiGate;
  /** `--project-name`, when the command gives one as plain text. */
  projectName?: string;
  /** Where it was read: the repository path and its 1-based line (the setting: undefined). */
  file?: string;
  line?: number;
  /** The command as written (one line, bounded). */
  command: string;
}

const COMMAND = /(^|[\s;&|'"`(/=])corgea(\.exe)?\s+scan\b/;

/** Words of a shell command line, quotes removed; a value made at run time is kept as written and marked. */
function words(text: string): { word: string; dynamic: boolean }[] {
  const out: { word: string; dynamic: boolean }[] = [];
  let cur = '';
  let dynamic = false;
  let started = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else {
        if (quote === '"' && (c === '$' || c === '`')) dynamic = true;
        cur += c;
      }
      continue;
    }
    if (c === '"' || c === "'") { quote = c; started = true; continue; }
    if (/\s/.test(c)) {
      if (started) out.push({ word: cur, dynamic });
      cur = ''; dynamic = false; started = false;
      continue;
    }
    // The command ends where the shell's next one begins.
    if (c === ';' || c === '|' || c === '&' || c === ')') break;
    if (c === '$' || c === '`' || c === '{' || c === '%') dynamic = true;
    cur += c;
    started = true;
  }
  if (started) out.push({ word: cur, dynamic });
  return out;
}

/** A line's text without its comment: `#` (YAML, shell) or `//` (Jenkinsfile) outside quotes. */
function withoutComment(line: string, jenkins: boolean): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) { if (c === quote) quote = undefined; continue; }
    if (c === '"' || c === "'") { quote = c; continue; }
    const starts = i === 0 || /\s/.test(line[i - 1]!);
    if (starts && (c === '#' || (jenkins && c === '/' && line[i + 1] === '/'))) return line.slice(0, i);
  }
  return line;
}

/**
 * The command that starts at line `at`, joined with the lines that continue it: a trailing
 * backslash (shell), or, in a folded YAML block, the next lines that are only more options.
 */
function commandAt(lines: readonly string[], at: number, jenkins: boolean): string {
  let text = withoutComment(lines[at]!, jenkins);
  for (let n = at + 1; n < lines.length; n++) {
    const next = withoutComment(lines[n]!, jenkins).trim();
    if (/\\\s*$/.test(text)) text = `${text.replace(/\\\s*$/, '')} ${next}`;
    else if (/^-[-\w]/.test(next)) text = `${text} ${next}`;
    else break;
  }
  return text;
}

function valueOf(args: { word: string; dynamic: boolean }[], i: number, flag: string): { value?: string; dynamic: boolean; next: number } {
  const w = args[i]!;
  if (w.word.startsWith(`${flag}=`)) return { value: w.word.slice(flag.length + 1), dynamic: w.dynamic, next: i + 1 };
  const v = args[i + 1];
  return v && !v.word.startsWith('-') ? { value: v.word, dynamic: v.dynamic, next: i + 2 } : { dynamic: false, next: i + 1 };
}

/**
 * The gate of a command line's flags (what follows `corgea scan`, or the setting
 * codeScanner.ciGate). `--fail-on` as the service's CLI reads it: each token is CR, HI, ME,
 * LO or malicious, exactly so; anything else makes the gate unreadable (CI would stop).
 */
export function gateOfFlags(flags: string): { gate: CiGate; projectName?: string } {
  const args = words(flags);
  let blockOn: string | undefined;
  let failOn: string | undefined;
  let fail = false;
  let projectName: string | undefined;
  let dynamic: string | undefined;
  for (let i = 0; i < args.length;) {
    const w = args[i]!.word;
    const flag = ['--block-on', '--fail-on', '--project-name'].find((f) => w === f || w.startsWith(`${f}=`));
    if (flag) {
      const v = valueOf(args, i, flag);
      if (v.dynamic) dynamic = flag;
      if (flag === '--block-on') blockOn = v.value ?? '';
      else if (flag === '--fail-on') failOn = v.value ?? '';
      else projectName = v.dynamic ? undefined : v.value;
      i = v.next;
      continue;
    }
    if (w === '--fail' || w === '-f') fail = true;
    i++;
  }
  const project = projectName ? { projectName } : {};
  if (dynamic === '--block-on' || dynamic === '--fail-on') {
    return { gate: { kind: 'unreadable', why: l10n.t('its {0} value is made when CI runs (a variable or a secret)', dynamic) }, ...project };
  }
  if (blockOn !== undefined && (fail || failOn !== undefined)) return { gate: { kind: 'unreadable', why: l10n.t('{0} is given with {1}, which the CLI refuses', '--block-on', '--fail / --fail-on') }, ...project };
  if (fail && failOn !== undefined) return { gate: { kind: 'unreadable', why: l10n.t('{0} is given with {1}, which the CLI refuses', '--fail', '--fail-on') }, ...project };
  if (blockOn !== undefined) {
    const slugs = blockOn.split(',').map((s) => s.trim());
    if (!blockOn.trim() || slugs.some((s) => !s)) return { gate: { kind: 'unreadable', why: l10n.t('{0} "{1}" names an empty rule slug', '--block-on', blockOn) }, ...project };
    return { gate: { kind: 'block-on', slugs: [...new Set(slugs)] }, ...project };
  }
  if (fail) return { gate: { kind: 'fail' }, ...project };
  if (failOn !== undefined) {
    const tokens = failOn.split(',').map((t) => t.trim()).filter(Boolean);
    const bad = tokens.filter((t) => t !== 'malicious' && !(THRESHOLDS as readonly string[]).includes(t));
    if (!tokens.length || bad.length) return { gate: { kind: 'unreadable', why: l10n.t('{0} "{1}" is not a list of CR, HI, ME, LO or malicious', '--fail-on', failOn) }, ...project };
    const levels = tokens.filter((t): t is Threshold => t !== 'malicious');
    // At or above the lowest level listed.
    const threshold = levels.length ? THRESHOLDS[Math.max(...levels.map((l) => THRESHOLDS.indexOf(l)))] : undefined;
    return { gate: { kind: 'fail-on', ...(threshold ? { threshold } : {}), malicious: tokens.includes('malicious') }, ...project };
  }
  return { gate: { kind: 'none' }, ...project };
}

/** The first `corgea scan` command of one CI configuration file, with its gate. */
export function gateInFile(path: string, text: string): FoundGate | undefined {
  const jenkins = path === 'Jenkinsfile';
  const lines = text.split(/\r\n|\r|\n/);
  for (let at = 0; at < lines.length; at++) {
    const line = withoutComment(lines[at]!, jenkins);
    const m = COMMAND.exec(line);
    if (!m) continue;
    const command = commandAt(lines, at, jenkins);
    const start = COMMAND.exec(command)!;
    let flags = command.slice(start.index + start[0].length);
    // Inside a string of the file's own language (a Jenkinsfile's sh '…'): the command ends with it.
    const enclosing = start[1];
    if (enclosing === "'" || enclosing === '"' || enclosing === '`') flags = flags.split(enclosing)[0]!;
    return { ...gateOfFlags(flags), file: path, line: at + 1, command: command.trim().replace(/\s+/g, ' ').slice(0, 300) };
  }
  return undefined;
}

/** The gate of the repository's CI: the first command of its files, in CI_CONFIG_FILES' order. */
export function findCiGate(files: readonly { path: string; text: string }[]): FoundGate | undefined {
  for (const f of [...files].filter((x) => isCiConfigFile(x.path)).sort((a, b) => ciFileOrder(a.path, b.path))) {
    const found = gateInFile(f.path, f.text);
    if (found) return found;
  }
  return undefined;
}

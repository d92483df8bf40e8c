// What would leave the machine (decisions.md, "Before push, and agents"): the index's
// version of each staged file, or each file a branch changed against its upstream (else the
// merge base with the default branch) as HEAD has it. Deleted files, links and submodules
// are not sent. The content is written into a folder of the extension's own, where a
// partial scan packages it as it would the working tree; the paths are the folder's.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { gitBytes } from './git';
import { isInsideFolder } from './insideFolder';
import { l10n } from '../text/l10n';

export type OutgoingKind = 'staged' | 'branch';

export interface Outgoing {
  kind: OutgoingKind;
  /** Paths relative to the folder (`/`-separated), added or modified, in git's order. */
  files: string[];
  /** Paths deleted: not sent, and said. */
  deleted: string[];
  /** Links and submodules changed: not sent. */
  skipped: string[];
  /** What the branch is compared with (`origin/main`, or a merge base's commit), for messages. */
  against?: string;
  /**
   * Names what was checked exactly (the staged blobs, or HEAD and what it is compared with):
   * a verdict stands while it is the same.
   */
  identity: string;
}

/** More changed files than this are not checked file by file: a scan of the folder says more. */
export const MAX_OUTGOING_FILES = 2000;

interface RawEntry { dstMode: string; dstSha: string; status: string; path: string }

/** `git diff --raw -z --no-renames` output: `:srcmode dstmode srcsha dstsha status\0path\0`. */
export function parseRaw(out: Buffer): RawEntry[] {
  const parts = out.toString('utf8').split('\0');
  const entries: RawEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!.replace(/^:/, '').split(' ');
    const p = parts[i + 1]!;
    if (meta.length < 5 || !p) continue;
    entries.push({ dstMode: meta[1]!, dstSha: meta[3]!, status: meta[4]!.charAt(0), path: p });
  }
  return entries;
}

function sorted(entries: RawEntry[]): Omit<Outgoing, 'kind' | 'identity' | 'against'> {
  const files: string[] = [];
  const deleted: string[] = [];
  const skipped: string[] = [];
  for (const e of entries) {
    if (!isInsideFolder(e.path)) continue;
    if (e.status === 'D') deleted.push(e.path);
    // 120000: a symbolic link; 160000: a submodule's commit. Neither is a file's content.
    else if (e.dstMode === '120000' || e.dstMode === '160000') skipped.push(e.path);
    else files.push(e.path);
  }
  return { files, deleted, skipped };
}

const digestOf = (...parts: (string | Buffer)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
};

/** What the index holds that HEAD does not: the staged files. */
export async function stagedChanges(root: string): Promise<Outgoing> {
  const raw = await gitBytes(root, ['diff', '--cached', '--raw', '-z', '--no-renames', '--relative', '--no-color']);
  return { kind: 'staged', ...sorted(parseRaw(raw)), identity: digestOf('staged', raw) };
}

async function revParse(root: string, spec: string): Promise<string | undefined> {
  try {
    return (await gitBytes(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', spec])).toString('utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A branch name the repository gives, refused when git would read it as an option: its
 * settings are the repository's (a clone's config, a hostile one's), and an upstream named
 * `--output=<path>` made `git diff` write a file wherever it said.
 */
export function refName(name: string): string {
  if (name.startsWith('-')) throw new Error(l10n.t('the branch name "{0}" begins with "-", which git would read as an option; rename it', name));
  return name;
}

/** git's empty tree: a branch with nothing to compare with is compared with it, so every file counts. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** What the branch is compared with: its upstream, else the default branch (origin's, else main or master). */
async function baseOf(root: string): Promise<string | undefined> {
  const upstream = await gitBytes(root, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}']).then((b) => b.toString('utf8').trim(), () => '');
  if (upstream) return refName(upstream);
  const originHead = await gitBytes(root, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']).then((b) => b.toString('utf8').trim(), () => '');
  for (const candidate of [originHead, 'origin/main', 'origin/master', 'main', 'master'].filter((c) => c && !c.startsWith('-'))) {
    if (await revParse(root, `${candidate}^{commit}`)) return candidate;
  }
  return undefined;
}

/**
 * What a push of HEAD would send: the files changed on HEAD since it left its upstream (or
 * the default branch). A branch with no base to compare with sends every file HEAD has.
 */
export async function branchChanges(root: string): Promise<Outgoing> {
  const head = await revParse(root, 'HEAD');
  if (!head) throw new Error(l10n.t('the branch has no commit yet: there is nothing to push'));
  const base = await baseOf(root);
  const baseSha = base ? await revParse(root, `${base}^{commit}`) : undefined;
  if (base && baseSha === head) return { kind: 'branch', files: [], deleted: [], skipped: [], against: base, identity: digestOf('branch', head, baseSha) };
  // Commits by their ids only, options ended: nothing the repository names reaches git's options.
  const raw = await gitBytes(root, ['diff', '--raw', '-z', '--no-renames', '--relative', '--no-color', '--end-of-options', ...(baseSha ? [`${baseSha}...${head}`] : [EMPTY_TREE, head]), '--']);
  return { kind: 'branch', ...sorted(parseRaw(raw)), ...(base && baseSha ? { against: base } : {}), identity: digestOf('branch', head, baseSha ?? '') };
}

/**
 * Writes each file as the index (`staged`) or HEAD (`branch`) has it into `into`, under its
 * folder-relative path; returns what was written, by path. Only into `into`: a path that
 * would leave it is not written.
 */
export async function writeOutgoing(root: string, o: Pick<Outgoing, 'kind' | 'files'>, into: string): Promise<Map<string, Buffer>> {
  const written = new Map<string, Buffer>();
  const base = path.resolve(into);
  for (const rel of o.files.slice(0, MAX_OUTGOING_FILES)) {
    const target = path.resolve(base, ...rel.split('/'));
    if (!target.startsWith(base + path.sep)) continue;
    const bytes = await gitBytes(root, ['show', '--no-textconv', o.kind === 'staged' ? `:./${rel}` : `HEAD:./${rel}`]);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await fsp.writeFile(target, bytes, { mode: 0o600, flag: 'wx' });
    written.set(rel, bytes);
  }
  return written;
}

import { nextTurn } from '../async/slices';
import { promises as fsp, type Dirent } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { boundPatterns } from './patterns';
import { compareBytes } from './pathsOnDisk';
import { nameExclusion, type SelectionContext } from './selectionRules';

/**
 * Walk outside git: every `.gitignore` applies to its own subtree; ignored folders are
 * pruned. A folder a .gitignore re-includes (`!fixtures/**\/node_modules`) is kept with
 * everything in it, default excludes or not.
 */
export async function walk(ctx: SelectionContext): Promise<{ files: string[]; kept: Set<string> }> {
  const out: string[] = [];
  const kept = new Set<string>();
  const visit = async (dirRel: string, levels: GitignoreLevel[], keptHere: boolean): Promise<void> => {
    const dirAbs = dirRel ? path.join(ctx.root, ...dirRel.split('/')) : ctx.root;
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dirAbs, { withFileTypes: true });
    } catch {
      if (dirRel) ctx.skip(dirRel + '/', 'unreadable');
      return;
    }
    const here = [...levels];
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) here.push(await gitignoreLevel(ctx, dirRel));
    await nextTurn();
    entries.sort((a, b) => compareBytes(a.name, b.name));
    const subdirs: { rel: string; kept: boolean }[] = [];
    for (const e of entries) {
      const rel = dirRel ? `${dirRel}/${e.name}` : e.name;
      const isDir = e.isDirectory();
      const verdict = gitignoreVerdict(here, rel, isDir);
      if (verdict === 'ignored') {
        ctx.skip(isDir ? rel + '/' : rel, 'ignore-file');
        continue;
      }
      const keep = keptHere || verdict === 'kept';
      if (isDir) {
        const reason = nameExclusion(ctx, rel + '/', keep);
        if (reason) ctx.skip(rel + '/', reason);
        else subdirs.push({ rel, kept: keep });
      } else {
        // Files, symlinks (to files or folders) and specials are judged by filterCandidates;
        // symlinked folders are never descended, so nothing is reached twice or from outside.
        out.push(rel);
        if (keep) kept.add(rel);
      }
    }
    for (const d of subdirs) await visit(d.rel, here, d.kept);
  };
  await visit('', [], false);
  return { files: out, kept };
}

interface GitignoreLevel { base: string; ig: Ignore }

/** The patterns of the `.gitignore` in folder `dirRel` (a file there), for paths below it. */
async function gitignoreLevel(ctx: SelectionContext, dirRel: string): Promise<GitignoreLevel> {
  const dirAbs = dirRel ? path.join(ctx.root, ...dirRel.split('/')) : ctx.root;
  const text = await fsp.readFile(path.join(dirAbs, '.gitignore'), 'utf8').catch(() => '');
  const bounded = boundPatterns(text.split(/\r?\n/), dirRel ? `${dirRel}/.gitignore` : '.gitignore');
  ctx.notes.push(...bounded.notes);
  return { base: dirRel, ig: ignore().add(bounded.patterns) };
}

/**
 * Outside git: given files judged by the `.gitignore` files on their way from the root,
 * as the walk would judge them (an ignored folder hides what is in it; a folder or file a
 * .gitignore re-includes is kept whatever the default excludes say).
 */
export async function judgeByGitignoreFiles(ctx: SelectionContext, rels: string[]): Promise<{ ignored: Set<string>; kept: Set<string> }> {
  const levels = new Map<string, Promise<GitignoreLevel | undefined>>();
  const levelAt = (dirRel: string) => {
    let level = levels.get(dirRel);
    if (!level) {
      const file = path.join(ctx.root, ...dirRel.split('/').filter(Boolean), '.gitignore');
      // As the walk: a .gitignore that is a file, not a link to one.
      level = fsp.lstat(file).then((st) => (st.isFile() ? gitignoreLevel(ctx, dirRel) : undefined), () => undefined);
      levels.set(dirRel, level);
    }
    return level;
  };
  const ignored = new Set<string>();
  const kept = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split('/');
    const here: GitignoreLevel[] = [];
    let keep = false;
    for (let i = 0; i < parts.length; i++) {
      const level = await levelAt(parts.slice(0, i).join('/'));
      if (level) here.push(level);
      const isDir = i < parts.length - 1;
      const verdict = gitignoreVerdict(here, parts.slice(0, i + 1).join('/'), isDir);
      if (verdict === 'ignored') {
        ignored.add(rel);
        break;
      }
      keep ||= verdict === 'kept';
    }
    if (keep && !ignored.has(rel)) kept.add(rel);
  }
  return { ignored, kept };
}

/** git semantics: the deepest .gitignore with an opinion on the path wins. */
function gitignoreVerdict(levels: GitignoreLevel[], rel: string, isDir: boolean): 'ignored' | 'kept' | undefined {
  for (let i = levels.length - 1; i >= 0; i--) {
    const { base, ig } = levels[i];
    const sub = base ? rel.slice(base.length + 1) : rel;
    const r = ig.test(isDir ? sub + '/' : sub);
    if (r.ignored) return 'ignored';
    if (r.unignored) return 'kept';
  }
  return undefined;
}


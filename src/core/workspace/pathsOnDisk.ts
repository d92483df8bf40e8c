import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';

/**
 * Where a selected file is on disk (a symlink's resolved target, so it can be opened
 * without following links). `rel` is a safe relative path (no `..`, no empty segment), so
 * joining needs no normalising: most platforms' file APIs take `/` as a separator.
 */
export function absolutePathOf(root: string, rel: string): string {
  return path.sep === '/' ? `${root}/${rel}` : path.join(root, ...rel.split('/'));
}

/**
 * A symlink in the folder, followed only when its final target is inside `realRoot`: that
 * file's status and its path relative to `realRoot`.
 */
export function followLinkInside(realRoot: string, abs: string): { st: Stats; target: string } | 'missing' | 'symlink-outside' {
  let real: string;
  let st: Stats;
  try {
    real = realpathSync(abs);
    st = statSync(real);
  } catch {
    return 'missing';
  }
  if (!isInside(realRoot, real)) return 'symlink-outside';
  return { st, target: path.relative(realRoot, real).split(path.sep).join('/') };
}

export function lstatQuiet(p: string): Stats | NodeJS.ErrnoException {
  try {
    return lstatSync(p);
  } catch (e) {
    return e as NodeJS.ErrnoException;
  }
}

/** A path given as absolute, relative to the folder (or to where its links lead), when it is inside it. */
export function toRelative(ctx: { root: string; realRoot: string }, abs: string): string | undefined {
  const resolved = path.resolve(abs);
  for (const base of [ctx.root, ctx.realRoot]) {
    const rel = path.relative(base, resolved);
    // `..data/x.js` and `...js` are ordinary names; only a `..` segment leaves the folder.
    if (rel && rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  }
  return undefined;
}

/** A relative path with no empty, `.` or `..` segment, no backslash, not absolute. */
export function isSafeRelative(rel: string): boolean {
  // A drive letter makes a path absolute only on Windows; elsewhere `C:x.js` is a name (see zipWouldRename).
  if (!rel || rel.startsWith('/') || (path.sep === '\\' && /^[a-zA-Z]:/.test(rel)) || rel.includes('\\')) return false;
  // No empty, `.` or `..` segment, looked at without splitting (this runs for every file).
  for (let start = 0; start <= rel.length;) {
    let end = rel.indexOf('/', start);
    if (end < 0) end = rel.length;
    const len = end - start;
    if (len === 0 || (rel.charCodeAt(start) === 46 /* . */ && (len === 1 || (len === 2 && rel.charCodeAt(start + 1) === 46)))) return false;
    start = end + 1;
  }
  return true;
}

export function isInside(realRoot: string, real: string): boolean {
  const rel = path.relative(realRoot, real);
  return rel !== '' && !rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel);
}

/** Byte-order comparison: the same order on every machine and locale. */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

import * as path from 'node:path';

/** True for a relative path that cannot climb out of the folder it is resolved against. */
export function isInsideFolder(relative: string): boolean {
  const p = relative.replace(/\\/g, '/');
  if (p === '' || p.startsWith('/') || /^[a-zA-Z]:/.test(p) || p.includes('\0')) return false;
  const norm = path.posix.normalize(p);
  return norm !== '..' && !norm.startsWith('../') && norm !== '.';
}

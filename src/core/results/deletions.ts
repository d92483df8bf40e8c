// A file watcher's "deleted" is a hint, not a fact: by the time it arrives the file may be
// there again (a tool that deletes and writes anew, a branch switched and switched back, a
// watcher that lost its watch and reports the path gone). Only files missing now lose their
// findings, so a late or spurious event never hides one; the next scan speaks for the rest.
import { promises as fsp } from 'node:fs';
import { isNotFound } from '../workspace/safeOpen';

/** Whether something is at `absPath` now; only "no such file" says no (other errors cannot tell, so yes). */
export async function existsNow(absPath: string): Promise<boolean> {
  try {
    await fsp.lstat(absPath);
    return true;
  } catch (e) {
    return !isNotFound(e);
  }
}

/** Of `paths` (files with findings under what was reported deleted), those missing now. */
export async function missingNow(paths: Iterable<string>, exists: (relPath: string) => Promise<boolean>): Promise<Set<string>> {
  const unique = [...new Set(paths)];
  const there = await Promise.all(unique.map((p) => exists(p)));
  return new Set(unique.filter((_, i) => !there[i]));
}

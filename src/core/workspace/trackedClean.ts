// Whether a folder's tracked files differ from HEAD (the upload's `dirty` field) asks git
// to compare every one of them with its index: on the babel shape ~70 ms of CPU, on two
// cores shared with the selection's own lstat of the same files and git's walk for untracked
// ones. A re-scan can do with less. When git last found the folder clean, the index was a
// given file and HEAD a given commit; if both are still what they were, a tracked file can
// only have changed since by being written, and the selection has just looked at every one:
// those not written since (the very file the last packaging recorded, last changed before
// that index was written) are still clean, and git is asked about the others alone. "Before
// the index was written" compares two times of the same file system: a clock of our own
// (Date.now) could run ahead of the one that stamps the files (a network share, WSL on a
// Windows drive), and a file written after git looked would then pass for one from before.
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Selection } from './selection';

/** The status of a file, enough to tell it is the very file seen before (a rewrite changes ctime, a replacement the inode). */
export interface FileIdentity {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * A clean reading: git found every tracked file of the folder as commit `head` has it, the
 * index being the file `index` identifies (its times are those of its writing, before git
 * looked).
 */
export interface TrackedClean {
  head: string;
  index: FileIdentity;
}

/**
 * Files changed this close before the index was written are asked about again: file times
 * are as coarse as two seconds on some file systems, so a later write could carry a time
 * from just before.
 */
const CLOCK_SLACK_MS = 2000;
/** More paths than this (or than MAX_RECHECK_CHARS of them) and git compares the whole folder instead. */
const MAX_RECHECK = 200;
/** Windows limits a command line to 32,767 characters. */
const MAX_RECHECK_CHARS = 16_000;

export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * The paths git must look at for the folder's tracked files to count as clean since `clean`:
 * the tracked ones the selection could not match with its last packaging's records
 * (Selection.trackedUnrecorded), and every selected file changed since shortly before the
 * index of `clean` was written.
 * Undefined when there are too many to name one by one (or the selection kept no such list).
 */
export function pathsToRecheck(sel: Selection, clean: TrackedClean): string[] | undefined {
  if (!sel.trackedUnrecorded) return undefined;
  const paths = new Set(sel.trackedUnrecorded);
  const cutoff = Math.min(clean.index.mtimeMs, clean.index.ctimeMs) - CLOCK_SLACK_MS;
  const files = sel.files;
  for (let i = 0; i < files.length && paths.size <= MAX_RECHECK; i++) {
    // Untracked files among them cost nothing: git's status without untracked files skips them.
    if (!(files.mtimeMs(i) < cutoff && files.ctimeMs(i) < cutoff)) paths.add(files.path(i));
  }
  if (paths.size > MAX_RECHECK) return undefined;
  const list = [...paths];
  return list.reduce((n, p) => n + p.length + 3, 0) > MAX_RECHECK_CHARS ? undefined : list;
}

const n = z.number().finite();
const trackedCleanSchema = z.object({
  head: z.string().regex(/^[0-9a-f]{40,64}$/),
  index: z.object({ ino: n, size: n, mtimeMs: n, ctimeMs: n }),
});

/** The folder's last clean reading, kept in the extension's storage (a small JSON file). */
export class TrackedCleanStore {
  constructor(private readonly file: string) {}

  load(): TrackedClean | undefined {
    try {
      const parsed = trackedCleanSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async keep(clean: TrackedClean): Promise<void> {
    await fsp.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.tmp`;
    await fsp.writeFile(tmp, JSON.stringify(clean), { mode: 0o600 });
    await fsp.rename(tmp, this.file);
  }
}

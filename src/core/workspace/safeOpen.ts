// Opening workspace files without trusting what is on disk now. Between choosing a file
// and reading it, the file (or a folder above it) may have been replaced by a symbolic
// link leading out of the workspace, or by a FIFO that would block a plain open() forever.
// O_NOFOLLOW refuses a link as the last path component, O_NONBLOCK makes opening a FIFO
// return at once, and fstat on the open descriptor tells what was really opened.
import { constants, fstatSync, openSync, closeSync, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** Flags for reading a file that must be a regular file and not a symlink (0 where the platform lacks them). */
export const SAFE_READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export type OpenRefusal = 'missing' | 'unreadable' | 'not-a-file' | 'changed';

export interface Expectation {
  /** Inode the file had when it was chosen; another inode means it was swapped meanwhile. */
  ino?: number;
}

/** Whether an error of a file-system call says there is nothing at the path. */
export function isNotFound(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function refusal(e: unknown): OpenRefusal {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (isNotFound(e)) return 'missing';
  // ELOOP: the last component is now a symlink (O_NOFOLLOW); ENXIO: a socket or FIFO peer.
  if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR') return 'not-a-file';
  return 'unreadable';
}

function judge(st: Stats, expect: Expectation): OpenRefusal | undefined {
  if (!st.isFile()) return 'not-a-file';
  if (expect.ino !== undefined && expect.ino !== 0 && st.ino !== 0 && st.ino !== expect.ino) return 'changed';
  return undefined;
}

/** Synchronous form for the packager's hot path; never blocks on a FIFO. */
export function openRegularFileSync(absPath: string, expect: Expectation = {}): { fd: number; stats: Stats } | OpenRefusal {
  let fd: number;
  try {
    fd = openSync(absPath, SAFE_READ_FLAGS);
  } catch (e) {
    return refusal(e);
  }
  try {
    const stats = fstatSync(fd);
    const bad = judge(stats, expect);
    if (bad) {
      closeSync(fd);
      return bad;
    }
    return { fd, stats };
  } catch (e) {
    closeSync(fd);
    return refusal(e);
  }
}

export async function openRegularFile(absPath: string, expect: Expectation = {}): Promise<{ handle: FileHandle; stats: Stats } | OpenRefusal> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(absPath, SAFE_READ_FLAGS);
  } catch (e) {
    return refusal(e);
  }
  try {
    const stats = await handle.stat();
    const bad = judge(stats, expect);
    if (bad) {
      await handle.close();
      return bad;
    }
    return { handle, stats };
  } catch (e) {
    await handle.close().catch(() => undefined);
    return refusal(e);
  }
}

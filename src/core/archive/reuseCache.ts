// The archive of a folder's last full scan, kept (one per folder, bounded in size) so the
// next scan reuses the compressed bytes of every file that did not change. A file counts as
// unchanged without being read when its size, modification and change times and inode are
// what they were (a tool that writes and then puts the old modification time back still
// changes the change time), and it was last modified well before that archive was made (a
// file changed within the clock's granularity of the archive's making could have changed
// again unnoticed, as git's "racy" entries). A file whose times changed is read, and its
// entry still reused when its size, CRC-32 and, inflated, its very bytes are what they were
// (a branch switched back and forth, a tool that touches files). Anything unexpected (missing, truncated, another version or
// deflate level, an index that does not fit its archive) means no reuse.
import { closeSync, existsSync, promises as fsp, openSync, readSync } from 'node:fs';
import * as path from 'node:path';
import type { FileList } from '../workspace/fileList';
import { HEADER_PREFIX, headerBytes, parseIndexHeader, parseIndexInSlices, serializeIndex, type ArchiveIndex } from './archiveIndex';

export interface ReusableArchive {
  path: string;
  level: number;
  /** When the archive was started (ms since the epoch). */
  madeAtMs: number;
  /** Its entries, in archive order (ascending path bytes). */
  index: ArchiveIndex;
}

/** Files modified this close to the making of the archive are read again. */
const RACY_MS = 2000;
/** An index whose header claims more than this is not one this version wrote. */
const MAX_HEADER_BYTES = 64 * 1024;
/** Archives larger than this are not kept for reuse. */
export const MAX_REUSE_BYTES = 512 * 1024 * 1024;

/** Whether file `i` of `files` is, by its status, the file entry `j` of the previous archive was made from. */
export function mayReuse(prev: ReusableArchive, j: number, files: FileList, i: number): boolean {
  const c = prev.index.columns;
  const mtime = files.mtimeMs(i);
  return !Number.isNaN(mtime) && c.size[j] === files.size(i) && c.mtimeMs[j] === mtime && c.ctimeMs[j] === files.ctimeMs(i)
    && c.ino[j] === files.ino(i) && mtime < prev.madeAtMs - RACY_MS;
}

export class ReuseCache {
  constructor(private readonly dir: string) {}

  private get archivePath(): string { return path.join(this.dir, 'last.zip'); }
  private get indexPath(): string { return path.join(this.dir, 'last.index'); }

  /** Whether an archive was kept (cheaper than load, which reads and checks its index). */
  has(): boolean {
    return existsSync(this.indexPath);
  }

  /**
   * When the kept archive made with this deflate level was made and how many files it holds,
   * from its index's header alone (load reads and checks the whole index: ~20 ms at 27,000
   * files in a process that has not read one before).
   */
  peek(level: number): { madeAtMs: number; files: number } | undefined {
    let fd: number | undefined;
    try {
      fd = openSync(this.indexPath, 'r');
      const prefix = Buffer.alloc(HEADER_PREFIX);
      const end = readSync(fd, prefix, 0, prefix.length, 0) === prefix.length ? headerBytes(prefix) : undefined;
      if (end === undefined || end > MAX_HEADER_BYTES) return undefined;
      const head = Buffer.alloc(end);
      if (readSync(fd, head, 0, end, 0) !== end) return undefined;
      const h = parseIndexHeader(head);
      return h && h.level === level ? { madeAtMs: h.madeAtMs, files: h.count } : undefined;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /**
   * The kept archive, when it is intact and was made with this deflate level. Read and
   * checked a slice at a time: the extension host's thread goes on meanwhile.
   */
  async load(level: number): Promise<ReusableArchive | undefined> {
    try {
      const parsed = await parseIndexInSlices(await fsp.readFile(this.indexPath));
      if (!parsed || parsed.header.level !== level) return undefined;
      if ((await fsp.stat(this.archivePath)).size !== parsed.header.archiveSize) return undefined;
      return { path: this.archivePath, level, madeAtMs: parsed.header.madeAtMs, index: parsed.index };
    } catch {
      return undefined;
    }
  }

  /** Keeps `archivePath` (moved here) and its index in place of the previous one. */
  async keep(archivePath: string, index: ArchiveIndex, level: number, madeAtMs: number): Promise<void> {
    const size = (await fsp.stat(archivePath)).size;
    await this.clear();
    if (size > MAX_REUSE_BYTES) return;
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fsp.rename(archivePath, this.archivePath).catch(async () => {
      await fsp.copyFile(archivePath, this.archivePath);
    });
    const tmp = `${this.indexPath}.tmp`;
    await fsp.writeFile(tmp, serializeIndex(index, { level, madeAtMs, archiveSize: size }), { mode: 0o600 });
    await fsp.rename(tmp, this.indexPath);
  }

  async clear(): Promise<void> {
    await fsp.rm(this.indexPath, { force: true });
    // The index of the version before this one, if a scan of that version left it.
    await fsp.rm(path.join(this.dir, 'last.json'), { force: true });
    await fsp.rm(this.archivePath, { force: true });
  }
}

/**
 * The kept archive of `cache`, read on the first call and the same answer after: a scan
 * reads it when its selection first asks (once git is at work on its listings, which the
 * reading then overlaps), and packaging gets the same one.
 */
export function loadOnce(cache: ReuseCache | undefined, level: number): () => Promise<ReusableArchive | undefined> {
  let kept: Promise<ReusableArchive | undefined> | undefined;
  return () => (kept ??= cache ? cache.load(level) : Promise.resolve(undefined));
}

// The archive of a folder's last full scan, kept (one per folder, bounded in size) so the
// next scan reuses the compressed bytes of every file that did not change. A file counts as
// unchanged when its size, modification and change times and inode are what they were (a
// tool that writes and then puts the old modification time back still changes the change
// time), and it was last modified well before that archive was made (a file changed
// within the clock's granularity of the archive's making could have changed again
// unnoticed, as git's "racy" entries). Anything unexpected (missing, truncated, another
// version or deflate level) means no reuse.
import { promises as fsp, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** Where each file's compressed bytes are in an archive, and what file they were made from. */
export interface IndexedEntry {
  path: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
  crc: number;
  method: number;
  compressedSize: number;
  /** Offset of the entry's data (after its local header) in the archive. */
  dataAt: number;
}

export interface ReusableArchive {
  path: string;
  level: number;
  /** When the archive was started (ms since the epoch). */
  madeAtMs: number;
  entries: Map<string, IndexedEntry>;
}

const VERSION = 1;
/** Files modified this close to the making of the archive are read again. */
const RACY_MS = 2000;
/** Archives larger than this are not kept for reuse. */
export const MAX_REUSE_BYTES = 512 * 1024 * 1024;

export function mayReuse(e: IndexedEntry | undefined, file: { size: number; mtimeMs?: number; ctimeMs?: number; ino?: number }, madeAtMs: number): e is IndexedEntry {
  return !!e && file.mtimeMs !== undefined && e.size === file.size && e.mtimeMs === file.mtimeMs && e.ctimeMs === file.ctimeMs
    && e.ino === (file.ino ?? 0) && e.mtimeMs < madeAtMs - RACY_MS;
}

type Row = [string, number, number, number, number, number, number, number, number, number];

export class ReuseCache {
  constructor(private readonly dir: string) {}

  private get archivePath(): string { return path.join(this.dir, 'last.zip'); }
  private get indexPath(): string { return path.join(this.dir, 'last.json'); }

  /** The kept archive, when it is intact and was made with this deflate level. */
  load(level: number): ReusableArchive | undefined {
    try {
      const meta = JSON.parse(readFileSync(this.indexPath, 'utf8')) as { version: number; level: number; madeAtMs: number; size: number; rows: Row[] };
      if (meta.version !== VERSION || meta.level !== level || !Array.isArray(meta.rows)) return undefined;
      if (statSync(this.archivePath).size !== meta.size) return undefined;
      const entries = new Map<string, IndexedEntry>();
      for (const r of meta.rows) {
        if (!Array.isArray(r) || r.length !== 10 || typeof r[0] !== 'string' || !r.slice(1).every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return undefined;
        const [p, size, mtimeMs, ctimeMs, ino, mode, crc, method, compressedSize, dataAt] = r;
        if (dataAt + compressedSize > meta.size || (method !== 0 && method !== 8)) return undefined;
        entries.set(p, { path: p, size, mtimeMs, ctimeMs, ino, mode, crc, method, compressedSize, dataAt });
      }
      return { path: this.archivePath, level, madeAtMs: meta.madeAtMs, entries };
    } catch {
      return undefined;
    }
  }

  /** Keeps `archivePath` (moved here) and its index in place of the previous one. */
  async keep(archivePath: string, index: readonly IndexedEntry[], level: number, madeAtMs: number): Promise<void> {
    const size = (await fsp.stat(archivePath)).size;
    await this.clear();
    if (size > MAX_REUSE_BYTES) return;
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fsp.rename(archivePath, this.archivePath).catch(async () => {
      await fsp.copyFile(archivePath, this.archivePath);
    });
    const rows: Row[] = index.map((e) => [e.path, e.size, e.mtimeMs, e.ctimeMs, e.ino, e.mode, e.crc, e.method, e.compressedSize, e.dataAt]);
    const tmp = `${this.indexPath}.tmp`;
    await fsp.writeFile(tmp, JSON.stringify({ version: VERSION, level, madeAtMs, size, rows }), { mode: 0o600 });
    await fsp.rename(tmp, this.indexPath);
  }

  async clear(): Promise<void> {
    await fsp.rm(this.indexPath, { force: true });
    await fsp.rm(this.archivePath, { force: true });
  }
}

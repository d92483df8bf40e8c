// Which files each uploaded archive held, kept beside the extension's other storage and
// keyed by the archive's SHA-256. A fix may only write a file its scan uploaded, and a
// Refresh Results long after the scan must still know that; the lists (up to tens of
// thousands of paths) stay out of the workspace state, which is rewritten often.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

const SHA256 = /^[0-9a-f]{64}$/;

export class ArchivedFiles {
  constructor(private readonly dir: string) {}

  private file(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not an archive digest: ${sha256.slice(0, 80)}`);
    return path.join(this.dir, `${sha256}.json`);
  }

  async save(sha256: string, entries: readonly string[]): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const target = this.file(sha256);
    const tmp = `${target}.${process.pid}.tmp`;
    await fsp.writeFile(tmp, JSON.stringify(entries), { mode: 0o600 });
    await fsp.rename(tmp, target);
  }

  /** The archive's paths, or undefined when the list is gone or damaged (then nothing counts as uploaded). */
  async load(sha256: string | undefined): Promise<Set<string> | undefined> {
    if (!sha256 || !SHA256.test(sha256)) return undefined;
    try {
      const v: unknown = JSON.parse(await fsp.readFile(this.file(sha256), 'utf8'));
      return Array.isArray(v) && v.every((p) => typeof p === 'string') ? new Set(v as string[]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Deletes every list whose archive is not in `keep`. */
  async prune(keep: Iterable<string>): Promise<void> {
    const wanted = new Set(keep);
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const sha = name.replace(/\.json$/, '');
      if (!wanted.has(sha)) await fsp.rm(path.join(this.dir, name), { force: true });
    }
  }
}

// Which files each uploaded archive held, kept beside the extension's other storage and
// keyed by the archive's SHA-256. A fix may only write a file its scan uploaded, and a
// Refresh Results long after the scan must still know that; the lists (up to tens of
// thousands of paths) stay out of the workspace state, which is rewritten often.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { nextTurn } from '../async/slices';
import { l10n } from '../text/l10n';

const SHA256 = /^[0-9a-f]{64}$/;

/** Paths by position, made as strings one at a time (an archive's index). */
export interface PathList {
  readonly length: number;
  path(i: number): string;
}

/**
 * The JSON text of the paths, written into one growing buffer a path at a time: for a large
 * repository an array of strings and its text would both be alive at once, and long enough
 * to outlive V8's young generation. A hundred thousand paths in one go held the extension
 * host too long: it pauses every few milliseconds (the bytes are the same).
 */
async function jsonArray(entries: readonly string[] | PathList, sliceMs = 5): Promise<Buffer> {
  const at = Array.isArray(entries) ? (i: number) => (entries as readonly string[])[i] : (i: number) => (entries as PathList).path(i);
  let out = Buffer.allocUnsafe(Math.max(64, entries.length * 64));
  let used = 0;
  const put = (text: string) => {
    if (used + text.length * 3 > out.length) {
      const next = Buffer.allocUnsafe(Math.max(out.length * 2, used + text.length * 3));
      out.copy(next, 0, 0, used);
      out = next;
    }
    used += out.write(text, used, 'utf8');
  };
  put('[');
  let sliceStart = performance.now();
  for (let i = 0; i < entries.length; i++) {
    // The clock costs more than a path: look every 256.
    if ((i & 255) === 0 && performance.now() - sliceStart > sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
    put(i ? `,${JSON.stringify(at(i))}` : JSON.stringify(at(i)));
  }
  put(']');
  return out.subarray(0, used);
}

export class ArchivedFiles {
  constructor(private readonly dir: string) {}

  private file(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(l10n.t('not an archive digest: {0}', sha256.slice(0, 80)));
    return path.join(this.dir, `${sha256}.json`);
  }

  /** Keeps the archive's paths (an array, or an archive's index) as a JSON array. */
  async save(sha256: string, entries: readonly string[] | PathList): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const target = this.file(sha256);
    const tmp = `${target}.${process.pid}.tmp`;
    await fsp.writeFile(tmp, await jsonArray(entries), { mode: 0o600 });
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

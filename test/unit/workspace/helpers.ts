import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import yauzl from 'yauzl';

export async function tempDir(prefix: string): Promise<string> {
  // realpath: on some systems the temp dir itself sits behind a symlink
  return fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), prefix)));
}

export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, body] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await fsp.mkdir(path.dirname(abs), { recursive: true });
    await fsp.writeFile(abs, body);
  }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', '-c', 'core.excludesFile=', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** A fresh folder holding `files`, all committed to a new git repository. */
export async function committedRepo(prefix: string, files: Record<string, string | Buffer>): Promise<string> {
  const root = await tempDir(prefix);
  await writeTree(root, files);
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  return root;
}

export interface ZipEntryInfo { name: string; method: number; data: Buffer; mtime: Date; mode: number }

/** Every entry of a zip file, in archive order, read with yauzl. */
export function readZip(file: string): Promise<ZipEntryInfo[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: ZipEntryInfo[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (err2, s) => {
          if (err2 || !s) return reject(err2);
          const parts: Buffer[] = [];
          s.on('data', (c: Buffer) => parts.push(c));
          s.on('end', () => {
            out.push({ name: e.fileName, method: e.compressionMethod, data: Buffer.concat(parts), mtime: e.getLastModDate(), mode: (e.externalFileAttributes >>> 16) & 0o7777 });
            zip.readEntry();
          });
          s.on('error', reject);
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/**
 * Incompressible bytes that are not binary by content (no NUL, binaryContent.ts): what the
 * packager stores rather than deflates, and still uploads.
 */
export function incompressible(size: number): Buffer {
  const b = randomBytes(size);
  for (let i = 0; i < b.length; i++) if (b[i] === 0) b[i] = 1;
  return b;
}

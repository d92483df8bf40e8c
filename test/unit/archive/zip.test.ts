import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { buildZip } from '../../../src/core/archive/zip';
import { selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { git, incompressible, readZip, tempDir, writeTree } from '../workspace/helpers';

const TEXT = 'export function add(a: number, b: number) { return a + b; }\n'.repeat(300);

describe('buildZip', () => {
  test('zips exactly the selection, sorted, deterministic, in a private temp dir; dispose deletes it', async () => {
    const root = await tempDir('zipws-');
    const outside = await tempDir('zipout-');
    const tmpRoot = await tempDir('ziptmp-');
    try {
      const random = incompressible(200 * 1024);
      await writeTree(root, {
        'z/last.ts': TEXT,
        'a/first.py': 'print(1)\n',
        'B/upper.ts': 'upper\n',
        'data/random.dat': random,
        'empty.txt': '',
        '.gitignore': 'ignored.log\n',
        'ignored.log': 'no\n',
        'node_modules/x/index.js': 'no\n',
        'huge.txt': 'h'.repeat(300 * 1024),
      });
      await fsp.writeFile(path.join(outside, 'secret.txt'), 'outside');
      await fsp.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-out.txt'));
      git(root, 'init', '-q');
      const sel = await selectWorkspaceFiles(root, { maxFileSizeBytes: 250 * 1024 });
      assert.ok(sel.skipped.some((s) => s.path === 'huge.txt' && s.reason === 'too-large'), 'the oversized file is reported');

      const zip = await buildZip(sel, { tmpRoot });
      const zip2 = await buildZip(sel, { tmpRoot });
      try {
        const dirMode = (await fsp.stat(path.dirname(zip.path))).mode & 0o777;
        assert.equal(dirMode, 0o700, 'the archive directory must be private');
        assert.equal(path.dirname(path.dirname(zip.path)), tmpRoot);
        assert.equal(zip.name, 'project.zip');
        assert.equal(zip.size, (await fsp.stat(zip.path)).size);
        assert.equal(zip.sha256, createHash('sha256').update(readFileSync(zip.path)).digest('hex'));
        assert.equal(zip2.sha256, zip.sha256, 'the same files must give the same bytes');

        const entries = await readZip(zip.path);
        const names = entries.map((e) => e.name);
        assert.deepEqual(names, ['.gitignore', 'B/upper.ts', 'a/first.py', 'data/random.dat', 'empty.txt', 'z/last.ts']);
        assert.deepEqual(zip.index.paths(), names);
        for (const absent of ['ignored.log', 'node_modules/x/index.js', 'huge.txt', 'link-out.txt']) assert.ok(!names.includes(absent), `${absent} must not be archived`);
        const byName = new Map(entries.map((e) => [e.name, e]));
        assert.equal(byName.get('z/last.ts')!.data.toString(), TEXT);
        assert.ok(byName.get('data/random.dat')!.data.equals(random));
        assert.equal(byName.get('z/last.ts')!.method, 8, 'text is deflated');
        assert.equal(byName.get('data/random.dat')!.method, 0, 'incompressible data is stored');
        assert.ok(entries.every((e) => e.mtime.getFullYear() === 2000), 'entries carry the fixed date');
      } finally {
        await zip.dispose();
        await zip2.dispose();
        await zip.dispose(); // twice is fine
      }
      await assert.rejects(fsp.stat(zip.path), /ENOENT/);
      await assert.rejects(fsp.stat(path.dirname(zip.path)), /ENOENT/);
    } finally {
      for (const d of [root, outside, tmpRoot]) await fsp.rm(d, { recursive: true, force: true });
    }
  });

  test('stored and deflated files many times the read-ahead slab come out byte for byte, also with two builds at once', async () => {
    // Stored (incompressible) data goes to archiver as views of the reused slab, and a region
    // is reused only after the output sink has copied it out. Reusing one too early would
    // corrupt stored entries; this puts ~24 MB of mixed entries through a slab of 4 MB.
    const root = await tempDir('zipslab-');
    const tmpRoot = await tempDir('zipslabtmp-');
    try {
      const files: Record<string, Buffer> = {};
      for (let i = 0; i < 90; i++) {
        const n = String(i).padStart(2, '0');
        files[`r/${n}-random.dat`] = incompressible(20_000 + ((i * 97_331) % 900_000));
        files[`t/${n}-text.ts`] = Buffer.from(`export const v${i} = '${'x'.repeat(i % 50)}';\n`.repeat(10 + ((i * 389) % 3000)));
      }
      files['big/random-2mb.dat'] = incompressible(2 * 1024 * 1024 + 17); // over the read-whole limit: streamed
      files['big/text-2mb.ts'] = Buffer.from('let big = 1;\n'.repeat(170_000));
      await writeTree(root, files);
      const sel = await selectWorkspaceFiles(root);
      const [one, two] = await Promise.all([buildZip(sel, { tmpRoot }), buildZip(sel, { tmpRoot })]);
      try {
        assert.equal(two.sha256, one.sha256, 'a build that had to use private memory gives the same bytes');
        const entries = await readZip(one.path);
        assert.equal(entries.length, Object.keys(files).length);
        for (const e of entries) {
          assert.ok(e.data.equals(files[e.name]), `${e.name} must round-trip byte for byte`);
          assert.equal(e.method, e.name.includes('random') ? 0 : 8, `${e.name}: random data stored, text deflated`);
        }
      } finally {
        await one.dispose();
        await two.dispose();
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(tmpRoot, { recursive: true, force: true });
    }
  });

  test('a file that vanished after selection is reported, the rest is zipped', async () => {
    const root = await tempDir('zipgone-');
    try {
      await writeTree(root, { 'a.ts': 'a\n', 'b.ts': 'b\n' });
      const sel = await selectWorkspaceFiles(root);
      await fsp.rm(path.join(root, 'a.ts'));
      const zip = await buildZip(sel);
      try {
        assert.deepEqual((await readZip(zip.path)).map((e) => e.name), ['b.ts']);
        assert.deepEqual(zip.skipped, [{ path: 'a.ts', reason: 'missing' }]);
      } finally {
        await zip.dispose();
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('a bad archive name is refused', async () => {
    const root = await tempDir('zipname-');
    try {
      const sel = await selectWorkspaceFiles(root);
      await assert.rejects(buildZip(sel, { name: '../x.zip' }), /plain file name/);
      await assert.rejects(buildZip(sel, { name: 'x.tar' }), /ending in \.zip/);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });
});

describe('buildZip cancellation', () => {
  test('a cancel while entries are being deflated ahead stops packaging and leaves no archive behind', async () => {
    const root = await tempDir('zipcancelmid-');
    const tmpRoot = await tempDir('zipcancelmidtmp-');
    try {
      // 8 MB of text: more than the read-ahead slab, so packaging is mid-way when the cancel lands.
      const text = (i: number) => `export const v${i} = ${i};\n`.repeat(1200);
      await writeTree(root, Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`src/f${String(i).padStart(3, '0')}.ts`, text(i)])));
      const sel = await selectWorkspaceFiles(root);
      const ac = new AbortController();
      const building = buildZip(sel, { tmpRoot, signal: ac.signal });
      setImmediate(() => ac.abort(new Error('user cancelled mid-way')));
      await assert.rejects(building, /user cancelled mid-way/);
      assert.deepEqual(await fsp.readdir(tmpRoot), [], 'the private directory must be removed');
      // Deflates still running when the cancel landed must not surface later as errors.
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(tmpRoot, { recursive: true, force: true });
    }
  });

  test('an aborted signal stops packaging and leaves no archive behind', async () => {
    const root = await tempDir('zipcancel-');
    const tmpRoot = await tempDir('zipcanceltmp-');
    try {
      await writeTree(root, Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.ts`, TEXT])));
      const sel = await selectWorkspaceFiles(root);
      const ac = new AbortController();
      ac.abort(new Error('user cancelled'));
      await assert.rejects(buildZip(sel, { tmpRoot, signal: ac.signal }), /user cancelled/);
      assert.deepEqual(await fsp.readdir(tmpRoot), [], 'the private directory must be removed');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(tmpRoot, { recursive: true, force: true });
    }
  });
});

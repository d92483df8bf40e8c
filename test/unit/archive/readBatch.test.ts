// Deflate workers read the batches they deflate on a first packaging. They must open files as
// the main thread does (no link followed, no FIFO waited on, the inode chosen) and judge
// them the same way, so the archive and what it leaves out are the same whichever thread
// read a file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { looksIncompressible } from '../../../src/core/archive/compressibility';
import {
  READ_BINARY, READ_CHANGED, READ_ELSEWHERE, READ_MISSING, READ_NOT_A_FILE, READ_OK, readBatch, readBatchMetaBytes, readBatchViews,
} from '../../../src/core/archive/readBatch';
import { buildZip, startDeflateWorkers } from '../../../src/core/archive/zip';
import { SAFE_READ_FLAGS } from '../../../src/core/workspace/safeOpen';
import { selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { readZip, tempDir, writeTree } from '../workspace/helpers';

describe('readBatch: a worker reading its own batch', () => {
  test('reads whole files one after the other and says why each other file was not read', async () => {
    const parent = await tempDir('readbatch-');
    const root = path.join(parent, 'repo');
    try {
      // Random bytes without a NUL: incompressible, and not binary by git's test.
      const random = Buffer.from(randomBytes(70 * 1024).map((b) => b || 1));
      await writeTree(root, { 'a.js': 'const a = 1;\n', 'run.sh': '#!/bin/sh\necho hi\n', 'nul.bin': Buffer.from([0x41, 0, 0x42]), 'random.dat': random, 'swapped.js': 'x\n', 'big.js': 'y'.repeat(4000) });
      await writeTree(parent, { 'outside.js': 'SECRET\n' });
      await fsp.chmod(path.join(root, 'run.sh'), 0o755);
      await fsp.symlink('../outside.js', path.join(root, 'link.js'));
      execFileSync('mkfifo', [path.join(root, 'fifo.js')]);
      await fsp.mkdir(path.join(root, 'dir.js'));
      const swappedIno = fs.statSync(path.join(root, 'swapped.js')).ino;
      // Kept under another name, so the new file cannot get its inode back.
      await fsp.rename(path.join(root, 'swapped.js'), path.join(root, 'swapped-before.js'));
      await writeTree(root, { 'swapped.js': 'another file\n' });

      const names = ['a.js', 'run.sh', 'gone.js', 'link.js', 'fifo.js', 'dir.js', 'swapped.js', 'nul.bin', 'random.dat', 'big.js'];
      const r = readBatchViews(new ArrayBuffer(readBatchMetaBytes(16)), 16);
      r.ino[names.indexOf('swapped.js')] = swappedIno;
      // Room for everything but big.js once the others are in.
      const input = Buffer.alloc('const a = 1;\n'.length + '#!/bin/sh\necho hi\n'.length + random.length + 100);
      readBatch(fs, SAFE_READ_FLAGS, names.length, (i) => path.join(root, names[i]), input, looksIncompressible, r);

      assert.deepEqual([...r.status.subarray(0, names.length)], [READ_OK, READ_OK, READ_MISSING, READ_NOT_A_FILE, READ_NOT_A_FILE, READ_NOT_A_FILE, READ_CHANGED, READ_BINARY, READ_OK, READ_ELSEWHERE]);
      assert.deepEqual([...r.length.subarray(0, names.length)].filter((_, i) => r.status[i] === READ_OK), ['const a = 1;\n'.length, '#!/bin/sh\necho hi\n'.length, random.length]);
      assert.equal(input.subarray(0, 13).toString(), 'const a = 1;\n');
      const at = 'const a = 1;\n'.length + '#!/bin/sh\necho hi\n'.length;
      assert.ok(input.subarray(at, at + random.length).equals(random), 'laid out one after the other');
      assert.equal(r.mode[0], 0o644);
      assert.equal(r.mode[1], 0o755);
      assert.deepEqual([r.store[0], r.store[8]], [0, 1], 'random bytes over 64 KB are stored as they are');
      assert.ok(!input.includes('SECRET'), 'the link was not followed');
    } finally {
      await fsp.rm(parent, { recursive: true, force: true });
    }
  });
});

describe('packaging with workers that read', () => {
  test('files swapped, grown or removed after selection: the same archive and the same reasons as the main thread alone gives', async () => {
    const parent = await tempDir('readbatch-pack-');
    const root = path.join(parent, 'repo');
    const tmpRoot = await tempDir('readbatch-tmp-');
    try {
      const tree: Record<string, string> = {};
      // More than the megabyte packaging deflates before its workers take over.
      for (let i = 0; i < 600; i++) tree[`src/m${String(i).padStart(3, '0')}.js`] = `export const v${i} = ${i};\n`.repeat(100 + (i % 40));
      await writeTree(root, tree);
      await writeTree(parent, { 'outside.js': 'SECRET\n' });
      const sel = await selectWorkspaceFiles(root);
      assert.ok(sel.totalBytes > 1024 * 1024);
      // Between choosing and packaging: a link, a FIFO, a file gone, one grown past a batch, one grown within it.
      await fsp.rm(path.join(root, 'src/m010.js'));
      await fsp.symlink('../../outside.js', path.join(root, 'src/m010.js'));
      await fsp.rm(path.join(root, 'src/m020.js'));
      execFileSync('mkfifo', [path.join(root, 'src/m020.js')]);
      await fsp.rm(path.join(root, 'src/m030.js'));
      await fsp.appendFile(path.join(root, 'src/m040.js'), 'export const grown = 1;\n'.repeat(20_000));
      await fsp.appendFile(path.join(root, 'src/m050.js'), 'export const more = 2;\n');
      await fsp.writeFile(path.join(root, 'src/m060.js'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));

      const read = await buildZip(sel, { tmpRoot, workersStarted: startDeflateWorkers() });
      const alone = await buildZip(sel, { tmpRoot, workers: 0 });
      try {
        assert.equal(read.sha256, alone.sha256, 'byte for byte the same archive');
        const reasons = (skipped: { path: string; reason: string }[]) => Object.fromEntries(skipped.map((s) => [s.path, s.reason]));
        assert.deepEqual(reasons(read.skipped), { 'src/m010.js': 'not-a-file', 'src/m020.js': 'not-a-file', 'src/m030.js': 'missing', 'src/m060.js': 'binary' });
        assert.deepEqual(reasons(alone.skipped), reasons(read.skipped));
        const entries = await readZip(read.path);
        assert.equal(entries.length, 596);
        const byName = new Map(entries.map((e) => [e.name, e.data.toString()]));
        assert.equal(byName.get('src/m040.js'), fs.readFileSync(path.join(root, 'src/m040.js'), 'utf8'), 'the file grown past a batch, packaged whole');
        assert.equal(byName.get('src/m050.js'), fs.readFileSync(path.join(root, 'src/m050.js'), 'utf8'));
        assert.ok(![...byName.values()].some((t) => t.includes('SECRET')));
        // The index of a worker-read file holds what packaging saw, for the next scan's reuse.
        const i = read.index.columns;
        const k = entries.findIndex((e) => e.name === 'src/m100.js');
        assert.equal(i.size[k], fs.statSync(path.join(root, 'src/m100.js')).size);
        assert.equal(i.ino[k], fs.statSync(path.join(root, 'src/m100.js')).ino);
      } finally {
        await Promise.all([read.dispose(), alone.dispose()]);
      }
    } finally {
      await fsp.rm(parent, { recursive: true, force: true });
      await fsp.rm(tmpRoot, { recursive: true, force: true });
    }
  });
});

// The packager on what real trees hold: thousands of small files (deterministic whatever the
// worker count), executable bits, non-ASCII names, more than 65,535 entries (ZIP64), and
// re-scans that copy unchanged entries from the previous archive. Archives are checked with
// yauzl and with Info-ZIP's own `unzip -t`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as yauzl from 'yauzl';
import { serializeIndex } from '../../../src/core/archive/archiveIndex';
import { ReuseCache } from '../../../src/core/archive/reuseCache';
import { DEFAULT_LEVEL, buildZip, startDeflateWorkers } from '../../../src/core/archive/zip';
import { ZipWriter, METHOD_STORE } from '../../../src/core/archive/zipFormat';
import { FileList } from '../../../src/core/workspace/fileList';
import { selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { committedRepo, readZip, tempDir, writeTree } from '../workspace/helpers';

/** Past the first megabyte, packaging hands batches to its workers when told `inlineBytes: MB`. */
const MB = 1024 * 1024;

function smallTree(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`pkg${i % 17}/test/fixtures/case${i}/input.js`] = `// case ${i}\nconst value${i} = require('./x');\nmodule.exports = value${i} + ${i % 7};\n`.repeat(1 + (i % 9));
  }
  return files;
}

/**
 * About one and a half megabytes in a few hundred files: past `inlineBytes: MB`, for the tests that
 * need the workers' batches rather than many entries (each file costs far more than its bytes).
 */
function bulkTree(n = 400): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`pkg${i % 17}/src/mod${i}.js`] = `// module ${i}\nconst value${i} = require('./x');\nmodule.exports = value${i} + ${i % 7};\n`.repeat(30 + (i % 30));
  }
  return files;
}

/** The files made old enough (`old`) that an archive cannot be "racy" about them, a cold build of them kept in a ReuseCache under `store`. */
async function keptColdBuild(root: string, files: string[], store: string, old = new Date(Date.now() - 60_000)): Promise<ReuseCache> {
  for (const rel of files) await fsp.utimes(path.join(root, rel), old, old);
  const cache = new ReuseCache(path.join(store, 'reuse'));
  const first = await buildZip(await selectWorkspaceFiles(root));
  await cache.keep(first.path, first.index, first.level, first.madeAtMs);
  await first.dispose();
  return cache;
}

function unzipTest(file: string): string {
  return execFileSync('unzip', ['-tq', file], { encoding: 'utf8' });
}

describe('packaging real-shaped trees', () => {
  test('thousands of small files: the same bytes on every run and with any number of workers; Info-ZIP agrees', async () => {
    const root = await tempDir('pack-many-');
    try {
      const files = smallTree(3000);
      await writeTree(root, files);
      const sel = await selectWorkspaceFiles(root);
      // Workers after the first megabyte (a tree this size is otherwise packaged without them).
      const a = await buildZip(sel, { workers: 1, inlineBytes: MB });
      const b = await buildZip(sel, { workers: 2, inlineBytes: MB });
      const c = await buildZip(sel, { workers: 3, inlineBytes: MB });
      try {
        assert.equal(b.sha256, a.sha256);
        assert.equal(c.sha256, a.sha256);
        assert.match(unzipTest(a.path), /No errors detected/);
        const entries = await readZip(a.path);
        assert.equal(entries.length, 3000);
        for (const e of entries) assert.equal(e.data.toString(), files[e.name], e.name);
      } finally {
        await Promise.all([a.dispose(), b.dispose(), c.dispose()]);
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('workers started with the selection give the same bytes and are stopped by packaging; workers of another level are stopped unused', async () => {
    const root = await tempDir('pack-prestart-');
    try {
      await writeTree(root, bulkTree());
      const started = startDeflateWorkers();
      const sel = await selectWorkspaceFiles(root);
      const a = await buildZip(sel, { workersStarted: started });
      const otherLevel = startDeflateWorkers(9);
      const b = await buildZip(sel, { workersStarted: otherLevel });
      const c = await buildZip(sel);
      try {
        assert.equal(a.sha256, c.sha256);
        assert.equal(b.sha256, c.sha256, 'the default level as asked, not the level-9 workers');
        for (const pool of [started, otherLevel]) {
          const buffers = pool.inputBuffer(0);
          await assert.rejects(pool.run(buffers, new Float64Array([1]), new Uint8Array([0])), /stopped/);
        }
      } finally {
        await Promise.all([a.dispose(), b.dispose(), c.dispose()]);
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });


  test('files under 128 bytes are stored, bigger ones deflated whether the main thread or a worker packs them', async () => {
    const root = await tempDir('pack-tiny-');
    try {
      const files = bulkTree();
      files['tiny/a.js'] = 'a = 1;\n'.repeat(18); // 126 bytes, compresses well
      files['tiny/b.js'] = 'b = 2;\n'.repeat(19); // 133 bytes
      await writeTree(root, files);
      const sel = await selectWorkspaceFiles(root);
      for (const workers of [0, 1]) {
        const archive = await buildZip(sel, { workers, inlineBytes: MB });
        try {
          const entries = await readZip(archive.path);
          const method = (name: string) => entries.find((e) => e.name === name)?.method;
          assert.equal(method('tiny/a.js'), 0, `workers: ${workers}`);
          assert.equal(method('tiny/b.js'), 8, `workers: ${workers}`);
          for (const e of entries) {
            assert.equal(e.data.toString(), files[e.name], e.name);
            if (e.data.length < 128) assert.equal(e.method, 0, e.name);
          }
          assert.ok(entries.some((e) => e.data.length >= 128 && e.method === 8));
        } finally {
          await archive.dispose();
        }
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('a file bigger than a batch is deflated in parts that join into one stream, the same bytes on the main thread or a worker', async () => {
    const root = await tempDir('pack-parts-');
    try {
      // Text whose repeats reach across the parts' edges (224 KB each), so each part needs the 32 KB before it.
      const lines = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `export const v${(i * seed) % 977} = ${(i * 7919) % 104729}; // ${'abcdefgh'.slice(i % 8)}\n`).join('');
      const files: Record<string, string> = {
        'big/just-over-a-batch.ts': lines(9000, 3).slice(0, 256 * 1024 + 1),
        'big/three-parts-exactly.ts': lines(30000, 5).slice(0, 3 * 224 * 1024),
        'big/many-parts.ts': lines(60000, 11),
        'small/a.ts': lines(40, 13),
      };
      await writeTree(root, files);
      const sel = await selectWorkspaceFiles(root);
      const shas: string[] = [];
      for (const workers of [0, 1]) {
        const archive = await buildZip(sel, { workers, inlineBytes: MB });
        try {
          shas.push(archive.sha256);
          const entries = await readZip(archive.path);
          assert.equal(entries.length, 4);
          for (const e of entries) {
            assert.equal(e.data.toString(), files[e.name], `${e.name} (workers: ${workers})`);
            assert.equal(e.method, 8, e.name);
          }
          assert.match(unzipTest(archive.path), /No errors detected/);
        } finally {
          await archive.dispose();
        }
      }
      assert.equal(shas[1], shas[0], 'parts deflated by a worker give the bytes of parts deflated on the main thread');

      // A re-scan copies the big files' entries (data descriptors and all) as they are.
      const store = await tempDir('pack-parts-store-');
      try {
        const cache = await keptColdBuild(root, Object.keys(files), store);
        await fsp.writeFile(path.join(root, 'small/a.ts'), '// changed\n');
        const again = await buildZip(await selectWorkspaceFiles(root), { previous: (await cache.load(DEFAULT_LEVEL)) });
        const cold = await buildZip(await selectWorkspaceFiles(root));
        try {
          assert.equal(again.reused, 3, 'the three big files are copied');
          assert.equal(again.sha256, cold.sha256, 'copied entries are the bytes a cold build makes');
        } finally {
          await again.dispose();
          await cold.dispose();
        }
      } finally {
        await fsp.rm(store, { recursive: true, force: true });
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('a small folder packaged without workers (its bigger files on the thread pool) gives the bytes workers give', async () => {
    const root = await tempDir('pack-threadpool-');
    try {
      const files = smallTree(300);
      // Files of 16-200 KB, which go to the thread pool when no worker is started.
      for (let i = 0; i < 12; i++) {
        files[`src/module${i}.ts`] = Array.from({ length: 300 + i * 250 }, (_, k) => `export const v${k * (i + 3)} = ${(k * 7919) % 104729}; // ${'abcdefgh'.slice(k % 8)}\n`).join('');
      }
      await writeTree(root, files);
      const sel = await selectWorkspaceFiles(root);
      assert.ok(sel.totalBytes < 4 * MB, 'small enough to be packaged without workers');
      const alone = await buildZip(sel);
      const byWorkers = await buildZip(sel, { workersStarted: startDeflateWorkers() });
      try {
        assert.equal(alone.sha256, byWorkers.sha256);
        assert.match(unzipTest(alone.path), /No errors detected/);
        const entries = await readZip(alone.path);
        for (const e of entries) assert.equal(e.data.toString(), files[e.name], e.name);
        assert.ok(entries.filter((e) => e.data.length >= 16 * 1024 && e.method === 8).length >= 10, 'the bigger files are deflated');
      } finally {
        await Promise.all([alone.dispose(), byWorkers.dispose()]);
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('a deflate worker that runs out of memory: packaging starts again without the limit and gives the same bytes', async () => {
    const root = await tempDir('pack-oom-');
    try {
      await writeTree(root, bulkTree());
      const sel = await selectWorkspaceFiles(root);
      const reference = await buildZip(sel);
      // 4 MB is less than a worker needs (Node 20 and 24): it runs out at its first batch.
      // (Not lower: under ~2 MB, Node 24 aborts the whole process while the worker starts.)
      const starved = await buildZip(sel, { workerOldGenerationMb: 4, workers: 1, inlineBytes: MB });
      try {
        assert.equal(starved.sha256, reference.sha256);
        assert.match(unzipTest(starved.path), /No errors detected/);
      } finally {
        await Promise.all([reference.dispose(), starved.dispose()]);
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });
  test('executable bits and non-ASCII names are kept', async () => {
    const root = await tempDir('pack-modes-');
    try {
      await writeTree(root, { 'bin/run.sh': '#!/bin/sh\necho hi\n', 'src/ünïcödé-名前.ts': 'export {};\n', 'README.md': '# x\n' });
      await fsp.chmod(path.join(root, 'bin/run.sh'), 0o755);
      const zip = await buildZip(await selectWorkspaceFiles(root));
      try {
        const byName = new Map((await readZip(zip.path)).map((e) => [e.name, e]));
        assert.equal(byName.get('bin/run.sh')!.mode, 0o755);
        assert.equal(byName.get('README.md')!.mode, 0o644);
        assert.ok(byName.has('src/ünïcödé-名前.ts'));
        assert.match(unzipTest(zip.path), /No errors detected/);
        assert.match(execFileSync('zipinfo', [zip.path], { encoding: 'utf8' }), /-rwxr-xr-x.*bin\/run\.sh/);
      } finally {
        await zip.dispose();
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('more than 65,535 entries are written as ZIP64 and read back', async () => {
    const parts: Buffer[] = [];
    const writer = new ZipWriter({ write: (b) => { parts.push(Buffer.from(b)); } });
    const n = 70_000;
    for (let i = 0; i < n; i++) await writer.add({ name: `f/${i}.txt`, method: METHOD_STORE, crc: 0, compressedSize: 0, size: 0, mode: 0o644 }, Buffer.alloc(0));
    await writer.finish();
    const zip = Buffer.concat(parts);
    const count = await new Promise<number>((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => (err || !z ? reject(err) : resolve(z.entryCount))));
    assert.equal(count, n);
    const dir = await tempDir('pack-zip64-');
    try {
      await fsp.writeFile(path.join(dir, 'big.zip'), zip);
      assert.match(unzipTest(path.join(dir, 'big.zip')), /No errors detected/);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  test('a re-scan copies unchanged entries from the kept archive, reads changed ones, and gives the bytes of a cold build', async () => {
    const root = await tempDir('pack-reuse-');
    const store = await tempDir('pack-reuse-store-');
    try {
      const files = smallTree(400);
      await writeTree(root, files);
      const old = new Date(Date.now() - 60_000);
      const cache = await keptColdBuild(root, Object.keys(files), store, old);

      const changed = 'pkg3/test/fixtures/case3/input.js';
      await fsp.writeFile(path.join(root, changed), '// changed\n');
      // Same size and modification time as before, other content: only the change time tells.
      const sneaky = 'pkg5/test/fixtures/case5/input.js';
      const sneakyText = files[sneaky].replace('case 5', 'case X');
      await fsp.writeFile(path.join(root, sneaky), sneakyText);
      await fsp.utimes(path.join(root, sneaky), old, old);

      const sel = await selectWorkspaceFiles(root);
      const previous = (await cache.load(DEFAULT_LEVEL));
      assert.ok(previous, 'the kept archive loads');
      const again = await buildZip(sel, { previous });
      const cold = await buildZip(sel);
      const coldSha = cold.sha256;
      try {
        assert.equal(again.reused, 398, 'every file but the two changed ones is copied');
        assert.equal(again.sha256, cold.sha256, 'reused entries are the bytes a cold build makes');
        const header = { level: DEFAULT_LEVEL, madeAtMs: 0, archiveSize: cold.size };
        assert.ok(serializeIndex(again.index, header).equals(serializeIndex(cold.index, header)), 'and its index describes them as a cold build does');
        const byName = new Map((await readZip(again.path)).map((e) => [e.name, e.data.toString()]));
        assert.equal(byName.get(changed), '// changed\n');
        assert.equal(byName.get(sneaky), sneakyText);
        assert.match(unzipTest(again.path), /No errors detected/);
      } finally {
        await again.dispose();
        await cold.dispose();
      }
      // Touched, not changed (a branch switched back, a formatter that rewrote the same bytes):
      // read again, recognised by size, CRC and content, and still copied.
      const touched = 'pkg7/test/fixtures/case7/input.js';
      await fsp.writeFile(path.join(root, touched), files[touched]);
      const third = await buildZip(await selectWorkspaceFiles(root), { previous });
      try {
        assert.equal(third.reused, 398, 'the touched file is copied too; only the two changed ones are deflated');
        assert.equal(third.sha256, coldSha);
        assert.equal(third.index.columns.mtimeMs[third.index.paths().indexOf(touched)], (await fsp.stat(path.join(root, touched))).mtimeMs,
          'the index records the file as it is now, so the next scan copies it without reading');
      } finally {
        await third.dispose();
      }
      assert.equal((await cache.load(9)), undefined, 'an archive made with another deflate level is not reused');
      // Another archive of the same size in its place: the index no longer fits it, and the
      // scan packages from scratch instead of copying wrong bytes.
      const kept = path.join(store, 'reuse', 'last.zip');
      const bytes = await fsp.readFile(kept);
      bytes.fill(0x20, 0, Math.floor(bytes.length / 2));
      await fsp.writeFile(kept, bytes);
      const replaced = (await cache.load(DEFAULT_LEVEL));
      assert.ok(replaced, 'its size still matches, so it loads');
      const fresh = await buildZip(await selectWorkspaceFiles(root), { previous: replaced });
      try {
        assert.equal(fresh.reused, 0);
        assert.equal(fresh.sha256, coldSha, 'packaged from scratch');
      } finally {
        await fresh.dispose();
      }
      await fsp.truncate(kept, 100);
      assert.equal((await cache.load(DEFAULT_LEVEL)), undefined, 'a damaged archive is not reused');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(store, { recursive: true, force: true });
    }
  });

  test("a re-scan's selection says where each unchanged file is in the kept archive, and packaging by those places gives the bytes it gives by looking", async () => {
    const files = smallTree(300);
    const root = await committedRepo('pack-known-', files);
    const store = await tempDir('pack-known-store-');
    try {
      const cache = await keptColdBuild(root, Object.keys(files), store);
      const changed = 'pkg2/test/fixtures/case2/input.js';
      await fsp.writeFile(path.join(root, changed), '// changed\n');
      const previous = (await cache.load(DEFAULT_LEVEL))!;
      assert.deepEqual(cache.peek(DEFAULT_LEVEL), { madeAtMs: previous.madeAtMs, files: 300 }, "the index's header alone says when and how many");
      assert.equal(cache.peek(9), undefined, 'another deflate level');
      const sel = await selectWorkspaceFiles(root, { known: previous.index });
      const placed = sel.files.map((f, i) => sel.files.positionIn(previous.index, i));
      for (let i = 0; i < sel.files.length; i++) {
        const at = previous.index.paths().indexOf(sel.files.path(i));
        if (sel.files.path(i) === changed) assert.equal(placed[i], -1, 'a changed file is looked at: no place is kept for it');
        else assert.equal(placed[i], at, sel.files.path(i));
      }
      assert.equal(sel.files.positionIn(FileList.of([]), 0), -1, 'places in another list are not answered');
      const byPlace = await buildZip(sel, { previous });
      // The same files in a list that knows no places: packaging finds each by comparing paths.
      const unplaced = { ...sel, files: FileList.of(sel.files) };
      assert.equal(unplaced.files.positionIn(previous.index, 0), -1);
      const byLooking = await buildZip(unplaced, { previous });
      try {
        assert.equal(byPlace.reused, 299);
        assert.equal(byLooking.reused, 299);
        assert.equal(byPlace.sha256, byLooking.sha256);
      } finally {
        await byPlace.dispose();
        await byLooking.dispose();
      }
      await fsp.writeFile(path.join(store, 'reuse', 'last.index'), 'not an index');
      assert.equal(cache.peek(DEFAULT_LEVEL), undefined, 'a damaged index');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(store, { recursive: true, force: true });
    }
  });

  test("a re-scan's selection, given the kept archive's files, still refuses a folder swapped for a link to other files", async () => {
    const root = await committedRepo('known-', { 'keep.ts': 'kept\n', 'lib/inner.ts': 'inside the workspace\n', 'lib/deep/more.ts': 'more\n' });
    const outside = await tempDir('known-outside-');
    try {
      const first = await buildZip(await selectWorkspaceFiles(root));
      const known = first.index;
      await first.dispose();
      const reasons = async (withKnown: boolean) => {
        const sel = await selectWorkspaceFiles(root, withKnown ? { known } : {});
        return { files: sel.files.paths(), inner: sel.skipped.find((x) => x.path === 'lib/inner.ts')?.reason };
      };

      // Planted: same names, same contents, even the same modification times, but other files.
      await writeTree(outside, { 'planted/inner.ts': 'inside the workspace\n', 'planted/deep/more.ts': 'more\n' });
      for (const rel of ['inner.ts', 'deep/more.ts']) {
        const st = await fsp.stat(path.join(root, 'lib', rel));
        await fsp.utimes(path.join(outside, 'planted', rel), st.atime, st.mtime);
      }
      await fsp.rename(path.join(root, 'lib'), path.join(outside, 'moved'));
      await fsp.symlink(path.join(outside, 'planted'), path.join(root, 'lib'));
      assert.deepEqual(await reasons(true), { files: ['keep.ts'], inner: 'symlink-outside' });

      // The very files archived last time, their folder moved out and linked back: what
      // they hold is what was uploaded then, so their folders are not checked again; any
      // other file there would be.
      await fsp.rm(path.join(root, 'lib'));
      await fsp.symlink(path.join(outside, 'moved'), path.join(root, 'lib'));
      assert.deepEqual(await reasons(false), { files: ['keep.ts'], inner: 'symlink-outside' });
      assert.deepEqual(await reasons(true), { files: ['keep.ts', 'lib/deep/more.ts', 'lib/inner.ts'], inner: undefined });
      await fsp.appendFile(path.join(outside, 'moved', 'inner.ts'), 'written since\n');
      assert.deepEqual(await reasons(true), { files: ['keep.ts', 'lib/deep/more.ts'], inner: 'symlink-outside' });
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });
});

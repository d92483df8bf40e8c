import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { FileList, type Selection } from '../../../src/core/workspace/selectFiles';
import { TrackedCleanStore, pathsToRecheck, type TrackedClean } from '../../../src/core/workspace/trackedClean';
import { tempDir } from './helpers';

/** An index written at 1,000,000 ms by the file system's clock (renamed into place a little later). */
const written = 1_000_000;
const clean: TrackedClean = { head: 'a'.repeat(40), index: { ino: 7, size: 100, mtimeMs: written, ctimeMs: written + 3 } };

function selection(files: { path: string; mtimeMs: number; ctimeMs: number }[], trackedUnrecorded: string[] | undefined): Selection {
  const list = FileList.of(files.map((f, i) => ({ ...f, size: 1, ino: i + 1 })));
  return { root: '/w', files: list, skipped: [], totalBytes: list.totalBytes, notes: [], trackedUnrecorded, rulesKey: 'rules' };
}

describe('pathsToRecheck', () => {
  test('the paths not recorded, and every file changed since shortly before the index was written', () => {
    const old = written - 60_000;
    const sel = selection([
      { path: 'old.ts', mtimeMs: old, ctimeMs: old },
      { path: 'written-after.ts', mtimeMs: old, ctimeMs: written + 5 },
      // Within the slack of coarse file times: it may have been written after.
      { path: 'just-before.ts', mtimeMs: written - 500, ctimeMs: written - 500 },
      { path: 'future-mtime.ts', mtimeMs: written + 10_000, ctimeMs: old },
      { path: 'no-times.ts', mtimeMs: NaN, ctimeMs: NaN },
    ], ['gone.ts', 'link.ts']);
    assert.deepEqual(pathsToRecheck(sel, clean)?.sort(), ['future-mtime.ts', 'gone.ts', 'just-before.ts', 'link.ts', 'no-times.ts', 'written-after.ts']);
  });

  test('none when the selection kept no list, or when there are too many to name', () => {
    assert.equal(pathsToRecheck(selection([], undefined), clean), undefined);
    const recent = Array.from({ length: 201 }, (_, i) => ({ path: `f${i}.ts`, mtimeMs: written, ctimeMs: written }));
    assert.equal(pathsToRecheck(selection(recent, []), clean), undefined);
    assert.equal(pathsToRecheck(selection(recent.slice(0, 200), []), clean)?.length, 200);
    const long = Array.from({ length: 100 }, (_, i) => `${'d/'.repeat(100)}${i}.ts`);
    assert.equal(pathsToRecheck(selection([], long), clean), undefined, 'a command line git cannot be given on every system');
  });
});

describe('TrackedCleanStore', () => {
  test('keeps a reading and reads it back; anything else reads as none', async () => {
    const dir = await tempDir('tracked-clean-');
    try {
      const file = path.join(dir, 'sub', 'git-clean.json');
      const store = new TrackedCleanStore(file);
      assert.equal(store.load(), undefined);
      await store.keep(clean);
      assert.deepEqual(store.load(), clean);
      for (const bad of ['{', 'null', JSON.stringify({ ...clean, head: 'HEAD' }), JSON.stringify({ ...clean, index: { ...clean.index, ino: 'x' } }), JSON.stringify({ ...clean, index: { ...clean.index, mtimeMs: null } })]) {
        await fsp.writeFile(file, bad);
        assert.equal(store.load(), undefined, bad);
      }
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

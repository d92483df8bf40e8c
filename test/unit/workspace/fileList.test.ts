// The compact file list of a selection: git's byte order (UTF-8, not UTF-16 code units),
// no duplicate paths, merging two sorted lists, and files read back as they were added.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FileList, FileListBuilder, comparePaths } from '../../../src/core/workspace/fileList';

const bytesOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

test('files come out sorted by their UTF-8 bytes, as git lists them, without duplicates', () => {
  // 😀 is a surrogate pair (0xD83D …), below Ａ (0xFF21) as JavaScript compares strings, and
  // above it as UTF-8 bytes (F0 … against EF …): git and the archive go by the bytes.
  const names = ['b.ts', 'a/b.ts', 'a.ts', 'a/😀.ts', 'a/Ａ.ts', 'A.ts', 'a.ts', 'a-b.ts', 'a/b.ts'];
  const list = FileList.of(names.map((p, i) => ({ path: p, size: i, mtimeMs: 1000 + i, ctimeMs: 2000 + i, ino: 30 + i })));
  const want = [...new Set(names)].sort(bytesOrder);
  assert.deepEqual(list.paths(), want);
  assert.ok(want.indexOf('a/Ａ.ts') < want.indexOf('a/😀.ts'), 'UTF-8 order, not JavaScript string order');
  assert.equal(list.length, want.length);
  // The first of two equal paths is kept, with its numbers.
  const a = list.at(list.paths().indexOf('a.ts'));
  assert.deepEqual(a, { path: 'a.ts', size: 2, mtimeMs: 1002, ctimeMs: 2002, ino: 32 });
  assert.equal(list.totalBytes, [...list].reduce((n, f) => n + f.size, 0));
});

test('a builder fed in order does not sort; unknown times and inodes read back as absent', () => {
  const b = new FileListBuilder(1, 4);
  for (let i = 0; i < 300; i++) b.add(`dir/${String(i).padStart(4, '0')}-ünï.ts`, i, 0, NaN, NaN, i === 7 ? 'real/target.ts' : undefined);
  const list = b.build();
  assert.equal(list.length, 300);
  assert.equal(list.path(299), 'dir/0299-ünï.ts');
  assert.deepEqual(list.at(7), { path: 'dir/0007-ünï.ts', size: 7, target: 'real/target.ts' });
  assert.deepEqual(list.at(8), { path: 'dir/0008-ünï.ts', size: 8 });
  for (let i = 1; i < list.length; i++) assert.ok(comparePaths(list, i - 1, list, i) < 0);
});

test('merging two sorted lists keeps one of each path, the first list winning', () => {
  const tracked = FileList.of([{ path: 'a.ts', size: 1 }, { path: 'c.ts', size: 3 }, { path: 'e.ts', size: 5 }]);
  const untracked = FileList.of([{ path: 'b.ts', size: 20 }, { path: 'c.ts', size: 30 }, { path: 'f.ts', size: 60 }]);
  const merged = FileList.merge(tracked, untracked);
  assert.deepEqual(merged.map((f) => `${f.path}:${f.size}`), ['a.ts:1', 'b.ts:20', 'c.ts:3', 'e.ts:5', 'f.ts:60']);
  assert.equal(FileList.merge(tracked, FileList.EMPTY), tracked);
  assert.equal(FileList.merge(FileList.EMPTY, untracked), untracked);
});

test("a list built over git's listing keeps its names in the listing's own bytes, each path moved back over what it drops", () => {
  const paths = ['a.js', 'b/ü.js', 'b/skip.bin', 'c.md', 'd/e/f.ts'];
  const listing = Buffer.from(paths.map((p) => `${p}\0`).join(''), 'utf8');
  const b = new FileListBuilder(paths.length, listing.length, listing);
  let start = 0;
  paths.forEach((p, i) => {
    const end = listing.indexOf(0, start);
    assert.equal(listing.toString('utf8', start, end), p, 'what is ahead of the list is still the listing');
    if (!p.endsWith('.bin')) b.addBytes(listing, start, end, i, i, i, i);
    start = end + 1;
  });
  const list = b.build();
  assert.equal(list.names.buffer, listing.buffer, 'no second buffer for the names');
  assert.deepEqual(list.paths(), ['a.js', 'b/ü.js', 'c.md', 'd/e/f.ts']);
  assert.deepEqual([...list].map((f) => f.size), [0, 1, 3, 4]);
});

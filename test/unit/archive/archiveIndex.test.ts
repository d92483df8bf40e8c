// The index a re-scan reads back: the same entries after a round trip, and anything that
// does not describe a consistent, sorted archive refused rather than trusted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ArchiveIndexBuilder, parseIndex, parseIndexInSlices, serializeIndex, type ArchiveIndex, type IndexRow } from '../../../src/core/archive/archiveIndex';
import { FileList } from '../../../src/core/workspace/fileList';

function sample(n: number): { index: ArchiveIndex; size: number } {
  const files = FileList.of(Array.from({ length: n }, (_, i) => ({ path: `src/f${String(i).padStart(4, '0')}-ü.ts`, size: i * 3 })));
  const b = new ArchiveIndexBuilder(2);
  let at = 0;
  for (let i = 0; i < files.length; i++) {
    const nameLen = Buffer.byteLength(files.path(i));
    const row: IndexRow = {
      size: files.size(i), mtimeMs: 1_700_000_000_000.5 + i, ctimeMs: 1_700_000_000_001 + i, ino: 2 ** 40 + i, mode: i % 2 ? 0o755 : 0o644,
      crc: (0xdeadbeef + i) >>> 0, method: i % 3 ? 8 : 0, compressedSize: i, flags: 0x0800, headerAt: at, dataAt: at + 30 + nameLen, endAt: at + 30 + nameLen + i,
    };
    b.add(files, i, row);
    at = row.endAt;
  }
  return { index: b.build(), size: at + 22 };
}

test('an index reads back as written', () => {
  const { index, size } = sample(500);
  const back = parseIndex(serializeIndex(index, { level: 6, madeAtMs: 1234.5, archiveSize: size }));
  assert.ok(back);
  assert.deepEqual(back.header, { level: 6, madeAtMs: 1234.5, archiveSize: size });
  assert.deepEqual(back.index.paths(), index.paths());
  for (const k of Object.keys(index.columns) as (keyof ArchiveIndex['columns'])[]) {
    assert.deepEqual([...back.index.columns[k].subarray(0, 500)], [...index.columns[k].subarray(0, 500)], k);
  }
  const empty = parseIndex(serializeIndex(new ArchiveIndexBuilder().build(), { level: 6, madeAtMs: 1, archiveSize: 22 }));
  assert.equal(empty?.index.length, 0);
});

test('a damaged, truncated or inconsistent index is refused', () => {
  const { index, size } = sample(50);
  const good = serializeIndex(index, { level: 6, madeAtMs: 1, archiveSize: size });
  assert.ok(parseIndex(good));
  assert.equal(parseIndex(good.subarray(0, good.length - 40)), undefined, 'truncated');
  assert.equal(parseIndex(Buffer.from('{"rows":[]}')), undefined, 'the JSON index of an older version');
  assert.equal(parseIndex(serializeIndex(index, { level: 6, madeAtMs: 1, archiveSize: size - 100 })), undefined, 'entries past the end of the archive');
  const c = index.columns;
  const swapped = c.headerAt[10];
  c.headerAt[10] = c.headerAt[30];
  assert.equal(parseIndex(serializeIndex(index, { level: 6, madeAtMs: 1, archiveSize: size })), undefined, 'entries out of order');
  c.headerAt[10] = swapped;
  c.method[3] = 12;
  assert.equal(parseIndex(serializeIndex(index, { level: 6, madeAtMs: 1, archiveSize: size })), undefined, 'an unknown method');
  c.method[3] = 8;
  const bytes = serializeIndex(index, { level: 6, madeAtMs: 1, archiveSize: size });
  // Swap two names' bytes: same lengths, no longer sorted.
  const names = index.names.subarray(0, index.ends[index.length - 1]).toString('utf8');
  const a = index.path(1);
  const b = index.path(2);
  const at = bytes.lastIndexOf(Buffer.from(names));
  bytes.write(b, at + (index.ends[0]), 'utf8');
  bytes.write(a, at + (index.ends[1]), 'utf8');
  assert.equal(parseIndex(bytes), undefined, 'paths out of order');
});

test("an index over the selection's files keeps their names when it holds all of them in order, and copies only its own otherwise", () => {
  const files = FileList.of(Array.from({ length: 6 }, (_, i) => ({ path: `lib/m${i}-é.js`, size: i })));
  const row = (i: number): IndexRow => ({ size: i, mtimeMs: i, ctimeMs: i, ino: i, mode: 0o644, crc: i, method: 8, compressedSize: i, flags: 0, headerAt: i * 100, dataAt: i * 100 + 40, endAt: i * 100 + 50 });
  const all = new ArchiveIndexBuilder(files.length, files);
  for (let i = 0; i < files.length; i++) all.add(files, i, row(i));
  const whole = all.build();
  assert.equal(whole.names, files.names, 'the names are the selection\'s, not a copy');
  assert.deepEqual(whole.paths(), files.paths());

  // A file left out (changed while packaging, binary): the index copies the names it holds.
  const some = new ArchiveIndexBuilder(files.length, files);
  for (const i of [0, 2, 3, 5]) some.add(files, i, row(i));
  const partial = some.build();
  assert.notEqual(partial.names, files.names);
  assert.deepEqual(partial.paths(), [0, 2, 3, 5].map((i) => files.path(i)));
  assert.deepEqual([...partial.columns.headerAt.subarray(0, 4)], [0, 200, 300, 500]);

  // A run copied from the previous archive, told where its paths are in the selection; then
  // an entry from elsewhere, after which every name is copied.
  const mixed = new ArchiveIndexBuilder(files.length, files);
  mixed.addRun(whole, 0, 3, 1000, 0);
  const other = FileList.of([{ path: 'lib/m3-é.js', size: 3 }]);
  mixed.add(other, 0, { ...row(3), headerAt: 1300, dataAt: 1340, endAt: 1350 });
  mixed.addRun(whole, 4, 2, 1000, 4);
  const m = mixed.build();
  assert.deepEqual(m.paths(), files.paths());
  assert.deepEqual([...m.columns.headerAt.subarray(0, 6)], [1000, 1100, 1200, 1300, 1400, 1500]);
  const back = parseIndex(serializeIndex(m, { level: 6, madeAtMs: 1, archiveSize: 2000 }));
  assert.deepEqual(back?.index.paths(), files.paths(), 'it reads back as written');
});

test("an index over the selection's files shares their size and times while its entries are the files as chosen, and keeps its own once one is not", () => {
  const chosen = (i: number) => ({ path: `src/f${i}.ts`, size: 100 + i, ino: 1000 + i, mtimeMs: 5000.5 + i, ctimeMs: 6000.25 + i });
  const files = FileList.of(Array.from({ length: 5 }, (_, i) => chosen(i)));
  const row = (i: number, changed = false): IndexRow => {
    const f = chosen(i);
    return { size: changed ? 7 : f.size, mtimeMs: changed ? 9e12 : f.mtimeMs, ctimeMs: f.ctimeMs, ino: f.ino, mode: 0o644, crc: i, method: 8, compressedSize: i, flags: 0, headerAt: i * 100, dataAt: i * 100 + 40, endAt: i * 100 + 50 };
  };
  const stats = (x: ArchiveIndex) => [...x.columns.size.subarray(0, x.length)].map((s, k) => [s, x.columns.mtimeMs[k], x.columns.ctimeMs[k], x.columns.ino[k]]);
  const expected = (changedAt?: number) => Array.from({ length: 5 }, (_, i) => { const r = row(i, i === changedAt); return [r.size, r.mtimeMs, r.ctimeMs, r.ino]; });

  const same = new ArchiveIndexBuilder(files.length, files);
  for (let i = 0; i < 5; i++) same.add(files, i, row(i));
  const shared = same.build();
  assert.equal(shared.columns.size.buffer, files.statColumns().size.buffer, 'no columns of its own');
  assert.deepEqual(stats(shared), expected());
  assert.deepEqual(stats(parseIndex(serializeIndex(shared, { level: 6, madeAtMs: 1, archiveSize: 600 }))!.index), expected(), 'written and read back whole');

  // A file that changed between the selection and packaging: its entry has the numbers it was packaged with.
  const changed = new ArchiveIndexBuilder(files.length, files);
  for (let i = 0; i < 5; i++) changed.add(files, i, row(i, i === 3));
  const own = changed.build();
  assert.notEqual(own.columns.size.buffer, files.statColumns().size.buffer);
  assert.deepEqual(stats(own), expected(3));

  // Runs copied from a previous archive whose numbers are the selection's, then one that is not.
  const unchanged = new ArchiveIndexBuilder(files.length, files);
  unchanged.addRun(shared, 0, 2, 0, 0);
  unchanged.addRun(shared, 2, 3, 0, 2);
  assert.equal(unchanged.build().columns.size.buffer, files.statColumns().size.buffer);
  const runs = new ArchiveIndexBuilder(files.length, files);
  runs.addRun(shared, 0, 2, 0, 0);
  runs.addRun(own, 2, 3, 0, 2);
  assert.deepEqual(stats(runs.build()), expected(3));
  // A file left out: the index holds only its entries, with their numbers.
  const some = new ArchiveIndexBuilder(files.length, files);
  for (const i of [0, 2, 4]) some.add(files, i, row(i));
  assert.deepEqual(stats(some.build()), [0, 2, 4].map((i) => expected()[i]));
});

test('checked a slice at a time, an index reads back as checked at once, and is refused where that is', async () => {
  const { index, size } = sample(9000);
  const bytes = serializeIndex(index, { level: 6, madeAtMs: 7, archiveSize: size });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const sliced = await parseIndexInSlices(bytes, 0);
  clearInterval(timer);
  const whole = parseIndex(bytes);
  assert.ok(sliced && whole);
  assert.deepEqual(sliced.header, whole.header);
  assert.deepEqual(sliced.index.paths(), whole.index.paths());
  assert.ok(ticks > 0, 'a timer ran while the index was checked');
  // Two names swapped near the end: no longer sorted, refused both ways.
  const names = index.names.subarray(0, index.ends[index.length - 1]).toString('utf8');
  const at = bytes.lastIndexOf(Buffer.from(names));
  const [a, b] = [index.path(8990), index.path(8991)];
  bytes.write(b, at + index.ends[8989]!, 'utf8');
  bytes.write(a, at + index.ends[8990]!, 'utf8');
  assert.equal(parseIndex(bytes), undefined);
  assert.equal(await parseIndexInSlices(bytes, 0), undefined);
});

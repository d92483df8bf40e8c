// Preview Upload's model: every selected file once, under its directories with counts and
// sizes summed up the tree; left-out files grouped by reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leftOutGroups, previewTree, type PreviewDir } from '../../../src/core/workspace/uploadPreview';

test('every file appears once under its directories; counts and bytes add up at every level', () => {
  const files = [
    { path: 'README.md', size: 10 }, { path: 'src/b.ts', size: 5 }, { path: 'src/a10.ts', size: 1 }, { path: 'src/a2.ts', size: 2 },
    { path: 'src/lib/deep/x.ts', size: 7 }, { path: 'docs/é.md', size: 3 },
  ];
  const root = previewTree(files);
  assert.equal(root.count, 6);
  assert.equal(root.bytes, 28);
  assert.deepEqual(root.dirs.map((d) => d.name), ['docs', 'src']);
  assert.deepEqual(root.files.map((f) => f.name), ['README.md']);
  const src = root.dirs[1]!;
  assert.deepEqual([src.count, src.bytes], [4, 15]);
  assert.deepEqual(src.files.map((f) => f.name), ['a2.ts', 'a10.ts', 'b.ts'], 'numbers in names sort as numbers');
  assert.deepEqual([src.dirs[0]!.path, src.dirs[0]!.dirs[0]!.path, src.dirs[0]!.dirs[0]!.bytes], ['src/lib', 'src/lib/deep', 7]);
  const all: string[] = [];
  const walk = (d: PreviewDir) => { for (const f of d.files) all.push(f.path); d.dirs.forEach(walk); };
  walk(root);
  assert.deepEqual(all.sort(), files.map((f) => f.path).sort());
});

test('left-out files are grouped by reason with a label, the biggest group first', () => {
  const groups = leftOutGroups([
    { path: 'node_modules/', reason: 'default-exclude' }, { path: '.env', reason: 'credentials' },
    { path: 'dist/', reason: 'gitignored' }, { path: 'out/', reason: 'gitignored' }, { path: 'big.bin', reason: 'too-large' },
  ]);
  assert.deepEqual(groups.map((g) => [g.reason, g.items.length]), [['gitignored', 2], ['credentials', 1], ['default-exclude', 1], ['too-large', 1]]);
  assert.equal(groups[0]!.label, 'ignored by git');
  assert.deepEqual(groups[0]!.items.map((i) => i.path), ['dist/', 'out/']);
});

// The list of an archive's files: written a slice at a time, its bytes are exactly the JSON
// of the paths (names with quotes, backslashes, newlines and non-Latin letters included), it
// reads back as the same set, and a damaged list counts as none.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { ArchivedFiles } from '../../../src/core/scan/archivedFiles';

const SHA = 'a'.repeat(64);

test('a hundred thousand paths: the same bytes as JSON.stringify, written while timers run, read back whole', async () => {
  const dir = await fsp.mkdtemp(path.join(tmpdir(), 'archived-files-'));
  const odd = ['say "hi".js', 'back\\slash.ts', 'new\nline.py', '日本語/ファイル.go', 'emoji-😀.rs'];
  const paths = Array.from({ length: 100_000 }, (_, i) => (i % 1000 === 0 ? `${odd[(i / 1000) % odd.length]}-${i}` : `packages/p${i % 97}/src/module-${i}.ts`));
  const files = new ArchivedFiles(dir);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  // As the pipeline gives it: an archive's index, a path made at a time.
  await files.save(SHA, { length: paths.length, path: (i) => paths[i]! });
  clearInterval(timer);
  assert.equal(await fsp.readFile(path.join(dir, `${SHA}.json`), 'utf8'), JSON.stringify(paths));
  assert.ok(ticks > 0, 'a timer ran while the list was written');
  assert.deepEqual(await files.load(SHA), new Set(paths));
  await fsp.writeFile(path.join(dir, `${SHA}.json`), '["a",');
  assert.equal(await files.load(SHA), undefined);
  await fsp.rm(dir, { recursive: true, force: true });
});

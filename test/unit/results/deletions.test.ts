// A watcher's "deleted" arrives late or wrongly (a file deleted and written anew, a branch
// switched back): findings leave only with files that are really gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { existsNow, missingNow } from '../../../src/core/results';

describe('files reported deleted', () => {
  test('only the files missing now count as deleted; one there again keeps its findings', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deletions-'));
    try {
      writeFileSync(path.join(dir, 'back.js'), 'written again after the delete\n');
      symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling'));
      const at = (p: string) => existsNow(path.join(dir, ...p.split('/')));
      const gone = await missingNow(['back.js', 'gone.js', 'gone.js', 'dangling', 'back.js/inside', 'sub/gone.py'], at);
      assert.deepEqual([...gone].sort(), ['back.js/inside', 'gone.js', 'sub/gone.py']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an error that cannot tell (not "no such file") keeps the findings', async () => {
    // A name longer than the system allows: ENAMETOOLONG, which says nothing of the file.
    assert.equal(await existsNow(path.join(tmpdir(), 'x'.repeat(5000))), true);
    assert.equal(await existsNow(path.join(tmpdir(), `no-such-${process.pid}-${Date.now()}`)), false);
  });
});

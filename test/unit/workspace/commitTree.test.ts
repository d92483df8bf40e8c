// A commit's tracked files as CI checks them out (commitTree.ts): HEAD's versions, whatever
// the work tree and the index hold; the repository left exactly as it was; a folder inside
// its repository gets its part of the commit; the repository's hooks never run.
import assert from 'node:assert/strict';
import { promises as fsp, existsSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkOutHead } from '../../../src/core/workspace/commitTree';
import { committedRepo, git, tempDir } from './helpers';

test('HEAD\'s tracked files, not the work tree\'s or the index\'s; nothing of the repository changes', async () => {
  const repo = await committedRepo('commit-tree-', { 'src/a.js': 'committed\n', 'web/b.js': 'b\n', 'web/c,d.js': 'c\n' });
  await fsp.writeFile(path.join(repo, 'src/a.js'), 'changed in the work tree\n');
  await fsp.writeFile(path.join(repo, 'staged.js'), 'staged only\n');
  git(repo, 'add', 'staged.js');
  await fsp.writeFile(path.join(repo, 'untracked.js'), 'untracked\n');
  // A hook of the repository's that would leave a mark if anything ran it.
  await fsp.writeFile(path.join(repo, '.git/hooks/post-checkout'), `#!/bin/sh\ntouch "${path.join(repo, 'hook-ran')}"\n`, { mode: 0o755 });
  const status = git(repo, 'status', '--porcelain=v1');
  const dest = path.join(await tempDir('commit-dest-'), 'commit');
  const tree = await checkOutHead(repo, dest);
  assert.equal(tree.sha, git(repo, 'rev-parse', 'HEAD').trim());
  assert.deepEqual(tree.files.sort(), ['src/a.js', 'web/b.js', 'web/c,d.js']);
  assert.equal(await fsp.readFile(path.join(tree.root, 'src/a.js'), 'utf8'), 'committed\n');
  assert.ok(!existsSync(path.join(tree.root, 'staged.js')) && !existsSync(path.join(tree.root, 'untracked.js')));
  assert.equal(git(repo, 'status', '--porcelain=v1'), status, 'the index and the work tree are as they were');
  assert.ok(!existsSync(path.join(repo, 'hook-ran')));
  // A folder inside the repository: its part of the commit, named from the folder.
  const inner = await checkOutHead(path.join(repo, 'web'), path.join(await tempDir('commit-dest-'), 'inner'));
  assert.deepEqual(inner.files.sort(), ['b.js', 'c,d.js']);
  assert.equal(await fsp.readFile(path.join(inner.root, 'b.js'), 'utf8'), 'b\n');
});

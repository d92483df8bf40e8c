// What would leave the machine (decisions.md, "Before push"): the index's version of staged
// files, the branch's changed files as HEAD has them against its upstream (else the default
// branch), deletions and links not sent, the content written only inside the folder given,
// and an identity that changes exactly when what would be sent changes.
import assert from 'node:assert/strict';
import { promises as fsp, readFileSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { branchChanges, parseRaw, stagedChanges, writeOutgoing } from '../../../src/core/workspace/outgoing';
import { committedRepo, git, tempDir, writeTree } from './helpers';

test('staged: the index\'s version of each staged file, deletions said and not sent; the identity follows the index', async () => {
  const root = await committedRepo('outgoing-staged-', { 'a.js': 'a\n', 'gone.js': 'g\n', 'sub/b.js': 'b\n' });
  const out = await tempDir('outgoing-into-');
  try {
    await writeTree(root, { 'a.js': 'staged eval(x)\n', 'new.js': 'n\n' });
    git(root, 'add', 'a.js', 'new.js');
    git(root, 'rm', '-q', 'gone.js');
    await writeTree(root, { 'a.js': 'working tree only\n' });
    const staged = await stagedChanges(root);
    assert.deepEqual(staged.files, ['a.js', 'new.js']);
    assert.deepEqual(staged.deleted, ['gone.js']);
    const written = await writeOutgoing(root, staged, out);
    assert.equal(readFileSync(path.join(out, 'a.js'), 'utf8'), 'staged eval(x)\n', 'the index\'s version, not the working tree\'s');
    assert.deepEqual([...written.keys()], ['a.js', 'new.js']);
    const again = await stagedChanges(root);
    assert.equal(again.identity, staged.identity, 'nothing staged changed: the same identity');
    await writeTree(root, { 'sub/b.js': 'b2\n' });
    git(root, 'add', 'sub/b.js');
    assert.notEqual((await stagedChanges(root)).identity, staged.identity, 'a new staged change: another identity');
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('branch: the files changed since the upstream, as HEAD has them; links are not sent; a new commit changes the identity', async () => {
  const upstream = await committedRepo('outgoing-up-', { 'a.js': 'a\n', 'b.js': 'b\n', 'old.js': 'o\n' });
  const root = await tempDir('outgoing-clone-');
  const out = await tempDir('outgoing-into-');
  try {
    git(root, 'clone', '-q', upstream, '.');
    await writeTree(root, { 'a.js': 'committed\n', 'c.js': 'c\n' });
    symlinkSync('a.js', path.join(root, 'link.js'));
    git(root, 'add', '-A');
    git(root, 'rm', '-q', 'old.js');
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qm', 'work');
    await writeTree(root, { 'a.js': 'uncommitted\n' });
    const branch = await branchChanges(root);
    assert.equal(branch.against, 'origin/main');
    assert.deepEqual(branch.files, ['a.js', 'c.js']);
    assert.deepEqual(branch.deleted, ['old.js']);
    assert.deepEqual(branch.skipped, ['link.js']);
    await writeOutgoing(root, branch, out);
    assert.equal(readFileSync(path.join(out, 'a.js'), 'utf8'), 'committed\n', 'HEAD\'s version');
    await writeTree(root, { 'c.js': 'c2\n' });
    git(root, 'add', 'c.js');
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qm', 'more');
    assert.notEqual((await branchChanges(root)).identity, branch.identity);
  } finally {
    for (const d of [upstream, root, out]) rmSync(d, { recursive: true, force: true });
  }
});

test('a branch without an upstream is compared with the default branch; one level below the repository, paths are the folder\'s', async () => {
  const root = await committedRepo('outgoing-default-', { 'app/a.js': 'a\n', 'other/x.js': 'x\n' });
  try {
    git(root, 'checkout', '-q', '-b', 'feature');
    await writeTree(root, { 'app/a.js': 'changed\n', 'other/x.js': 'changed\n' });
    git(root, 'add', '-A');
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qm', 'f');
    const folder = path.join(root, 'app');
    const branch = await branchChanges(folder);
    assert.equal(branch.against, 'main');
    assert.deepEqual(branch.files, ['a.js'], 'only the folder\'s files, by their path in it');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the raw listing is read tolerantly, and a path that would leave the folder is never written', async () => {
  assert.deepEqual(parseRaw(Buffer.from(':100644 100644 aaa bbb M\0a.js\0:000000 100644 000 ccc A\0b.js\0garbage')), [
    { dstMode: '100644', dstSha: 'bbb', status: 'M', path: 'a.js' },
    { dstMode: '100644', dstSha: 'ccc', status: 'A', path: 'b.js' },
  ]);
  const root = await committedRepo('outgoing-hostile-', { 'a.js': 'a\n' });
  const out = await tempDir('outgoing-into-');
  try {
    const written = await writeOutgoing(root, { kind: 'branch', files: ['../escape.js', 'a.js'] }, out);
    assert.deepEqual([...written.keys()], ['a.js']);
    assert.deepEqual(await fsp.readdir(path.dirname(out)).then((n) => n.includes('escape.js')), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('a branch whose upstream is named like an option is refused by name, and git writes nothing', async () => {
  const root = await committedRepo('outgoing-hostile-', { 'a.js': 'a\n' });
  const outside = await tempDir('outgoing-outside-');
  try {
    const target = path.join(outside, 'written');
    const branch = git(root, 'symbolic-ref', '--short', 'HEAD').trim();
    git(root, 'update-ref', `refs/heads/--output=${target}`, 'HEAD');
    await writeTree(root, { 'a.js': 'b\n' });
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qam', 'ahead');
    git(root, 'config', `branch.${branch}.remote`, '.');
    git(root, 'config', `branch.${branch}.merge`, `refs/heads/--output=${target}`);
    await assert.rejects(branchChanges(root), /begins with "-"/);
    assert.deepEqual(await fsp.readdir(outside), [], 'no file was written outside the repository');
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { readGitInfo, readRevision, stripCredentials } from '../../../src/core/workspace/gitInfo';
import type { TrackedClean } from '../../../src/core/workspace/trackedClean';
import { committedRepo, git, tempDir } from './helpers';

describe('readGitInfo', () => {
  test('branch, sha, remote and dirtiness of a repository', async () => {
    const root = await tempDir('gitinfo-');
    try {
      git(root, 'init', '-q');
      // No commit yet: no sha, yet the branch name is known.
      const empty = await readGitInfo(root);
      assert.equal(empty?.sha, undefined);
      await fsp.writeFile(path.join(root, 'a.txt'), 'a\n');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'init');
      git(root, 'checkout', '-qb', 'feature/login');
      git(root, 'remote', 'add', 'origin', 'https://dana:s3cr3t-token@git.example.invalid/acme/shop.git');
      const clean = await readGitInfo(root);
      assert.deepEqual(clean, {
        branch: 'feature/login',
        sha: git(root, 'rev-parse', 'HEAD').trim(),
        repoUrl: 'https://git.example.invalid/acme/shop.git',
        dirty: false,
      });
      await fsp.writeFile(path.join(root, 'a.txt'), 'changed\n');
      assert.equal((await readGitInfo(root))?.dirty, true);
      // Detached HEAD: no branch rather than the word "HEAD".
      git(root, 'checkout', '-q', '--detach');
      assert.equal((await readGitInfo(root))?.branch, undefined);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('dirtiness of the folder: with what the caller knows of untracked files, git looks only at the tracked ones', async () => {
    const root = await tempDir('gitinfo-dirty-');
    try {
      await fsp.mkdir(path.join(root, 'sub'));
      await fsp.writeFile(path.join(root, 'sub/a.txt'), 'a\n');
      await fsp.writeFile(path.join(root, 'top.txt'), 'top\n');
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'init');
      const sub = path.join(root, 'sub');
      assert.equal((await readGitInfo(sub))?.dirty, false);
      assert.equal((await readGitInfo(sub, { untracked: false }))?.dirty, false);
      assert.equal((await readGitInfo(sub, { untracked: true }))?.dirty, true, 'untracked files the caller found');
      // The answer may come later (the selection runs meanwhile); unknown leaves dirtiness out.
      assert.equal((await readGitInfo(sub, { untracked: new Promise((r) => setTimeout(() => r(true), 50)) }))?.dirty, true);
      const unknown = await readGitInfo(sub, { untracked: Promise.resolve(undefined) });
      assert.ok(unknown && !('dirty' in unknown) && unknown.sha, JSON.stringify(unknown));
      await fsp.writeFile(path.join(root, 'top.txt'), 'changed\n');
      await fsp.writeFile(path.join(root, 'stray.txt'), 'untracked\n');
      assert.equal((await readGitInfo(sub))?.dirty, false, 'changes outside the folder are not in its upload');
      await fsp.writeFile(path.join(sub, 'new.txt'), 'untracked\n');
      assert.equal((await readGitInfo(sub))?.dirty, true, 'git walks for untracked files when not told');
      await fsp.rm(path.join(sub, 'new.txt'));
      await fsp.writeFile(path.join(sub, 'a.txt'), 'changed\n');
      assert.equal((await readGitInfo(sub, { untracked: false }))?.dirty, true);
      git(root, 'add', '-A');
      assert.equal((await readGitInfo(sub, { untracked: false }))?.dirty, true, 'staged counts too');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('remote URL as git resolves it, a renamed file named like a header, and a status git cannot give', async () => {
    const root = await tempDir('gitinfo-remote-');
    try {
      git(root, 'init', '-q', '-b', 'main');
      await fsp.writeFile(path.join(root, 'a.txt'), 'a\n');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'init');
      // Listed first (remotes come sorted), yet origin is the one sent.
      git(root, 'remote', 'add', 'backup', 'https://backup.example.invalid/b.git');
      git(root, 'remote', 'add', 'origin', 'gh:acme/shop.git');
      git(root, 'config', 'url.https://dana:tok@git.example.invalid/.insteadOf', 'gh:');
      git(root, 'remote', 'set-url', '--push', 'origin', 'ssh://push.example.invalid/acme/shop.git');
      const sha = git(root, 'rev-parse', 'HEAD').trim();
      assert.deepEqual(await readGitInfo(root), { branch: 'main', sha, repoUrl: 'https://git.example.invalid/acme/shop.git', dirty: false });
      // A staged rename's old name is a record of its own in the status; it is never a header.
      git(root, 'mv', 'a.txt', '# branch.head evil');
      git(root, 'commit', '-qm', 'renamed');
      git(root, 'mv', '# branch.head evil', 'c.txt');
      const renamed = await readGitInfo(root);
      assert.deepEqual(renamed, { branch: 'main', sha: git(root, 'rev-parse', 'HEAD').trim(), repoUrl: 'https://git.example.invalid/acme/shop.git', dirty: true });
      git(root, 'remote', 'remove', 'origin');
      assert.equal((await readGitInfo(root))?.repoUrl, 'https://backup.example.invalid/b.git', 'no origin: the first remote');
      // A damaged index: git gives no status, yet branch and commit are still read; dirtiness is unknown.
      await fsp.writeFile(path.join(root, '.git', 'index'), 'not an index');
      assert.deepEqual(await readGitInfo(root), { branch: 'main', sha: git(root, 'rev-parse', 'HEAD').trim(), repoUrl: 'https://backup.example.invalid/b.git' });
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('a clean reading carried over: git compares only what may have been written since, while HEAD and the index are what they were', async () => {
    const root = await committedRepo('gitinfo-since-', { 'a.js': 'a\n', '*.js': 'literally named\n', 'lib/b.js': 'b\n' });
    try {
      const first = await readGitInfo(root, { untracked: false, record: true });
      assert.equal(first?.dirty, false);
      const reading = first?.clean;
      assert.ok(reading && reading.head === first.sha, JSON.stringify(first));
      // The paths to compare are given here (a selection names them: pathsToRecheck); the files not named are taken as git read them then.
      const since = (recheck: string[] | undefined, clean: TrackedClean = reading) => ({ clean, recheck: Promise.resolve(recheck) });
      await fsp.writeFile(path.join(root, 'a.js'), 'changed\n');
      const carried = await readGitInfo(root, { untracked: false, since: since([]) });
      assert.deepEqual({ ...carried, clean: undefined }, { branch: 'main', sha: first.sha, dirty: false, clean: undefined }, 'nothing named, nothing compared');
      assert.equal(carried?.clean?.head, first.sha, 'a carried-over reading is kept afresh');
      assert.equal((await readGitInfo(root, { untracked: false, since: since(['a.js']) }))?.dirty, true, 'a named file is compared');
      assert.equal((await readGitInfo(root, { untracked: false, since: since(['*.js']) }))?.dirty, false, 'a name is never a pattern');
      assert.equal((await readGitInfo(root, { untracked: true, since: since([]) }))?.dirty, true, 'untracked files');
      // Without a list, or without knowing the untracked files, git compares the whole folder.
      assert.equal((await readGitInfo(root, { untracked: false, since: since(undefined) }))?.dirty, true);
      assert.equal((await readGitInfo(root, { since: since([]) }))?.dirty, true);
      // Another index (here: a file added with intent to add, which no file's times show), or another HEAD: the whole folder.
      await fsp.writeFile(path.join(root, 'a.js'), 'a\n');
      await fsp.writeFile(path.join(root, 'new.js'), 'new\n');
      git(root, 'add', '-N', 'new.js');
      const staged = await readGitInfo(root, { untracked: false, since: since([]) });
      assert.equal(staged?.dirty, true, JSON.stringify(staged));
      assert.equal(staged?.clean, undefined);
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'new');
      const committed = await readGitInfo(root, { untracked: false, since: since([]) });
      assert.equal(committed?.dirty, false);
      assert.notEqual(committed?.clean?.head, reading.head, 'a new reading at the new commit');
      assert.equal(committed?.clean?.head, committed?.sha);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('a git without porcelain v2 (before 2.17) still gives branch, commit, remote and dirtiness', { skip: process.platform === 'win32' }, async () => {
    const root = await committedRepo('gitinfo-oldgit-', { 'a.js': 'a\n' });
    const bin = await tempDir('old-git-');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const savedPath = process.env.PATH;
    try {
      // A real git in front of which the options it would not know are refused, as an old one does.
      await fsp.writeFile(path.join(bin, 'git'), `#!/bin/sh\nfor a in "$@"; do case "$a" in --porcelain=v2|--no-ahead-behind) echo "error: unknown option '$a'" >&2; exit 129;; esac; done\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
      git(root, 'remote', 'add', 'origin', 'https://git.example.invalid/acme/shop.git');
      process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
      const sha = git(root, 'rev-parse', 'HEAD').trim();
      assert.deepEqual(await readGitInfo(root, { untracked: false, record: true }), { branch: 'main', sha, repoUrl: 'https://git.example.invalid/acme/shop.git', dirty: false });
      await fsp.writeFile(path.join(root, 'a.js'), 'changed\n');
      assert.equal((await readGitInfo(root, { untracked: false }))?.dirty, true);
      assert.equal((await readGitInfo(root))?.dirty, true);
    } finally {
      process.env.PATH = savedPath;
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(bin, { recursive: true, force: true });
    }
  });

  test('undefined outside git', async () => {
    const root = await tempDir('nogit-');
    try {
      assert.equal(await readGitInfo(root), undefined);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  const urls: [string, string][] = [
    ['https://user:token@host.example.invalid/o/r.git', 'https://host.example.invalid/o/r.git'],
    ['https://token@host.example.invalid/o/r.git', 'https://host.example.invalid/o/r.git'],
    ['https://host.example.invalid/o/r.git', 'https://host.example.invalid/o/r.git'],
    ['git@host.example.invalid:o/r.git', 'git@host.example.invalid:o/r.git'],
    ['ssh://git@host.example.invalid/o/r.git', 'ssh://git@host.example.invalid/o/r.git'],
  ];
  for (const [input, want] of urls) {
    test(`remote URL credentials are dropped: ${input}`, () => assert.equal(stripCredentials(input), want));
  }
});

describe('readRevision (a partial scan: the revision, no status)', () => {
  test('branch, commit and remote without asking git for the status of the tree; undefined outside git', async () => {
    const root = await tempDir('revision-');
    const outside = await tempDir('revision-outside-');
    try {
      git(root, 'init', '-q');
      await fsp.writeFile(path.join(root, 'a.txt'), 'a\n');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'init');
      git(root, 'remote', 'add', 'origin', 'https://dana:s3cr3t-token@git.example.invalid/acme/shop.git');
      // A tree git would have to walk: its status is not asked for, so nothing says "dirty".
      await fsp.writeFile(path.join(root, 'a.txt'), 'changed\n');
      assert.deepEqual(await readRevision(root), {
        branch: 'main',
        sha: git(root, 'rev-parse', 'HEAD').trim(),
        repoUrl: 'https://git.example.invalid/acme/shop.git',
      });
      assert.equal(await readRevision(outside), undefined);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });
});

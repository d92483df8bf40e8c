import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { readGitInfo, stripCredentials } from '../../../src/core/workspace/gitInfo';
import { git, tempDir } from './helpers';

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

// No program a repository names runs when the extension asks git something: not a `git`
// the folder ships (PATH entries that are relative, or empty, mean the folder), not the
// `core.fsmonitor` program its `.git/config` names, and for a workspace that is not trusted
// no git process at all.
import assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readGitInfo } from '../../../src/core/workspace/gitInfo';
import { gitExecutable } from '../../../src/core/workspace/git';
import { projectNameOf } from '../../../src/core/workspace/projectName';
import { selectChangedFiles, selectGivenFiles, selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { committedRepo, git, tempDir, writeTree } from './helpers';

/** A program at `file` that leaves `marker` behind when it runs. */
async function tripwire(file: string, marker: string): Promise<void> {
  await fsp.writeFile(file, `#!/bin/sh\necho ran > '${marker}'\nexit 1\n`, { mode: 0o755 });
}

describe('git runs no program of the repository', { skip: process.platform === 'win32' && 'shell tripwires' }, () => {
  let repo: string;
  let scratch: string;
  const savedPath = process.env.PATH;

  before(async () => {
    repo = await committedRepo('git-programs-', { 'src/a.js': 'a\n', '.gitignore': 'ignored.txt\n', 'ignored.txt': 'x\n' });
    scratch = await tempDir('git-programs-markers-');
  });
  after(async () => {
    process.env.PATH = savedPath;
    await fsp.rm(repo, { recursive: true, force: true });
    await fsp.rm(scratch, { recursive: true, force: true });
  });

  test('a git the folder ships is never run, even with "." or an empty entry on PATH', async () => {
    const marker = path.join(scratch, 'shipped-git-ran');
    await tripwire(path.join(repo, 'git'), marker);
    try {
      process.env.PATH = `.${path.delimiter}${path.delimiter}${savedPath}`;
      assert.ok(path.isAbsolute(gitExecutable()!), gitExecutable());
      const sel = await selectWorkspaceFiles(repo);
      assert.ok(sel.files.map((f) => f.path).includes('src/a.js'));
      assert.ok((await readGitInfo(repo))?.sha);
      await selectGivenFiles(repo, [path.join(repo, 'src/a.js')]);
      assert.equal(existsSync(marker), false, 'the folder\'s git did not run');
    } finally {
      process.env.PATH = savedPath;
      await fsp.rm(path.join(repo, 'git'), { force: true });
    }
  });

  test('the core.fsmonitor program the repository\'s .git/config names does not run', async () => {
    const marker = path.join(scratch, 'fsmonitor-ran');
    const hook = path.join(scratch, 'fsmonitor.sh');
    await tripwire(hook, marker);
    git(repo, 'config', 'core.fsmonitor', hook);
    try {
      // The tripwire works: git itself, asked plainly, runs it.
      try { git(repo, 'status', '--porcelain'); } catch { /* the hook exits 1 */ }
      assert.equal(existsSync(marker), true, 'git status runs core.fsmonitor');
      await fsp.rm(marker);
      await selectWorkspaceFiles(repo, { listIgnored: true });
      await readGitInfo(repo);
      await selectChangedFiles(repo);
      await projectNameOf(repo, { folderName: 'x' });
      assert.equal(existsSync(marker), false, 'no call of ours started it');
    } finally {
      git(repo, 'config', '--unset', 'core.fsmonitor');
    }
  });

  test('useGit: false starts no git process at all, and says how the files were chosen', async () => {
    const bin = path.join(scratch, 'bin');
    await fsp.mkdir(bin, { recursive: true });
    const marker = path.join(scratch, 'any-git-ran');
    await tripwire(path.join(bin, 'git'), marker);
    try {
      process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
      assert.equal(gitExecutable(), path.join(bin, 'git'), 'the tripwire is the git that would run');
      await writeTree(repo, { 'new.js': 'n\n' });
      const sel = await selectWorkspaceFiles(repo, { useGit: false, listIgnored: true });
      assert.deepEqual(sel.files.map((f) => f.path).sort(), ['.gitignore', 'new.js', 'src/a.js'], 'the .gitignore files still apply');
      assert.match(sel.notes.join(' '), /without running git/);
      await selectGivenFiles(repo, [path.join(repo, 'src/a.js')], { useGit: false });
      await assert.rejects(selectChangedFiles(repo, { useGit: false }), /trust the workspace/);
      assert.equal((await projectNameOf(repo, { folderName: 'checkout', git: false })).name, 'checkout');
      assert.equal(existsSync(marker), false, 'no git process started');
    } finally {
      process.env.PATH = savedPath;
      await fsp.rm(path.join(repo, 'new.js'), { force: true });
    }
  });
});

// Outside any repository a scan starts no git process at all (git.ts,
// gitCouldFindRepository): git is run through a logging wrapper on PATH, which counts every
// process a scan's calls start, and real git answers behind it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { gitCouldFindRepository, gitExecutable, isInsideGitWorkTree } from '../../../src/core/workspace/git';
import { readGitInfo, readRevision } from '../../../src/core/workspace/gitInfo';
import { projectNameOf } from '../../../src/core/workspace/projectName';
import { selectChangedFiles, selectGivenFiles, selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { committedRepo, git, tempDir, writeTree } from './helpers';

describe('git runs only where it could find a repository', { skip: process.platform === 'win32' && 'a shell wrapper stands in for git' }, () => {
  const savedPath = process.env.PATH;
  let scratch: string;
  let log: string;
  let outside: string;
  let repo: string;

  before(async () => {
    repo = await committedRepo('git-reach-repo-', { 'src/a.js': 'a\n', 'pkg/b.js': 'b\n' });
    scratch = await tempDir('git-reach-');
    outside = path.join(scratch, 'plain');
    await writeTree(outside, { 'src/a.js': 'a\n', 'logs/today.log': 'x\n', '.gitignore': 'logs/\n' });
    const realGit = gitExecutable()!;
    log = path.join(scratch, 'git.log');
    const bin = path.join(scratch, 'bin');
    await fsp.mkdir(bin);
    await fsp.writeFile(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
  });
  beforeEach(() => writeFileSync(log, ''));
  after(async () => {
    process.env.PATH = savedPath;
    await fsp.rm(repo, { recursive: true, force: true });
    await fsp.rm(scratch, { recursive: true, force: true });
  });

  const runs = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);

  test('the wrapper is the git that runs, and it logs', async () => {
    assert.equal(path.basename(path.dirname(gitExecutable()!)), 'bin');
    assert.equal(await isInsideGitWorkTree(repo), true);
    assert.ok(runs().length > 0);
  });

  test('outside any repository a full scan, a partial one and the git details start no git', async (t) => {
    // Where the system's temporary folder itself lies in a repository, there is nothing to prove.
    try {
      execFileSync('git', ['rev-parse', '--git-dir'], { cwd: outside, stdio: 'ignore' });
      t.skip('the temporary folder lies in a git repository');
      return;
    } catch { /* outside git, as wanted */ }
    writeFileSync(log, '');
    assert.equal(await gitCouldFindRepository(outside), false);
    const full = await selectWorkspaceFiles(outside);
    // Chosen by the walk that applies the .gitignore files, as when git answered "not a repository".
    assert.deepEqual(full.files.map((f) => f.path), ['.gitignore', 'src/a.js']);
    assert.equal(full.gitUntracked, undefined);
    const given = await selectGivenFiles(outside, [path.join(outside, 'src/a.js'), path.join(outside, 'logs/today.log')]);
    assert.deepEqual(given.files.map((f) => f.path), ['src/a.js']);
    assert.deepEqual(given.skipped.map((s) => [s.path, s.reason]), [['logs/today.log', 'ignore-file']]);
    assert.equal(await readGitInfo(outside, { record: true, untracked: false }), undefined);
    assert.equal(await readRevision(outside), undefined);
    assert.equal((await projectNameOf(outside, { folderName: 'plain' })).name, 'plain');
    assert.equal(await isInsideGitWorkTree(outside), false);
    await assert.rejects(selectChangedFiles(outside), /not a git repository/);
    assert.deepEqual(runs(), [], 'no git process was started');
  });

  test('git init counts at once: a "could not" is never kept', async () => {
    const later = path.join(scratch, 'later');
    await writeTree(later, { 'a.js': 'a\n' });
    assert.equal(await gitCouldFindRepository(later), false);
    git(later, 'init', '-q');
    assert.equal(await gitCouldFindRepository(later), true);
    assert.equal((await selectWorkspaceFiles(later)).gitUntracked, 1);
    await fsp.rm(later, { recursive: true, force: true });
  });

  test('a folder below a repository, one reached through a symlink, and a worktree\'s .git file are in reach', async () => {
    // git looks up from the real folder: the link's own parents hold no .git.
    const link = path.join(scratch, 'link-to-pkg');
    await fsp.symlink(path.join(repo, 'pkg'), link);
    assert.equal(await gitCouldFindRepository(link), true);
    const sel = await selectWorkspaceFiles(link);
    assert.deepEqual(sel.files.map((f) => f.path), ['b.js']);
    assert.equal(sel.gitUntracked, 0, 'git listed the files');
    assert.ok(runs().some((r) => r.includes('ls-files')));
    const worktree = path.join(scratch, 'worktree');
    git(repo, 'worktree', 'add', '-q', '--detach', worktree);
    const dotGit = await fsp.lstat(path.join(worktree, '.git'));
    assert.ok(dotGit.isFile(), 'a worktree has a .git file');
    assert.equal(await gitCouldFindRepository(path.join(worktree, 'src')), true);
    assert.equal((await readGitInfo(worktree))?.sha, git(repo, 'rev-parse', 'HEAD').trim());
  });

  test('a bare repository is in reach of git (HEAD, objects and refs)', async () => {
    const bare = path.join(scratch, 'bare.git');
    execFileSync(gitExecutable()!, ['init', '-q', '--bare', bare]);
    assert.equal(await gitCouldFindRepository(bare), true);
    assert.equal(await gitCouldFindRepository(path.join(bare, 'refs')), true);
  });
});

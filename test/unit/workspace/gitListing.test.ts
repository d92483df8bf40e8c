// git's long listings (every tracked or untracked path) come through a private temporary
// file rather than a pipe (git.ts, gitListing): the same bytes, nothing left behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { gitBytes, gitListing } from '../../../src/core/workspace/git';
import { programRunner } from '../../../src/core/workspace/programRunner';
import { committedRepo, tempDir, writeTree } from './helpers';

let repo: string;
let tmp: string;
const savedTmp = process.env.TMPDIR;

before(async () => {
  const files: Record<string, string> = { 'odd name\nwith newline.js': 'x\n', 'ünïcode/ファイル.ts': 'y\n', 'sp ace/a b.txt': 'z\n' };
  // More than a pipe's 64 KB of paths.
  for (let i = 0; i < 1500; i++) files[`packages/some-fairly-long-package-name/src/nested/folder/file-${String(i).padStart(5, '0')}.js`] = `${i}\n`;
  repo = await committedRepo('git-listing-', files);
  await writeTree(repo, { 'untracked one.js': 'u\n' });
  tmp = await tempDir('git-listing-tmp-');
  // Only this test's temporary files go here: other test files run at the same time.
  process.env.TMPDIR = tmp;
});
after(async () => {
  process.env.TMPDIR = savedTmp;
  await fsp.rm(repo, { recursive: true, force: true });
  await fsp.rm(tmp, { recursive: true, force: true });
});

const leftBehind = async () => (await fsp.readdir(tmp)).filter((n) => n.startsWith('code-scanner-git-'));

test('a listing read from a temporary file is byte for byte what git prints, and the file is gone after', async () => {
  for (const args of [['ls-files', '-z', '--cached'], ['ls-files', '-z', '--others', '--exclude-standard']]) {
    const listed = await gitListing(repo, args);
    assert.deepEqual(listed, await gitBytes(repo, args));
    assert.deepEqual(await leftBehind(), [], 'no temporary file is left behind');
  }
  assert.ok((await gitListing(repo, ['ls-files', '-z', '--cached'])).length > 64 * 1024);
});

test("a git that fails rejects with git's own message, and leaves nothing behind", async () => {
  const notRepo = await tempDir('git-listing-none-');
  try {
    await assert.rejects(gitListing(notRepo, ['ls-files', '-z', '--cached']), /git ls-files failed: .*not a git repository/i);
    assert.deepEqual(await leftBehind(), []);
  } finally {
    await fsp.rm(notRepo, { recursive: true, force: true });
  }
});

test('where no temporary file can be made, the listing comes through the pipe', async () => {
  process.env.TMPDIR = path.join(tmp, 'missing', 'deeper');
  try {
    assert.deepEqual(await gitListing(repo, ['ls-files', '-z', '--cached']), await gitBytes(repo, ['ls-files', '-z', '--cached']));
  } finally {
    process.env.TMPDIR = tmp;
  }
});

test('when the temporary file cannot take the whole listing (a full disk, a size limit), the listing comes through the pipe', async () => {
  // A real limit on the size of files git may write (RLIMIT_FSIZE, 1 KB), set in a child
  // process: git's write to the temporary file fails there as on a full disk, a pipe does not.
  const script = `const { gitListing } = (await import(${JSON.stringify(path.resolve(__dirname, '../../../src/core/workspace/git.ts'))})).default;
const out = await gitListing(process.argv[1], ['ls-files', '-z', '--cached']);
process.stdout.write(out.toString('base64'));`;
  const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve, reject) => {
    const child = spawn('bash', ['-c', 'ulimit -f 1 && exec "$0" --import tsx --input-type=module -e "$1" "$2"', process.execPath, script, repo], {
      env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => { out += b.toString('utf8'); });
    child.stderr.on('data', (b: Buffer) => { err += b.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (c) => resolve({ stdout: out, stderr: err, code: c }));
  });
  assert.equal(code, 0, stderr);
  assert.deepEqual(Buffer.from(stdout, 'base64'), await gitBytes(repo, ['ls-files', '-z', '--cached']));
  assert.deepEqual(await leftBehind(), [], 'no temporary file is left behind');
});

test('in a folder already found in reach, git starts within the call: what the caller does next cannot hold it back', async () => {
  await gitListing(repo, ['ls-files', '-z', '--cached']);
  const runner = programRunner();
  const run = runner.run.bind(runner);
  let started = false;
  runner.run = (...a) => {
    started = true;
    return run(...a);
  };
  try {
    const listing = gitListing(repo, ['ls-files', '-z', '--cached']);
    assert.ok(started, 'git was started before the call returned');
    assert.ok((await listing).length > 0);
  } finally {
    runner.run = run;
  }
});

// Programs (git) start from a helper process once a scan has asked for it (programRunner.ts):
// what they print and how they end is the same either way, and a helper that cannot start,
// dies mid-run or idles away leaves every run answered.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { HELPER_TITLE, ProgramRunner, type RunOptions } from '../../../src/core/workspace/programRunner';
import { committedRepo, tempDir } from './helpers';

let repo: string;
let tmp: string;

before(async () => {
  const files: Record<string, string> = { 'odd name\nwith newline.js': 'x\n', 'ünïcode/ファイル.ts': 'y\n' };
  // More than a pipe's 64 KB of paths.
  for (let i = 0; i < 1500; i++) files[`packages/some-fairly-long-package-name/src/nested/file-${String(i).padStart(5, '0')}.js`] = `${i}\n`;
  repo = await committedRepo('program-runner-', files);
  tmp = await tempDir('program-runner-tmp-');
});
after(async () => {
  await fsp.rm(repo, { recursive: true, force: true });
  await fsp.rm(tmp, { recursive: true, force: true });
});

const opts = (extra: Partial<RunOptions> = {}): RunOptions => ({ cwd: repo, env: process.env, maxBuffer: 64 * 1024 * 1024, ...extra });
/** The process id of whoever started the program: this process, or the helper. */
const parentOf = async (runner: ProgramRunner) => Number((await runner.run('/bin/sh', ['-c', 'echo $PPID'], opts())).stdout.toString().trim());

/** Waits (up to `tries` × 25 ms) until `done` holds. */
async function until(done: () => boolean, tries = 600): Promise<void> {
  for (let i = 0; i < tries && !done(); i++) await new Promise((r) => setTimeout(r, 25));
}

async function readyRunner(extra: { idleMs?: number } = {}): Promise<ProgramRunner> {
  const runner = new ProgramRunner({ useHelper: true, ...extra });
  runner.prepare();
  await until(() => runner.helperReady);
  assert.ok(runner.helperReady, 'the helper said it was ready');
  return runner;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('before it is asked for the helper, programs start here; once it is ready, from the helper', async () => {
  const runner = new ProgramRunner({ useHelper: true });
  assert.equal(await parentOf(runner), process.pid);
  runner.prepare();
  await until(() => runner.helperReady);
  const helper = await parentOf(runner);
  assert.notEqual(helper, process.pid);
  assert.ok(pidAlive(helper));
  assert.ok((await fsp.readFile(`/proc/${helper}/cmdline`, 'utf8')).startsWith(HELPER_TITLE), 'process lists name the helper');
  runner.dispose();
  await until(() => !pidAlive(helper), 200);
  assert.ok(!pidAlive(helper), 'a helper let go exits');
  assert.equal(await parentOf(runner), process.pid, 'after it, programs start here again');
});

test('through the helper, output, standard error, exit codes and a file written are what git gives here', async () => {
  const here = new ProgramRunner({ useHelper: false });
  const runner = await readyRunner();
  try {
    for (const args of [['ls-files', '-z', '--cached'], ['status', '--porcelain=v2', '-z', '--branch'], ['log', '-1', '--format=%H%n%an']]) {
      const [a, b] = [await runner.run('git', args, opts()), await here.run('git', args, opts())];
      assert.deepEqual(a, b, `git ${args.join(' ')}`);
      assert.equal(a.code, 0);
    }
    assert.ok((await runner.run('git', ['ls-files', '-z'], opts())).stdout.length > 64 * 1024);
    const failed = await runner.run('git', ['rev-parse', '--verify', 'no-such-branch'], opts());
    assert.notEqual(failed.code, 0);
    assert.match(failed.stderr.toString(), /no-such-branch|Needed a single revision/);
    assert.deepEqual(failed, await here.run('git', ['rev-parse', '--verify', 'no-such-branch'], opts()));

    const file = path.join(tmp, 'listing');
    await fsp.writeFile(file, '');
    const toFile = await runner.run('git', ['ls-files', '-z'], opts({ stdoutPath: file }));
    assert.equal(toFile.code, 0);
    assert.equal(toFile.stdout.length, 0);
    assert.deepEqual(await fsp.readFile(file), (await here.run('git', ['ls-files', '-z'], opts())).stdout);
  } finally {
    runner.dispose();
  }
});

test('a program that cannot start, or prints more than allowed, fails the same way through the helper', async () => {
  const here = new ProgramRunner({ useHelper: false });
  const runner = await readyRunner();
  try {
    for (const r of [runner, here]) {
      const missing = await r.run(path.join(tmp, 'no-such-program'), [], opts());
      assert.equal(missing.code, null);
      assert.match(missing.error ?? '', /ENOENT/);
      const long = await r.run('/bin/sh', ['-c', 'head -c 300000 /dev/zero'], opts({ maxBuffer: 100_000 }));
      assert.match(long.error ?? '', /more than 100000 bytes/);
      assert.equal(long.stdout.length, 0);
    }
    assert.ok(runner.helperReady, 'a failing program is not a failing helper');
  } finally {
    runner.dispose();
  }
});

test('when the helper dies mid-run, a run it held is answered here, one writing a file fails, and later runs start here', async () => {
  const runner = await readyRunner();
  const helper = await parentOf(runner);
  const file = path.join(tmp, 'held');
  await fsp.writeFile(file, '');
  const held = runner.run('/bin/sh', ['-c', 'sleep 1; echo $PPID'], opts());
  const writing = runner.run('/bin/sh', ['-c', 'sleep 1; echo late'], opts({ stdoutPath: file }));
  await new Promise((r) => setTimeout(r, 200));
  process.kill(helper, 'SIGKILL');
  const answered = await held;
  assert.equal(answered.code, 0);
  assert.equal(Number(answered.stdout.toString().trim()), process.pid, 'run again here');
  const failed = await writing;
  assert.equal(failed.code, null);
  assert.match(failed.error ?? '', /helper process ended/);
  assert.ok(!runner.helperReady);
  runner.prepare();
  assert.equal(await parentOf(runner), process.pid, 'a helper that died is not started again');
});

test('programs run at a lower priority than this process, from here and from the helper (ten below its niceness)', { skip: process.platform === 'win32' }, async () => {
  const { getPriority } = await import('node:os');
  // The test runner may itself run lowered (npm test runs the unit tests behind the editors' windows).
  const own = getPriority(0);
  const want = Math.min(19, own + 10);
  // `nice` prints its own niceness; the pause lets the lowering, made just after the start, land first.
  const niceness = async (runner: ProgramRunner) => Number((await runner.run('/bin/sh', ['-c', 'sleep 0.3; nice'], opts())).stdout.toString().trim());
  assert.equal(await niceness(new ProgramRunner({ useHelper: false })), want);
  const runner = await readyRunner();
  try {
    assert.equal(await niceness(runner), want);
  } finally {
    runner.dispose();
  }
  assert.equal(getPriority(0), own, 'this process keeps its own priority');
});

test('a helper that cannot be started leaves every run to this process', async () => {
  const runner = new ProgramRunner({ useHelper: true, execPath: path.join(tmp, 'no-such-node') });
  runner.prepare();
  const first = await runner.run('git', ['rev-parse', 'HEAD'], opts());
  assert.equal(first.code, 0);
  await until(() => false, 40);
  assert.ok(!runner.helperReady);
  assert.equal(await parentOf(runner), process.pid);
});

test('an idle helper goes away, and the next scan starts one again', async () => {
  const runner = await readyRunner({ idleMs: 200 });
  const helper = await parentOf(runner);
  await until(() => !pidAlive(helper), 200);
  assert.ok(!pidAlive(helper), 'the helper exited after its idle time');
  assert.ok(!runner.helperReady);
  assert.equal(await parentOf(runner), process.pid);
  runner.prepare();
  await until(() => runner.helperReady);
  const again = await parentOf(runner);
  assert.notEqual(again, process.pid);
  runner.dispose();
});

test('a process with a ready helper still exits when its own work is done', async () => {
  // A child process that starts a helper, runs git through it and returns: it must end on its own.
  const script = `
    const { ProgramRunner } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/core/workspace/programRunner.ts'))});
    const runner = new ProgramRunner({ useHelper: true, idleMs: 600000 });
    runner.prepare();
    const wait = () => runner.helperReady ? Promise.resolve() : new Promise((r) => setTimeout(r, 20)).then(wait);
    wait().then(() => runner.run('/bin/sh', ['-c', 'echo $PPID'], { cwd: '/', env: process.env, maxBuffer: 1000 })).then((r) => console.log(String(process.pid) + ' ' + r.stdout.toString().trim()));
  `;
  const out = await new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, ['--import', 'tsx', '-e', script], { timeout: 60_000 }, (e, stdout) => (e ? reject(e) : resolve(stdout)));
    child.on('error', reject);
  });
  const [pid, parent] = out.trim().split(' ').map(Number);
  assert.notEqual(parent, pid, 'the program ran from the helper');
  await until(() => !pidAlive(parent), 200);
  assert.ok(!pidAlive(parent), 'the helper went with the process that started it');
});

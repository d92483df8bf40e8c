// The project's test command: type-check and lint, then unit tests (plain Node test runner,
// no VS Code), then the integration suite inside a real VS Code, whose editor is provisioned
// meanwhile. Ends with one line
// `N passed, N failed`. A type or lint error fails the run before any test starts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ensureDeps, root } from './ensure-deps.mjs';
import { ensureTestPackages, ProvisionError } from './launch/provision.mjs';

const unitOnly = process.argv.includes('--unit-only');
// The quick loop: `npm run test:unit -- test/unit/agent/toolText.test.ts …` runs only those
// files, without the type-check and lint of the whole project.
const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const integrationOnly = process.argv.includes('--integration-only');

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out.sort();
}

/**
 * Runs a command and resolves to [exitCode, output] when it ends, its output echoed as it
 * comes unless `quiet`.
 */
function run(cmd, args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const echo = (stream, d) => {
      out += d;
      if (!quiet) stream.write(d);
    };
    child.stdout.on('data', (d) => echo(process.stdout, d));
    child.stderr.on('data', (d) => echo(process.stderr, d));
    child.on('error', (err) => resolve([1, `${out}${err.message}\n`]));
    child.on('close', (code, signal) => resolve([code ?? (signal ? 1 : 0), out]));
  });
}

/**
 * The slowest tests of a run, from the reporters' own lines (`✔ title (123.4ms)`), so the
 * next effort on the run's length goes where the time is.
 */
function slowest(out, n = 10) {
  const tests = [...out.matchAll(/^\s*✔ (.+?) \((\d+(?:\.\d+)?)ms\)$/gm)].map((m) => ({ title: m[1], ms: Number(m[2]) }));
  return tests.sort((a, b) => b.ms - a.ms).slice(0, n).map((t) => `  ${(t.ms / 1000).toFixed(1)} s  ${t.title.slice(0, 110)}`);
}

/** The slowest top-level suites of the windows, hooks included (the suite's `SUITE_MS <ms> <title>` lines). */
function slowestSuites(out, n = 8) {
  const suites = [...out.matchAll(/^SUITE_MS (\d+) (.+)$/gm)].map((m) => ({ title: m[2], ms: Number(m[1]) }));
  return suites.sort((a, b) => b.ms - a.ms).slice(0, n).map((t) => `  ${(t.ms / 1000).toFixed(1)} s  ${t.title.slice(0, 110)}`);
}

/**
 * Each failure of a run as its reporter summed it up (title, then the error's first lines),
 * repeated at the very end of the output, where a CI log cut to its tail still shows it.
 */
function failures(out) {
  const lines = out.split('\n');
  const said = [];
  lines.forEach((line, i) => {
    // Mocha's `N failing`, Node's `✖ failing tests:`: the summaries after each run.
    if (!/^\s*\d+ failing$|^✖ failing tests:$/.test(line)) return;
    let end = i + 1;
    while (end < lines.length && end - i < 60 && !/^(MOCHA_RESULT|ℹ |Reloading the window)/.test(lines[end])) end++;
    said.push(...lines.slice(i, end).filter((l) => l.trim()).map((l) => `  ${l.slice(0, 200)}`));
  });
  return said;
}

function count(out, re) {
  const m = [...out.matchAll(re)];
  return m.length ? Number(m[m.length - 1][1]) : 0;
}

let passed = 0;
let failed = 0;
let exit = 0;
const whatFailed = [];
const windows = !unitOnly && !integrationOnly && !named.length;

if (!integrationOnly) {
  try {
    // One apt run for everything, before npm and the editors' provisioning install beside each other.
    ensureTestPackages({ editors: windows });
  } catch (err) {
    console.error(err instanceof ProvisionError ? err.message : err);
    console.log('0 passed, 1 failed (system packages)');
    process.exit(1);
  }
}

// The editors of the real-VS-Code windows (a few minutes of npm and native builds on a fresh
// machine) are provisioned while npm installs the project, and the type-check, lint and unit
// tests run. It needs nothing of the project's modules. Its lines are printed when the windows
// start; if it failed, the launcher's own provisioning says why.
const provisioning = windows ? run(process.execPath, [join('test', 'launch', 'provision.mjs')], { quiet: true }) : undefined;
ensureDeps();

if (!integrationOnly && !named.length) {
  const bin = (name) => join(root, 'node_modules', '.bin', name);
  // Side by side (one core each), beside the provisioning at the same priority: the windows
  // wait for it, but only once the unit tests after the checks have run (behind it, the lint
  // ran alone for 20 s after it had ended, and the unit tests waited).
  const checks = [
    ['types', bin('tsc'), ['-p', '.', '--noEmit']],
    ['lint', bin('eslint'), ['.', '--max-warnings', '0']],
  ].map(async ([what, cmd, args]) => [what, ...(await run(cmd, args, { quiet: true }))]);
  let bad = 0;
  for (const [what, code, out] of await Promise.all(checks)) {
    if (code !== 0) { process.stdout.write(out); bad = bad || code || 1; }
    console.log(`${what}: ${code === 0 ? 'ok' : 'FAILED'}`);
  }
  if (bad) {
    console.log('0 passed, 1 failed (types or lint)');
    process.exit(bad);
  }
}

/**
 * The unit test files that take longest (each 9 to 25 s, most of it waiting on services,
 * child processes and the disk): each in a process of its own, started first, so that none
 * of them begins last.
 */
const LONG_UNIT_TESTS = ['scan/pipeline', 'archive/statsLater', 'archive/packaging', 'scan/watchedRescan', 'workspace/programRunner', 'service/scanLifecycle']
  .map((f) => join('test', 'unit', `${f}.test.ts`));

/**
 * The whole unit suite's files as the test runner takes them: the longest first, each in a
 * process of its own, then the others in UNIT_GROUPS processes, each loading its share of
 * the files one after another (a file of `require`s in a temporary folder). A process of its
 * own for each of them cost about a third of the suite's CPU in starting Node, tsx and the
 * modules under test; their tests run in turn in a group's process, as in their own.
 */
const UNIT_GROUPS = 9;
function unitProcesses(files) {
  const rest = files.filter((f) => !LONG_UNIT_TESTS.includes(f));
  const dir = mkdtempSync(join(tmpdir(), 'code-scanner-unit-'));
  const groups = Array.from({ length: Math.min(UNIT_GROUPS, rest.length) }, (_, g) => rest.filter((_, i) => i % UNIT_GROUPS === g));
  const entries = groups.map((group, i) => {
    const entry = join(dir, `group-${i + 1}.test.cjs`);
    writeFileSync(entry, group.map((f) => `require(${JSON.stringify(join(root, f))});\n`).join(''));
    return entry;
  });
  return { files: [...LONG_UNIT_TESTS.filter((f) => files.includes(f)), ...entries], dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

if (!integrationOnly) {
  const { files, dispose } = named.length ? { files: named, dispose: () => {} } : unitProcesses(findTests(join(root, 'test', 'unit')));
  // Three files at a time: most unit tests wait on child processes, sockets and the disk, so on
  // this 2-core machine three at once finish in about 60 % of the time one at a time takes
  // (Node's default is one less than the cores: one here).
  // TypeScript through tsx's require hook, as CommonJS (what the extension's bundle is): a test
  // process starts in half the time it takes with tsx's ES-module hooks, which Node runs in a
  // thread of their own (a fifth of the unit suite's time, over 130 files). So a test imports
  // TypeScript statically, and no file under test uses top-level await.
  const [code, out] = await run(process.execPath, ['--require', 'tsx/cjs', '--test', '--test-reporter=spec', `--test-concurrency=${process.env.CODE_SCANNER_UNIT_CONCURRENCY || 3}`, ...files]);
  dispose();
  const p = count(out, /^ℹ pass (\d+)/gm);
  const f = count(out, /^ℹ fail (\d+)/gm);
  passed += p;
  failed += f;
  if (code !== 0) { exit = code; if (f === 0) failed += 1; }
  console.log(`unit: ${p} passed, ${f} failed`);
  whatFailed.push(...failures(out));
  if (!named.length) console.log(['slowest unit tests:', ...slowest(out)].join('\n'));
}

// The windows open after the unit tests, their editor provisioned by then. Beside the windows
// (at niceness 10, or in Linux's idle class) the unit tests slowed the main window by a fifth
// and waited so long for a core that tests timing a service's answers failed.
if (!unitOnly) {
  if (provisioning) {
    const [code, out] = await provisioning;
    process.stdout.write(code === 0 ? out : `${out}[provision] the provisioning beside the unit tests ended with ${code}; the launcher tries again\n`);
  }
  const [code, out] = await run(process.execPath, [join('test', 'launch', 'run-offline.mjs')]);
  const p = count(out, /^integration: (\d+) passed/gm);
  const f = count(out, /^integration: \d+ passed, (\d+) failed/gm);
  passed += p;
  failed += f;
  if (code !== 0) { exit = exit || code; if (f === 0) failed += 1; }
  console.log(['slowest tests in the real VS Code:', ...slowest(out)].join('\n'));
  console.log(['slowest suites in the real VS Code, their setup included:', ...slowestSuites(out)].join('\n'));
  whatFailed.push(...failures(out));
}

if (whatFailed.length) console.log(['what failed:', ...whatFailed].join('\n'));

console.log(`${passed} passed, ${failed} failed`);
process.exit(exit);

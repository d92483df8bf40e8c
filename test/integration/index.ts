// Mocha entry point that VS Code calls inside the extension host (extensionTestsPath).
// Every `*.test.js` bundled beside this file runs; both the `suite/test` (tdd) and the
// `describe/it` (bdd) styles work. Output goes through console.log because that is what
// the workbench forwards to the launcher (codeAutomationLog); the last line is a
// machine-readable summary the launchers parse.
//
// A reload of the window, for real: a test may ask for one (helpers' requestReload). Once
// every test has run, the window reloads; the suite starts again in the new extension host
// and runs the `*.reloaded.js` files that check what the reload must keep, then prints the
// summary of both runs. The launcher names the file that carries the first run's counts
// across (CODE_SCANNER_TEST_RELOAD_FILE); without it no test asks for a reload.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { RELOAD_FILE, readReload, type ReloadState } from './reload';

export const RESULT_PREFIX = 'MOCHA_RESULT';
export const SUITE_TIME_PREFIX = 'SUITE_MS';

/** How long the first run waits for the reload it asked for before it counts as failed. */
const RELOAD_TIMEOUT_MS = 60_000;

/**
 * Tests that may be pending (skip themselves) in the offline launcher's run, with why. Any
 * other pending test fails the run there: a test that never runs proves nothing. (The
 * desktop launcher has no workbench probe and cannot reload: its skips are expected.)
 */
const PENDING_ALLOWED: ReadonlyMap<string, string> = new Map();

/**
 * Whether the file named `stem` (`scanOnSave` for scanOnSave.test.js, `zReload` for both
 * zReload.test.js and zReload.reloaded.js) runs in this window: the launcher may split the
 * suite over two windows, one naming its files (CODE_SCANNER_TEST_FILES), the other the
 * files it leaves to that one (CODE_SCANNER_TEST_SKIP_FILES), comma-separated.
 */
function inThisPart(stem: string): boolean {
  const list = (name: string) => process.env[name]?.split(',').filter(Boolean);
  const only = list('CODE_SCANNER_TEST_FILES');
  return only ? only.includes(stem) : !list('CODE_SCANNER_TEST_SKIP_FILES')?.includes(stem);
}

function runFiles(suffix: string, grep?: string): Promise<{ passed: number; failed: number }> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.CODE_SCANNER_TEST_TIMEOUT_MS) || 60_000,
    // A regular expression, as the launcher's window choice reads it (Mocha takes a string literally).
    grep: grep ? new RegExp(grep, 'i') : undefined,
  });
  Mocha.interfaces.bdd(mocha.suite);
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith(suffix) && inThisPart(f.slice(0, -suffix.length)))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    if (files.length === 0) {
      reject(new Error(`No *${suffix} files next to ${__filename}: was the suite bundled?`));
      return;
    }
    const pending: string[] = [];
    const runner = mocha.run((failures) => {
      // Only where every test can run (the offline launcher: a workbench probe, a reload).
      const strict = !!process.env.CODE_SCANNER_TEST_WORKBENCH_PROBE && !!process.env.CODE_SCANNER_TEST_RELOAD_FILE;
      const unexplained = strict ? pending.filter((t) => !PENDING_ALLOWED.has(t)) : [];
      for (const t of unexplained) console.log(`PENDING without a reason (counted as failed): ${t}`);
      resolve({ passed: runner.stats?.passes ?? 0, failed: Math.max(failures, runner.stats?.failures ?? 0) + unexplained.length });
    });
    runner.on('pending', (test) => pending.push(test.fullTitle()));
    // Each top-level suite's wall time, its hooks included (a setup that scans before every
    // test counts there, not in any test's own time): the runner names the slowest.
    const began = new Map<Mocha.Suite, number>();
    runner.on('suite', (s) => { if (s.parent?.root) began.set(s, Date.now()); });
    runner.on('suite end', (s) => {
      const t = began.get(s);
      if (t !== undefined) console.log(`${SUITE_TIME_PREFIX} ${Date.now() - t} ${s.title}`);
    });
  });
}

function report(passed: number, failed: number): void {
  console.log(`${RESULT_PREFIX} passed=${passed} failed=${failed}`);
  if (failed > 0) throw new Error(`${failed} integration test(s) failed`);
  if (passed === 0) throw new Error('No integration test ran');
}

export async function run(): Promise<void> {
  try {
    const state = readReload();
    if (state?.firstRun) {
      // The second run, after the reload the first asked for: only what the reload must keep.
      const second = await runFiles('.reloaded.js', process.env.CODE_SCANNER_TEST_GREP);
      fs.rmSync(RELOAD_FILE!, { force: true });
      report(state.firstRun.passed + second.passed, state.firstRun.failed + second.failed);
      return;
    }
    // CODE_SCANNER_TEST_SUFFIX=.bench.js runs the benchmarks instead of the tests.
    const first = await runFiles(process.env.CODE_SCANNER_TEST_SUFFIX || '.test.js', process.env.CODE_SCANNER_TEST_GREP);
    const asked = readReload();
    if (RELOAD_FILE && asked && Object.keys(asked.requests).length) {
      const next: ReloadState = { ...asked, firstRun: first };
      fs.writeFileSync(RELOAD_FILE, JSON.stringify(next));
      console.log(`Reloading the window for ${Object.keys(asked.requests).join(', ')} (${first.passed} passed, ${first.failed} failed so far)`);
      await vscode.commands.executeCommand('workbench.action.reloadWindow');
      // The reload ends this extension host; should it not, the run fails rather than hangs.
      await new Promise((r) => setTimeout(r, RELOAD_TIMEOUT_MS));
      report(first.passed, first.failed + 1);
      return;
    }
    report(first.passed, first.failed);
  } catch (err) {
    // A test file that throws while loading never reaches the runner.
    console.error(err);
    if (!(err instanceof Error && /integration test|No integration test/.test(err.message))) console.log(`${RESULT_PREFIX} passed=0 failed=1`);
    throw err;
  }
}

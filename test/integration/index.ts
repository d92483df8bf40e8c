// Mocha entry point that VS Code calls inside the extension host (extensionTestsPath).
// Every `*.test.js` bundled beside this file runs; both the `suite/test` (tdd) and the
// `describe/it` (bdd) styles work. Output goes through console.log because that is what
// the workbench forwards to the launcher (codeAutomationLog); the last line is a
// machine-readable summary the launchers parse.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

export const RESULT_PREFIX = 'MOCHA_RESULT';

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.CODE_SCANNER_TEST_TIMEOUT_MS) || 60_000,
    grep: process.env.CODE_SCANNER_TEST_GREP || undefined,
  });
  Mocha.interfaces.bdd(mocha.suite);

  // CODE_SCANNER_TEST_SUFFIX=.bench.js runs the benchmarks instead of the tests.
  const suffix = process.env.CODE_SCANNER_TEST_SUFFIX || '.test.js';
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith(suffix))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));

  return new Promise((resolve, reject) => {
    if (files.length === 0) {
      console.log(`${RESULT_PREFIX} passed=0 failed=1`);
      reject(new Error(`No *${suffix} files next to ${__filename}: was the suite bundled?`));
      return;
    }
    try {
      const runner = mocha.run((failures) => {
        const passed = runner.stats?.passes ?? 0;
        const failed = Math.max(failures, runner.stats?.failures ?? 0);
        console.log(`${RESULT_PREFIX} passed=${passed} failed=${failed}`);
        if (failed > 0) reject(new Error(`${failed} integration test(s) failed`));
        else if (passed === 0) reject(new Error('No integration test ran'));
        else resolve();
      });
    } catch (err) {
      // A test file that throws while loading never reaches the runner.
      console.error(err);
      console.log(`${RESULT_PREFIX} passed=0 failed=1`);
      reject(err);
    }
  });
}

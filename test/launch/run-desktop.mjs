// Runs the integration suite in desktop VS Code through @vscode/test-electron, for
// machines with internet (it downloads VS Code on first use). Same suite, same
// environment variables and the same `integration: N passed, N failed` line as the
// offline launcher (run-offline.mjs), which is what CI uses.
//
//   node test/launch/run-desktop.mjs
//   env: CODE_SCANNER_VSCODE_VERSION (default "stable"), CODE_SCANNER_INTEGRATION_TIMEOUT_MS
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { cleanup, installSignalHandlers, prepareSuite, repoRoot, tempDir, writeUserSettings } from './harness.mjs';
import { parseMochaResult } from './automation-log.mjs';

const timeoutMs = Number(process.env.CODE_SCANNER_INTEGRATION_TIMEOUT_MS) || 15 * 60_000;
let output = '';
let finished = false;

async function finish(code, note) {
  if (finished) return;
  finished = true;
  const r = parseMochaResult(output.split('\n')) ?? { passed: 0, failed: 0 };
  if (note) console.error(`[launch] ${note}`);
  console.log(`integration: ${r.passed} passed, ${note && r.failed === 0 ? 1 : r.failed} failed`);
  await cleanup();
  process.exit(code);
}

installSignalHandlers((sig) => void finish(sig === 'SIGINT' ? 130 : 143, `interrupted by ${sig}`));
setTimeout(() => void finish(1, `timed out after ${Math.round(timeoutMs / 1000)} s (CODE_SCANNER_INTEGRATION_TIMEOUT_MS)`), timeoutMs).unref();

/** Echoes VS Code's output and keeps it to read the mocha summary. */
const tee = (stream) =>
  new Writable({
    write(chunk, _enc, cb) {
      output += chunk;
      stream.write(chunk, cb);
    },
  });

async function main() {
  const { service, multiRoot, env, testsPath, systemStoreEnv } = await prepareSuite();
  const profile = tempDir('code-scanner-desktop-');
  const userDataDir = join(profile, 'user-data');
  writeUserSettings(userDataDir, { 'codeScanner.customBaseUrl': service.baseUrl, 'codeScanner.confirmFirstUpload': false });

  try {
    await runTests({
      version: process.env.CODE_SCANNER_VSCODE_VERSION || 'stable',
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: testsPath,
      launchArgs: [
        multiRoot.file,
        '--user-data-dir', userDataDir,
        '--extensions-dir', join(profile, 'extensions'),
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--disable-telemetry',
      ],
      extensionTestsEnv: { ...env, ...systemStoreEnv },
      stdout: tee(process.stdout),
      stderr: tee(process.stderr),
    });
  } catch (err) {
    const m = /code (\d+)/.exec(String(err?.message));
    return finish(m ? Number(m[1]) || 1 : 1, `the suite failed: ${err?.message ?? err}`);
  }
  if (!parseMochaResult(output.split('\n'))) return finish(1, 'VS Code exited 0 but the suite printed no MOCHA_RESULT line');
  return finish(0);
}

main().catch((err) => void finish(1, `could not run the suite: ${err?.stack ?? err}`));

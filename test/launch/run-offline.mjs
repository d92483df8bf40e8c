// Runs the integration suite (test/integration) inside a real VS Code without internet:
// code-server (VS Code for the web, Node extension host) driven by Debian Chromium.
// Prints the suite's output, then `integration: N passed, N failed`, and exits with the
// suite's exit code. Everything it starts is stopped on success, failure, timeout and
// Ctrl+C.
//
//   node test/launch/run-offline.mjs [--screenshot-on-failure FILE.png]
//   env: CODE_SCANNER_INTEGRATION_TIMEOUT_MS (default 15 min), CODE_SCANNER_VERBOSE=1
//        (also print browser console and code-server log), CODE_SCANNER_KEEP_TEMP=1
import { join, resolve } from 'node:path';
import { provision, ProvisionError } from './provision.mjs';
import {
  cleanup,
  installSignalHandlers,
  launchChromium,
  prepareSuite,
  log,
  remoteUri,
  repoRoot,
  startCodeServer,
  startWorkbenchProbe,
  tail,
  tempDir,
  workbenchUrl,
} from './harness.mjs';
import { formatAutomationLog, isWorkbenchNoise, parseMochaResult } from './automation-log.mjs';

const timeoutMs = Number(process.env.CODE_SCANNER_INTEGRATION_TIMEOUT_MS) || 15 * 60_000;
const verbose = !!process.env.CODE_SCANNER_VERBOSE;
const argv = process.argv.slice(2);
const shotIdx = argv.indexOf('--screenshot-on-failure');
const screenshotFile = shotIdx >= 0 ? resolve(process.env.INIT_CWD || process.cwd(), argv[shotIdx + 1] ?? 'integration-failure.png') : undefined;

let lines = [];
let page;
let finished = false;
const started = Date.now();

function summary(result, note) {
  const r = result ?? { passed: 0, failed: 0 };
  // A run that failed without a test failing still counts as one failure.
  const failed = note && r.failed === 0 ? 1 : r.failed;
  if (note) console.error(`[launch] ${note}`);
  console.log(`integration: ${r.passed} passed, ${failed} failed`);
}

async function finish(code, note) {
  if (finished) return;
  finished = true;
  if (code !== 0 && screenshotFile && page) {
    await page.screenshot({ path: screenshotFile }).then(
      () => log(`screenshot of the workbench saved to ${screenshotFile}`),
      (e) => log(`could not save a screenshot: ${e.message}`),
    );
  }
  summary(parseMochaResult(lines), note);
  log(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await cleanup();
  process.exit(code);
}

installSignalHandlers((sig) => void finish(sig === 'SIGINT' ? 130 : 143, `interrupted by ${sig}; stopped everything this run started`));

const timer = setTimeout(() => {
  void finish(1, `timed out after ${Math.round(timeoutMs / 1000)} s (CODE_SCANNER_INTEGRATION_TIMEOUT_MS). The suite had not reported its end; see the output above.`);
}, timeoutMs);
timer.unref();

async function main() {
  const tools = provision();

  const { service, multiRoot, env: extensionEnvironment, testsPath, systemStoreEnv } = await prepareSuite();
  extensionEnvironment.CODE_SCANNER_TEST_WORKBENCH_PROBE = await startWorkbenchProbe(() => page);
  // The page reloads with its URL and its exposed functions: the suite may reload the window
  // and go on in the new extension host (test/integration/index.ts).
  extensionEnvironment.CODE_SCANNER_TEST_RELOAD_FILE = join(tempDir('code-scanner-reload-'), 'reload.json');

  const server = await startCodeServer(tools, {
    // The first-scan question is the subject of one test, which turns it on; the others scan straight away.
    settings: { 'codeScanner.customBaseUrl': service.baseUrl, 'codeScanner.confirmFirstUpload': false },
    env: systemStoreEnv,
  });
  log(`code-server ${server.url} (log ${server.logFile})`);

  const payload = [
    ['extensionDevelopmentPath', remoteUri(server, repoRoot)],
    ['extensionTestsPath', remoteUri(server, testsPath)],
    ['extensionEnvironment', JSON.stringify(extensionEnvironment)],
    ['skipWelcome', 'true'],
  ];

  const browser = await launchChromium(tools);
  page = browser.page;

  let resolveExit;
  const exitCode = new Promise((r) => (resolveExit = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = formatAutomationLog(type, args);
    lines.push(...text.split('\n'));
    if (verbose || !isWorkbenchNoise(text)) console.log(text);
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  if (verbose) {
    page.on('console', (m) => console.log(`[browser ${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => console.log(`[browser error] ${e.message}`));
  }
  const crashed = new Promise((r) => page.on('crash', () => r('the browser tab crashed')));
  const serverGone = new Promise((r) => {
    const t = setInterval(() => {
      if (server.exited() !== undefined) {
        clearInterval(t);
        r(`code-server exited (${server.exited()})`);
      }
    }, 500);
    t.unref();
  });

  log('opening the workbench; the suite runs in the extension host');
  await page.goto(workbenchUrl(server, multiRoot.file, payload), { waitUntil: 'domcontentloaded', timeout: 120_000 });

  const outcome = await Promise.race([exitCode, crashed, serverGone]);
  if (typeof outcome === 'string') {
    console.error(tail(server.logFile));
    return finish(1, outcome);
  }
  if (verbose || outcome !== 0) console.log(`--- code-server log (tail) ---\n${tail(server.logFile)}`);
  const result = parseMochaResult(lines);
  if (outcome === 0 && !result) return finish(1, 'the extension host exited 0 but the suite printed no MOCHA_RESULT line');
  return finish(outcome, outcome === 0 ? undefined : `the suite exited with code ${outcome}`);
}

main().catch((err) => {
  const msg = err instanceof ProvisionError ? err.message : err?.stack ?? String(err);
  void finish(1, `could not run the suite: ${msg}`);
});

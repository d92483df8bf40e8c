// Runs the integration suite (test/integration) inside a real VS Code without internet:
// code-server (VS Code for the web, Node extension host) driven by Debian Chromium.
// Prints the suite's output, then `integration: N passed, N failed`, and exits with the
// suite's exit code. Everything it starts is stopped on success, failure, timeout and
// Ctrl+C.
//
// Seven windows. The main suite in a trusted multi-root workspace, split over two windows
// that run side by side, each with its reference service, workspace, code-server and browser
// (the second in a child launcher, `--second-part`): the suite waits on the workbench and the
// service more than it computes, and two halves at once end long before one whole. Beside
// them, five short windows in turn: the Restricted Mode tests (`*.restricted.js`) in a VS
// Code with workspace trust on and a folder nobody trusted, the language suite (`*.lang.js`)
// in a VS Code started in Japanese and in the pseudo-locale, Fix with Chat (`*.chat.js`) in
// one whose chat has a recording language model, and the smoke part (`*.smoke.js`) in the
// oldest VS Code the extension supports (1.96), installed meanwhile. The five run in a child
// launcher too (`--side-windows`), in a CPU cgroup of a small share where one can be made
// (cpuShare.mjs), behind the main suite. The children's output is printed after the first
// window's.
//
//   node test/launch/run-offline.mjs [--screenshot-on-failure FILE.png] [--side-windows | --second-part]
//   env: CODE_SCANNER_INTEGRATION_TIMEOUT_MS (default 45 min), CODE_SCANNER_SIDE_SHARE (the
//        short windows' CPU weight against the main suite's, default 0.5), CODE_SCANNER_VERBOSE=1
//        (also print browser console and code-server log), CODE_SCANNER_KEEP_TEMP=1
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MINIMUM, provision, provisionMinimum, ProvisionError } from './provision.mjs';
import {
  cleanup,
  installSignalHandlers,
  launchChromium,
  makeGitWorkspace,
  makeMultiRootWorkspace,
  onCleanup,
  prepareSuite,
  log,
  remoteUri,
  repoRoot,
  spawnGroup,
  startCodeServer,
  startWorkbenchProbe,
  tail,
  tempDir,
  workbenchUrl,
} from './harness.mjs';
import { formatAutomationLog, isWorkbenchNoise, parseMochaResult } from './automation-log.mjs';
import { inLoweredShare, lowerCpuShare } from './cpuShare.mjs';
import { languagePackVsix } from './languagePack.mjs';
import { pseudoLocaleExtension } from './pseudoLocale.mjs';
import { chatRecorderVsix } from './chatRecorder.mjs';

// A guard against a window that never reports, not a speed target: on a fresh machine the
// run provisions its main editor first (a minute or two) and then runs the windows.
const timeoutMs = Number(process.env.CODE_SCANNER_INTEGRATION_TIMEOUT_MS) || 45 * 60_000;
const verbose = !!process.env.CODE_SCANNER_VERBOSE;
const argv = process.argv.slice(2);
const shotIdx = argv.indexOf('--screenshot-on-failure');
const screenshotFile = shotIdx >= 0 ? resolve(process.env.INIT_CWD || process.cwd(), argv[shotIdx + 1] ?? 'integration-failure.png') : undefined;
// Only the five short windows, or only the main suite's second part, for the launcher that
// runs the main window: it reads the result from one SIDE_RESULT line.
const sideOnly = argv.includes('--side-windows');
const secondPartOnly = argv.includes('--second-part');
const inChild = sideOnly || secondPartOnly;

/**
 * The main suite's files (their stems, test/integration/index.ts) that run in a second
 * window beside the first: the main suite waits on the workbench, the service and the
 * extension host more than it computes (alone it keeps about 1.3 of the 2 cores busy), so
 * two halves at once end long before one whole. About half of the suite's time by the
 * runner's SUITE_MS lines; the reload tests (z*) stay in the first window, which reloads.
 */
const SECOND_PART = ['fixChecks', 'hostile', 'kinds', 'mcpBridge', 'network', 'partialScans', 'pushCheck', 'realShapes', 'rescan', 'scanOnSave', 'uploads'];

/** Each window's lines; the counts are summed at the end. */
const windows = [];
/** What each child launcher said at its end: its counts, its windows' times. */
const childResults = [];
let page;
let finished = false;
const started = Date.now();

function total() {
  const rs = [...windows.map((w) => parseMochaResult(w.lines)), ...childResults];
  if (rs.every((r) => !r)) return undefined;
  return rs.reduce((t, r) => ({ passed: t.passed + (r?.passed ?? 0), failed: t.failed + (r?.failed ?? 0) }), { passed: 0, failed: 0 });
}

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
  // The child launchers' lines, if a timeout or a signal ends the run before they were printed.
  for (const c of children) c.print();
  if (code !== 0 && screenshotFile && page) {
    await page.screenshot({ path: screenshotFile }).then(
      () => log(`screenshot of the workbench saved to ${screenshotFile}`),
      (e) => log(`could not save a screenshot: ${e.message}`),
    );
  }
  // Each window's time, from its browser's start to its suite's end (code-server's start before it is not counted).
  const times = [...windows.filter((w) => w.ended).map((w) => `${w.name} ${((w.ended - w.started) / 1000).toFixed(0)} s`), ...childResults.flatMap((r) => r.times ?? [])];
  if (inChild) {
    const r = total() ?? { passed: 0, failed: 0 };
    console.log(`SIDE_RESULT ${JSON.stringify({ passed: r.passed, failed: r.failed, times, code, note })}`);
    await cleanup();
    process.exit(code);
  }
  if (times.length) console.log(`[launch] windows: ${times.join(', ')}`);
  summary(total(), note);
  log(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await cleanup();
  process.exit(code);
}

installSignalHandlers((sig) => void finish(sig === 'SIGINT' ? 130 : 143, `interrupted by ${sig}; stopped everything this run started`));

const timer = setTimeout(() => {
  void finish(1, `timed out after ${Math.round(timeoutMs / 1000)} s (CODE_SCANNER_INTEGRATION_TIMEOUT_MS). The suite had not reported its end; see the output above.`);
}, timeoutMs);
timer.unref();

/**
 * Opens `target` in a code-server window that runs the suite's files named by the payload's
 * environment, and resolves with the extension host's exit code (or why it never came).
 */
async function runWindow(tools, server, target, extensionEnvironment, testsPath, { extensionPath = process.env.CODE_SCANNER_EXTENSION_PATH || repoRoot, onSuiteStart } = {}) {
  const payload = [
    // The benchmark of activation loads a copy that nothing activates by itself (test/bench/activationBench.ts).
    ['extensionDevelopmentPath', remoteUri(server, extensionPath)],
    ['extensionTestsPath', remoteUri(server, testsPath)],
    ['extensionEnvironment', JSON.stringify(extensionEnvironment)],
    ['skipWelcome', 'true'],
  ];
  const browser = await launchChromium(tools);
  page = browser.page;
  const suffix = extensionEnvironment.CODE_SCANNER_TEST_SUFFIX;
  const name = extensionEnvironment.CODE_SCANNER_TEST_LANGUAGE
    ? `language ${extensionEnvironment.CODE_SCANNER_TEST_LANGUAGE}`
    : ({ '.restricted.js': 'Restricted Mode', '.smoke.js': 'oldest VS Code', '.chat.js': 'Fix with Chat' }[suffix]
      ?? (extensionEnvironment.CODE_SCANNER_TEST_FILES ? 'main suite, second part' : extensionEnvironment.CODE_SCANNER_TEST_SKIP_FILES ? 'main suite, first part' : 'main suite'));
  const w = { lines: [], name, started: Date.now() };
  windows.push(w);
  let resolveExit;
  const exitCode = new Promise((r) => (resolveExit = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    if (!w.lines.length) onSuiteStart?.();
    const text = formatAutomationLog(type, args);
    w.lines.push(...text.split('\n'));
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
  await page.goto(workbenchUrl(server, target, payload), { waitUntil: 'domcontentloaded', timeout: 120_000 });
  const outcome = await Promise.race([exitCode, crashed, serverGone]);
  w.ended = Date.now();
  if (typeof outcome === 'string') {
    console.error(tail(server.logFile));
    return { note: outcome };
  }
  if (verbose || outcome !== 0) console.log(`--- code-server log (tail) ---\n${tail(server.logFile)}`);
  if (outcome === 0 && !parseMochaResult(w.lines)) return { note: 'the extension host exited 0 but the suite printed no MOCHA_RESULT line' };
  await browser.browser.close().catch(() => {});
  return outcome === 0 ? { code: 0 } : { code: outcome, note: `the suite exited with code ${outcome}` };
}

/**
 * `provision.mjs` with `args` in a child, so that what only the last windows need (a few
 * minutes of npm and native builds on a fresh machine) installs while the first windows run;
 * resolves to [exitCode, output].
 */
function provisionInChild(args) {
  const script = [process.execPath, join(dirname(fileURLToPath(import.meta.url)), 'provision.mjs'), ...args];
  // Beside the main suite, in a CPU cgroup of its own, of the short windows' weight: inside
  // theirs a compiler's one thread got a sliver beside their browsers' many, and the last two
  // windows waited a minute and a half for it. Otherwise it is behind the short
  // windows: in Linux's idle class a compiler takes a core only while no window wants it;
  // elsewhere at niceness 10.
  const behind = !inLoweredShare();
  const idle = behind && existsSync('/usr/bin/chrt');
  const child = idle
    ? spawn('/usr/bin/chrt', ['--idle', '0', ...script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(script[0], script.slice(1), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid && behind && !idle) {
    try { setPriority(child.pid, 10); } catch { /* a preference */ }
  }
  const release = child.pid && !behind ? lowerCpuShare(child.pid, SIDE_SHARE) : undefined;
  if (release) child.on('close', release);
  onCleanup(() => { if (child.exitCode === null) child.kill(); });
  return ended(child);
}

/** Resolves to [exitCode, output] when `child` ends; `onData` sees its output as it comes. */
function ended(child, onData = () => {}) {
  return new Promise((done) => {
    let out = '';
    const take = (d) => { out += d; onData(d); };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (err) => { take(`${err.message}\n`); done([1, out]); });
    child.on('close', (code, signal) => done([code ?? (signal ? 1 : 0), out]));
  });
}

/** A grep (working on one suite) naming only short windows skips the main window. */
const SHORT_WINDOWS_ONLY = /^\s*(restricted|smoke|oldest|japanese|pseudo|language|chat)(\s*\|\s*(restricted|smoke|oldest|japanese|pseudo|language|chat))*\s*$/i;

async function main() {
  const tools = provision();
  const grep = process.env.CODE_SCANNER_TEST_GREP;
  const mainWindow = secondPartOnly || (!sideOnly && (!grep || !SHORT_WINDOWS_ONLY.test(grep)));
  const shortWindows = !secondPartOnly && (!grep || /restricted|japanese|pseudo|language|\bchat\b|smoke|oldest/i.test(grep));
  // The whole suite splits over two windows; one suite's tests (a grep), the benchmarks and
  // the benchmark's rounds of one window do not.
  const split = !inChild && mainWindow && !grep && !process.env.CODE_SCANNER_TEST_SUFFIX && !process.env.CODE_SCANNER_WINDOWS;

  const { service, multiRoot, env: extensionEnvironment, testsPath, systemStoreEnv } = await prepareSuite({ build: !inChild });
  if (split) extensionEnvironment.CODE_SCANNER_TEST_SKIP_FILES = SECOND_PART.join(',');
  if (secondPartOnly) extensionEnvironment.CODE_SCANNER_TEST_FILES = SECOND_PART.join(',');
  extensionEnvironment.CODE_SCANNER_TEST_WORKBENCH_PROBE = await startWorkbenchProbe(() => page);
  // The page reloads with its URL and its exposed functions: the suite may reload the window
  // and go on in the new extension host (test/integration/index.ts).
  extensionEnvironment.CODE_SCANNER_TEST_RELOAD_FILE = join(tempDir('code-scanner-reload-'), 'reload.json');
  // Checking applied fixes (a scan after each save of a fixed file) is the subject of its own
  // suite, which turns it on; elsewhere a test's save must not start a scan of its own.
  const settings = { 'codeScanner.customBaseUrl': service.baseUrl, 'codeScanner.confirmFirstUpload': false, 'codeScanner.verifyFixes': 'off' };

  let code = 0;
  let note;
  if (mainWindow) {
    // The second part starts in its launcher with this window (built by now), at the same
    // share of the CPU. The short windows start in theirs once this window's suite runs (more
    // workbenches starting at once slow each other most), or after 90 s whatever it does,
    // behind the main suite: their tests are short and the run waits for the main suite's.
    const secondPart = split ? launchChild('--second-part') : undefined;
    let startSide = () => {};
    const side = shortWindows ? new Promise((r) => (startSide = r)).then(() => launchChild('--side-windows', SIDE_SHARE)) : undefined;
    setTimeout(() => startSide(), 90_000).unref();
    const server = await startCodeServer(tools, {
      // The first-scan question is the subject of one test, which turns it on; the others scan straight away.
      settings,
      env: systemStoreEnv,
    });
    log(`code-server ${server.url} (log ${server.logFile})`);
    log('opening the workbench; the suite runs in the extension host');
    // CODE_SCANNER_WINDOWS=N opens the window N times in turn (the benchmark's rounds of activation).
    for (let round = 0, rounds = Number(process.env.CODE_SCANNER_WINDOWS) || 1; round < rounds; round++) {
      const trusted = await runWindow(tools, server, multiRoot.file, extensionEnvironment, testsPath, { onSuiteStart: () => startSide() });
      // A window that never reported is the end; failed tests are counted, and the other windows run all the same.
      if (trusted.code === undefined) return finish(1, trusted.note);
      code = code || trusted.code;
      note = trusted.note ?? note;
    }
    mainWindowEnded();
    startSide();
    for (const r of await Promise.all([secondPart, side])) {
      if (!r) continue;
      code = code || r.code;
      note = r.note ?? note;
    }
  } else if (shortWindows) {
    mainWindowEnded();
    const r = await runShortWindows({ tools, grep, extensionEnvironment, testsPath, systemStoreEnv, settings });
    code = r.code;
    note = r.note;
  }
  return finish(code, note);
}

/**
 * A launcher of more windows in a child (`--second-part`, `--side-windows`), beside this
 * one's main window, at `share` of its CPU where that is lower. Its output is held and
 * printed after the main window's (or at the end, whatever ends it); resolves to its code
 * and note, its counts and times kept for the summary.
 */
async function launchChild(flag, share) {
  const held = { text: '', print() { if (this.text) process.stdout.write(this.text.endsWith('\n') ? this.text : `${this.text}\n`); this.text = ''; } };
  children.push(held);
  const child = spawnGroup(process.execPath, [fileURLToPath(import.meta.url), flag], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const release = share && child.pid ? lowerCpuShare(child.pid, share) : undefined;
  const [exit] = await ended(child, (d) => (held.text += d));
  release?.();
  const line = [...held.text.matchAll(/^SIDE_RESULT (.*)$/gm)].at(-1);
  held.text = held.text.replace(/^SIDE_RESULT .*\n?/gm, '');
  // The main window's lines first: a child that ends before it prints once that window is done.
  await mainWindowDone;
  held.print();
  let r;
  try {
    r = line && JSON.parse(line[1]);
  } catch {
    r = undefined;
  }
  if (!r) return { code: exit || 1, note: `the launcher of ${flag} ended (${exit}) without its result; see its lines above` };
  childResults.push({ passed: r.passed, failed: r.failed, times: r.times });
  return { code: r.code, note: r.note ?? undefined };
}

/**
 * The short windows' share of the CPU against the main suite's two windows, where they
 * compete: about a third of the windows' CPU is theirs and their editors' builds, done in a
 * chain of five windows. At a quarter they starved beside the two and ended two minutes after them.
 */
const SIDE_SHARE = Number(process.env.CODE_SCANNER_SIDE_SHARE) || 0.5;

/** The child launchers' held output. */
const children = [];
/** Resolved once this launcher's main window has ended (or when it has none). */
let mainWindowEnded;
const mainWindowDone = new Promise((r) => (mainWindowEnded = r));

/**
 * The five short windows in turn, with the editors only they need (the chat window's
 * SQLite, the oldest supported editor) provisioned behind the first ones.
 */
async function runShortWindows({ tools, grep, extensionEnvironment, testsPath, systemStoreEnv, settings }) {
  // The chat window's SQLite (provision.mjs, DEFERRED) and the oldest supported editor.
  // Side by side: one is mostly a compiler's one thread, the other mostly npm's downloads and unpacking.
  const later = [...(!grep || /\bchat\b/i.test(grep) ? ['--deferred'] : []), ...(!grep || /smoke|oldest/i.test(grep) ? ['--minimum'] : [])];
  const provisioning = new Map(later.map((flag) => [flag, provisionInChild([flag])]));
  const said = new Set();
  /** Waits for the provisioning of `flag`; a note when it failed. Its lines are printed once. */
  const provisionedLater = async (flag) => {
    const [exit, out] = await provisioning.get(flag);
    if (out.trim() && !said.has(flag)) console.log(out.trimEnd());
    said.add(flag);
    return exit === 0 ? undefined : `provisioning the editor of a last window (provision.mjs ${flag}) failed (exit ${exit}); see the lines above`;
  };

  let code = 0;
  let note;
  if (!grep || /restricted/i.test(grep)) {
    // Restricted Mode: a VS Code that asks about trust, and a repository nobody trusted whose
    // .git/config names a program git would start (a tripwire that leaves a file behind).
    const untrusted = makeGitWorkspace(undefined, 'code-scanner-untrusted-');
    const tripwire = join(tempDir('code-scanner-tripwire-'), 'fsmonitor-ran');
    const hook = join(tempDir('code-scanner-hook-'), 'fsmonitor.sh');
    writeFileSync(hook, `#!/bin/sh\necho "$@" > '${tripwire}'\nexit 1\n`, { mode: 0o755 });
    spawnGit(untrusted, ['config', 'core.fsmonitor', hook]);
    const restrictedServer = await startCodeServer(tools, { settings, env: systemStoreEnv, workspaceTrust: true });
    log(`code-server with workspace trust ${restrictedServer.url}; Restricted Mode tests in ${untrusted}`);
    const restricted = await runWindow(tools, restrictedServer, untrusted, {
      ...extensionEnvironment,
      CODE_SCANNER_TEST_SUFFIX: '.restricted.js',
      CODE_SCANNER_TEST_WORKSPACE: untrusted,
      CODE_SCANNER_TEST_TRIPWIRE: tripwire,
      CODE_SCANNER_TEST_RELOAD_FILE: '',
    }, testsPath);
    code = code || restricted.code || (restricted.code === undefined ? 1 : 0);
    note = restricted.note ?? note;
  }
  if (!grep || /japanese|pseudo|language/i.test(grep)) {
    // The extension in the user's language: VS Code started in Japanese, then in the
    // pseudo-locale (a copy of the extension whose bundle marks every word of ours), each
    // with a display-language pack and a workspace of its own; the same suite (`*.lang.js`).
    for (const [locale, name, extensionPath] of [['ja', '日本語', repoRoot], ['qps-ploc', 'Pseudo', pseudoLocaleExtension()]]) {
      if (grep && !/language/i.test(grep) && !(locale === 'ja' ? /japanese/i : /pseudo/i).test(grep)) continue;
      const workspace = makeGitWorkspace(undefined, `code-scanner-${locale}-`);
      const server = await startCodeServer(tools, { settings, env: systemStoreEnv, locale, installVsix: await languagePackVsix(locale, name) });
      log(`code-server in ${locale} ${server.url}; the language suite in ${workspace}`);
      const r = await runWindow(tools, server, workspace, {
        ...extensionEnvironment,
        CODE_SCANNER_TEST_SUFFIX: '.lang.js',
        CODE_SCANNER_TEST_LANGUAGE: locale,
        CODE_SCANNER_TEST_WORKSPACE: workspace,
        CODE_SCANNER_TEST_RELOAD_FILE: '',
        // What a person sees at each step, kept whatever the outcome.
        CODE_SCANNER_TEST_ARTEFACTS: join(repoRoot, 'out', 'test-artefacts', locale),
      }, testsPath, { extensionPath });
      code = code || r.code || (r.code === undefined ? 1 : 0);
      note = r.note ?? note;
    }
  }
  if (!grep || /\bchat\b/i.test(grep)) {
    // Fix with Chat in a chat that has a language model: the recorder (test/launch/chatRecorder.mjs)
    // stands in for an AI account, and records what each request carried (`*.chat.js`). Its
    // agent host stores sessions with SQLite, built meanwhile.
    const failed = await provisionedLater('--deferred');
    if (failed) return { code: 1, note: failed };
    const workspace = makeGitWorkspace(undefined, 'code-scanner-chat-');
    const server = await startCodeServer(tools, { settings: { ...settings, 'chat.disableAIFeatures': false }, env: systemStoreEnv, installVsix: await chatRecorderVsix() });
    log(`code-server with a recording chat model ${server.url}; the chat suite in ${workspace}`);
    const r = await runWindow(tools, server, workspace, {
      ...extensionEnvironment,
      CODE_SCANNER_TEST_SUFFIX: '.chat.js',
      CODE_SCANNER_TEST_WORKSPACE: workspace,
      CODE_SCANNER_TEST_RELOAD_FILE: '',
      CODE_SCANNER_TEST_ARTEFACTS: join(repoRoot, 'out', 'test-artefacts', 'chat'),
    }, testsPath);
    code = code || r.code || (r.code === undefined ? 1 : 0);
    note = r.note ?? note;
  }
  if (!grep || /smoke|oldest/i.test(grep)) {
    // The oldest supported editor (engines.vscode): the smoke part (`*.smoke.js`) in VS Code
    // 1.96, on a workspace of its own against the same service; last, so that it is installed by then.
    const failed = await provisionedLater('--minimum');
    if (failed) return { code: 1, note: failed };
    const minimum = provisionMinimum();
    const smokeWorkspace = makeGitWorkspace(undefined, 'code-scanner-smoke-');
    const smokeRoot = makeMultiRootWorkspace(smokeWorkspace);
    const smokeEnv = {
      ...extensionEnvironment,
      CODE_SCANNER_TEST_SUFFIX: '.smoke.js',
      CODE_SCANNER_TEST_WORKSPACE: smokeWorkspace,
      CODE_SCANNER_TEST_SECOND_FOLDER: smokeRoot.folders[1],
      CODE_SCANNER_TEST_RELOAD_FILE: '',
    };
    // VS Code 1.96 for the web takes no extensionEnvironment from the page: its extension
    // host inherits the server's environment instead.
    const smokeServer = await startCodeServer(minimum, { settings, env: { ...systemStoreEnv, ...smokeEnv } });
    log(`code-server ${MINIMUM.codeServer} (the oldest supported VS Code) ${smokeServer.url}; the smoke suite in ${smokeRoot.file}`);
    const smoke = await runWindow(minimum, smokeServer, smokeRoot.file, smokeEnv, testsPath);
    code = code || smoke.code || (smoke.code === undefined ? 1 : 0);
    note = smoke.note ?? note;
  }
  return { code, note };
}

function spawnGit(cwd, args) {
  const r = spawnSync('git', args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed`);
}

main().catch((err) => {
  const msg = err instanceof ProvisionError ? err.message : err?.stack ?? String(err);
  void finish(1, `could not run the suite: ${msg}`);
});

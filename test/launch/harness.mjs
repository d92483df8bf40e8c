// Pieces shared by the offline launcher, the desktop launcher and the demo: a cleanup
// registry that runs on success, failure, timeout and signals; the reference service as
// a child process; a git-initialised copy of the fixture workspace; code-server in its
// own process group; and Chromium through playwright-core.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { repoRoot } from './provision.mjs';

export { repoRoot };

export const log = (msg) => console.log(`[launch] ${msg}`);

// ---------------------------------------------------------------------------------
// Cleanup: every started process registers how to stop it. Runs once, in reverse.

const cleanups = [];
const exitKills = new Set(); // process groups to SIGKILL synchronously if we exit abruptly
let cleaning;

export function onCleanup(fn) {
  cleanups.push(fn);
}

export function cleanup() {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const fn = cleanups.pop();
      try {
        await fn();
      } catch (err) {
        console.error(`[launch] cleanup step failed: ${err?.message ?? err}`);
      }
    }
  })();
  return cleaning;
}

/** Cleans up and exits with `code`; also wired to SIGINT/SIGTERM/SIGHUP. */
export async function exitAfterCleanup(code) {
  await cleanup();
  process.exit(code);
}

let signalsInstalled = false;
let stoppingBySignal = false;
/** Whether a signal (Ctrl+C) is stopping everything: watchdogs then stay quiet. */
export function stoppingOnSignal() {
  return stoppingBySignal;
}

export function installSignalHandlers(onSignal) {
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
    process.on(sig, () => {
      // One line for one stop: a second Ctrl+C while cleaning up changes nothing.
      if (stoppingBySignal) return;
      stoppingBySignal = true;
      if (onSignal) onSignal(sig);
      else log(`${sig} received, stopping everything...`);
      void exitAfterCleanup(code);
    });
  }
  process.on('exit', () => {
    for (const pgid of exitKills) killGroup(pgid, 'SIGKILL');
  });
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pid) {
  return killGroup(pid, 0);
}

/** Stops a whole process group: SIGTERM, then SIGKILL if it has not gone after `graceMs`. */
export async function stopGroup(pid, graceMs = 3000) {
  if (!pid) return;
  exitKills.delete(pid);
  if (!killGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pid)) return;
    await sleep(100);
  }
  killGroup(pid, 'SIGKILL');
}

/** Spawns `cmd` as the leader of a new process group (setsid), tracked for cleanup. */
export function spawnGroup(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { ...opts, detached: true });
  if (child.pid) {
    exitKills.add(child.pid);
    onCleanup(() => stopGroup(child.pid));
  }
  return child;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function tempDir(prefix) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  if (!process.env.CODE_SCANNER_KEEP_TEMP) onCleanup(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }));
  return dir;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------
// Build

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`\`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
}

/** Bundles the extension, and the integration tests when asked (stale tests removed first). */
export function buildExtension({ tests = false, production = false } = {}) {
  if (tests) rmSync(join(repoRoot, 'out', 'test', 'integration'), { recursive: true, force: true });
  const args = ['esbuild.mjs'];
  if (tests) args.push('--tests');
  if (production) args.push('--production');
  run(process.execPath, args);
}

// ---------------------------------------------------------------------------------
// Reference service

/**
 * Starts the reference service CLI as a child process and waits for its
 * `base_url:`/`admin:`/`token:` lines. Returns the URLs, the demo token and stop().
 */
export async function startService({ dataDir, scanDurationMs, tlsDir, timeoutMs = 90_000 } = {}) {
  const args = ['--import', 'tsx', join('test', 'service', 'cli.ts'), '--port', '0', '--data-dir', dataDir ?? tempDir('code-scanner-service-')];
  if (scanDurationMs !== undefined) args.push('--scan-duration-ms', String(scanDurationMs));
  // Also HTTPS, with a certificate from a test CA made in tlsDir (its ca.pem is `caFile`).
  if (tlsDir) args.push('--tls-dir', tlsDir);
  const child = spawnGroup(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const found = {};
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the reference service printed no base_url/token within ${timeoutMs / 1000} s`)), timeoutMs);
    function fail(err) {
      clearTimeout(timer);
      reject(new Error(`${err.message}\n--- service output ---\n${out.slice(-4000)}`));
    }
    const onData = (d) => {
      out += d;
      for (const m of out.matchAll(/^(base_url|admin|token|tls_port|ca_file):\s*(\S+)\s*$/gm)) found[m[1]] = m[2];
      if (found.base_url && found.admin && found.token && (!tlsDir || (found.tls_port && found.ca_file))) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        // Keep draining so the service never blocks on a full pipe.
        child.stdout.resume();
        child.stderr.on('data', (e) => process.env.CODE_SCANNER_VERBOSE && process.stderr.write(e));
        resolve({
          baseUrl: found.base_url,
          adminUrl: found.admin,
          origin: new URL(found.base_url).origin,
          token: found.token,
          tlsPort: found.tls_port ? Number(found.tls_port) : undefined,
          caFile: found.ca_file,
          pid: child.pid,
          output: () => out,
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => fail(e));
    child.on('exit', (code, sig) => fail(new Error(`the reference service exited early (${code ?? sig})`)));
  });
}

// ---------------------------------------------------------------------------------
// Workspace

/** Copies `src` into a fresh temp dir and commits it, like a user's checked-out repo. */
export function makeGitWorkspace(src = join(repoRoot, 'test', 'fixtures', 'workspace'), prefix = 'code-scanner-ws-', author = 'Code Scanner Tests') {
  const parent = tempDir(prefix);
  const dir = join(parent, 'order-service');
  cpSync(src, dir, { recursive: true });
  const git = (...a) => run('git', a, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', author);
  git('config', 'user.email', 'tests@code-scanner.invalid');
  git('config', 'commit.gpgsign', 'false');
  git('add', '-A');
  git('commit', '-q', '-m', 'Initial commit of the sample project');
  return dir;
}

/**
 * A multi-root workspace like a user's: `first` (e.g. makeGitWorkspace()) plus a copy of
 * the small second fixture folder, which is deliberately not a git repository (its
 * `.gitignore` still applies). Returns the `.code-workspace` file and both folders.
 */
export function makeMultiRootWorkspace(first, second = join(repoRoot, 'test', 'fixtures', 'second-folder')) {
  const parent = tempDir('code-scanner-multi-');
  const secondDir = join(parent, 'ops-tools');
  cpSync(second, secondDir, { recursive: true });
  const file = join(parent, 'scanner-tests.code-workspace');
  writeFileSync(file, JSON.stringify({ folders: [{ path: first }, { path: secondDir }], settings: {} }, null, 2) + '\n');
  return { file, folders: [first, secondDir] };
}

// ---------------------------------------------------------------------------------
// code-server

const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'remote.autoForwardPorts': false,
  // code-server has a tunnel provider, so the extension host looks for ports to forward
  // (`ls -l /proc/[0-9]*/fd/[0-9]*` spawned every 2 s, 20-70 ms of a big process's fork each) even
  // with auto-forwarding off; a desktop VS Code's local window runs no such scan.
  'remote.autoForwardPortsSource': 'output',
  // Desktop VS Code's default. VS Code for the Web saves edited files after a second; on a busy
  // machine a test that applied fixes (changed, not saved) reverted them after that second,
  // so they were on disk already and the next test's scan uploaded the fixed files.
  'files.autoSave': 'off',
  // The built-in TypeScript extension otherwise runs `npm install` of type packages for the
  // fixtures' JavaScript and package.json in every window: CPU the windows share, and a
  // registry the tests have no business reaching.
  'typescript.disableAutomaticTypeAcquisition': true,
};

/** Writes a fresh profile's User/settings.json: quiet start-up plus `settings`. */
export function writeUserSettings(userDataDir, settings = {}) {
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2) + '\n');
}

/**
 * code-server before --vscode-option refuses VS Code's own flags, and the smoke-test driver
 * is one of them; its option table is a plain object, so a start script adds the flag to
 * it before the entry point parses the command line (code-server hands every parsed
 * option on to VS Code).
 */
function legacyEntry(tools, home, smokeTestDriver) {
  const start = join(home, 'start-code-server.cjs');
  const cli = join(dirname(tools.codeServerEntry), 'cli.js');
  writeFileSync(start, [
    `const cli = require(${JSON.stringify(cli)});`,
    smokeTestDriver ? `cli.options['enable-smoke-test-driver'] = { type: 'boolean', description: 'VS Code smoke-test driver' };` : '',
    `require(${JSON.stringify(tools.codeServerEntry)});`,
    '',
  ].join('\n'));
  return [start, ...(smokeTestDriver ? ['--enable-smoke-test-driver'] : [])];
}

/**
 * Starts code-server (VS Code for the web) on a free loopback port in its own process
 * group with a fresh profile. `settings` go into the user's settings.json.
 * Returns { url, port, userDataDir, extensionsDir, logFile, pid }.
 */
export async function startCodeServer(tools, { port, settings = {}, extensionsDir, installVsix, smokeTestDriver = true, env = {}, healthTimeoutMs = 90_000, workspaceTrust = false, locale } = {}) {
  port ??= await freePort();
  const home = tempDir('code-scanner-vscode-');
  const userDataDir = join(home, 'user-data');
  extensionsDir ??= join(home, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  // With workspaceTrust, folders open in Restricted Mode until trusted, without asking.
  writeUserSettings(userDataDir, workspaceTrust
    ? { ...settings, 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false }
    : settings);
  const configFile = join(home, 'config.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const childEnv = {
    ...process.env,
    ...env,
    PATH: `${tools.nodeBinDir}${delimiter}${process.env.PATH}`,
    // code-server reads these before flags; keep them from leaking in from the caller.
    PASSWORD: '',
    HASHED_PASSWORD: '',
    CS_DISABLE_GETTING_STARTED_OVERRIDE: '1',
    // No marketplace is reachable offline: an empty gallery turns its queries off.
    EXTENSIONS_GALLERY: '{}',
    // The user's state (the MCP bridge's one place for every editor): this server's own.
    XDG_STATE_HOME: join(home, 'state'),
  };
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  if (installVsix) {
    log(`installing ${installVsix} into code-server`);
    run(tools.nodeBin, [tools.codeServerEntry, ...common, '--install-extension', installVsix, '--force'], { env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  }

  if (locale) writeLanguagePacks(userDataDir, extensionsDir);

  const logFile = join(home, 'code-server.log');
  const logStream = createWriteStream(logFile);
  const args = [
    ...(tools.legacyCli ? legacyEntry(tools, home, smokeTestDriver) : [tools.codeServerEntry]),
    ...common,
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(tools.legacyCli ? [] : ['--reconnection-grace-time', '5']),
    ...(smokeTestDriver && !tools.legacyCli ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    // The display language (a VS Code started in Japanese, or in the pseudo-locale).
    ...(locale ? ['--locale', locale] : []),
  ];
  const child = spawnGroup(tools.nodeBin, args, { cwd: home, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(logStream, { end: false });
  child.stderr.pipe(logStream, { end: false });
  let exited;
  child.on('exit', (code, sig) => (exited = `${code ?? sig}`));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + healthTimeoutMs;
  for (;;) {
    if (exited !== undefined) throw new Error(`code-server exited (${exited}) before it was ready. Log:\n${tail(logFile)}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer ${url}/healthz within ${healthTimeoutMs / 1000} s. Log:\n${tail(logFile)}`);
    await sleep(250);
  }
  return { url, port, userDataDir, extensionsDir, logFile, pid: child.pid, exited: () => exited };
}

/**
 * The index of installed display-language packs VS Code resolves a locale with
 * (languagepacks.json in the user data folder). VS Code's server writes it only as its
 * extension service notices a pack; a pack installed from the command line just before it
 * starts is not noticed before the first window asks for its language, so it is written here
 * as VS Code writes it.
 */
function writeLanguagePacks(userDataDir, extensionsDir) {
  const packs = {};
  for (const dir of readdirSync(extensionsDir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(extensionsDir, dir.name, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    for (const l of manifest.contributes?.localizations ?? []) {
      const core = l.translations?.find((t) => t.id === 'vscode');
      if (!core) continue;
      const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
      packs[l.languageId] = {
        hash: createHash('md5').update(`${id}@${manifest.version}`).digest('hex'),
        extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
        translations: { vscode: join(extensionsDir, dir.name, core.path) },
        label: l.localizedLanguageName ?? l.languageName,
      };
    }
  }
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}

/** The last `lines` non-blank lines of a log file. */
export function tail(file, lines = 30) {
  try {
    const all = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    return (all.length > lines ? ['...'] : []).concat(all.slice(-lines)).join('\n');
  } catch {
    return '(no log)';
  }
}

/** `vscode-remote://` URI of a path on the code-server machine, as the payload expects. */
export function remoteUri(server, absPath) {
  return `vscode-remote://127.0.0.1:${server.port}${absPath}`;
}

/**
 * Workbench URL opening `target`, with an optional test payload (array of [key, value]).
 * A path ending in `.code-workspace` opens that (multi-root) workspace, anything else a folder.
 */
export function workbenchUrl(server, target, payload) {
  const u = new URL(server.url + '/');
  u.searchParams.set(target.endsWith('.code-workspace') ? 'workspace' : 'folder', target);
  if (payload) u.searchParams.set('payload', JSON.stringify(payload));
  return u.toString();
}

// ---------------------------------------------------------------------------------
// Chromium

const QUIET_CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Launches Debian Chromium headless through playwright-core; closed on cleanup. The test
 * windows are a laptop's 1280×800: the browser draws the workbench in software, and at
 * 1440×900 it took a seventh more of the CPU the windows share.
 */
export async function launchChromium(tools, { viewport = { width: 1280, height: 800 } } = {}) {
  const { loadPlaywright } = await import('./provision.mjs');
  const pw = await loadPlaywright(tools);
  const browser = await pw.chromium.launch({
    executablePath: tools.chromium,
    headless: true,
    args: QUIET_CHROMIUM_FLAGS,
    // We own signal handling so cleanup runs in order.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: 60_000,
  });
  onCleanup(() => browser.close().catch(() => {}));
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  return { browser, context, page };
}

/**
 * What every launcher does before starting an editor: bundle the extension and the suite,
 * start the reference service, and make the two-folder workspace (tests address the first
 * folder; the second proves Scan Workspace works per folder). `env` is what the suite reads.
 * Without `build`, the bundles another launcher built are used as they are.
 */
export async function prepareSuite({ build = true } = {}) {
  if (build) {
    log('building the extension and the integration tests');
    // The benchmark measures activation on the bundle as it ships (minified, no source map).
    buildExtension({ tests: true, production: process.env.CODE_SCANNER_BUILD_PRODUCTION === '1' });
    // A copy of the extension to load instead (the activation benchmark's) gets this build. A
    // copy, not a link: VS Code knows which extension calls its API by the file's real path.
    const copy = process.env.CODE_SCANNER_EXTENSION_PATH;
    if (copy) for (const d of ['dist', 'media']) cpSync(join(repoRoot, d), join(copy, d), { recursive: true });
  }
  const service = await startService({ tlsDir: tempDir('code-scanner-test-ca-') });
  log(`reference service at ${service.baseUrl}, and over HTTPS on port ${service.tlsPort}`);
  const workspace = makeGitWorkspace();
  const multiRoot = makeMultiRootWorkspace(workspace);
  log(`workspace ${multiRoot.file} (${multiRoot.folders.join(', ')})`);
  const env = {
    CODE_SCANNER_TEST_BASE_URL: service.baseUrl,
    CODE_SCANNER_TEST_ADMIN_URL: service.adminUrl,
    CODE_SCANNER_TEST_TOKEN: service.token,
    CODE_SCANNER_TEST_WORKSPACE: workspace,
    CODE_SCANNER_TEST_SECOND_FOLDER: multiRoot.folders[1],
    CODE_SCANNER_TEST_TLS_PORT: String(service.tlsPort),
    CODE_SCANNER_TEST_CA_FILE: service.caFile,
  };
  // Runs only the tests whose title matches (while working on one suite).
  if (process.env.CODE_SCANNER_TEST_GREP) env.CODE_SCANNER_TEST_GREP = process.env.CODE_SCANNER_TEST_GREP;
  // Where tests keep screenshots of what a person sees (as artefacts, or for the README).
  if (process.env.CODE_SCANNER_TEST_SCREENSHOTS) env.CODE_SCANNER_TEST_SCREENSHOTS = process.env.CODE_SCANNER_TEST_SCREENSHOTS;
  // Which bundled files run: the tests (default) or the benchmarks (.bench.js).
  if (process.env.CODE_SCANNER_TEST_SUFFIX) env.CODE_SCANNER_TEST_SUFFIX = process.env.CODE_SCANNER_TEST_SUFFIX;
  const testsPath = join(repoRoot, 'out', 'test', 'integration', 'index.js');
  // The test CA as a company's IT would install it: in the system's store. SSL_CERT_FILE adds
  // it to OpenSSL's store, which Node reads as the system's ("http.systemCertificates").
  const systemStoreEnv = { SSL_CERT_FILE: service.caFile };
  return { service, workspace, multiRoot, env, testsPath, systemStoreEnv };
}

// ---------------------------------------------------------------------------------
// Workbench probe

/** The frame (a webview's inner frame) holding `selector`, if any. */
async function findFrame(page, selector) {
  for (const frame of page.frames()) {
    if (await frame.locator(selector).count().catch(() => 0)) return frame;
  }
  return undefined;
}

/**
 * A loopback endpoint through which the suite (running in the extension host, which cannot
 * see the workbench) asks what a person would see. `GET /notifications` lists the
 * notifications shown as toasts or in the open notification center (headless, the
 * workbench shows no toasts): their text and every link the workbench rendered in them.
 * `getPage` returns the Playwright page once it exists. Closed on cleanup.
 */
export async function startWorkbenchProbe(getPage) {
  const { createServer: createHttpServer } = await import('node:http');
  const server = createHttpServer(async (req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const page = getPage();
      if (!page) return send(503, { error: 'the workbench is not open yet' });
      const url = new URL(req.url ?? '/', 'http://probe');
      if (url.pathname === '/quickinput') {
        // The quick input (an input box or a pick): its prompt, value and validation message;
        // ?type=TEXT fills it, &enter=1 presses Enter, as a person would.
        const box = page.locator('.quick-input-widget .quick-input-box input');
        if (url.searchParams.has('type')) await box.fill(url.searchParams.get('type') ?? '');
        if (url.searchParams.get('enter') === '1') await box.press('Enter');
        await new Promise((r) => setTimeout(r, 150));
        return send(200, await page.evaluate(() => {
          const w = document.querySelector('.quick-input-widget');
          const visible = !!w && w.offsetParent !== null;
          const input = w?.querySelector('.quick-input-box input');
          return {
            visible,
            // The rows listed (a pick or the command palette): their text, keybindings included.
            rows: [...(w?.querySelectorAll('.quick-input-list .monaco-list-row') ?? [])].map((r) => (r.textContent ?? '').trim()),
            value: input?.value ?? '',
            placeholder: input?.getAttribute('placeholder') ?? '',
            message: (w?.querySelector('.quick-input-message')?.textContent ?? '').trim(),
            title: (w?.querySelector('.quick-input-title')?.textContent ?? '').trim(),
          };
        }));
      }
      if (url.pathname === '/press') {
        // Keys pressed as a person would, e.g. ?key=Control%2BAlt%2BEnter.
        await page.keyboard.press(url.searchParams.get('key') ?? '');
        await new Promise((r) => setTimeout(r, 300));
        return send(200, { pressed: true });
      }
      if (url.pathname === '/details') {
        // The finding details page (a webview's frame): which control has focus, what its
        // live region said; ?click=ACTION presses that button as a person would.
        const selector = 'main[aria-labelledby="title"]';
        let frame = await findFrame(page, selector);
        if (!frame) return send(200, { open: false });
        const click = url.searchParams.get('click');
        if (click) await frame.locator(`button[data-action="${click}"]`).click();
        // The webview may put a new inner frame in place while it is read (it re-renders on a
        // busy machine): read the frame that holds the page now, a few times at most.
        for (let attempt = 1; ; attempt++) {
          try {
            return send(200, await frame.evaluate(() => {
              const active = document.activeElement;
              return {
                open: true,
                title: document.getElementById('title')?.textContent ?? '',
                focused: active?.getAttribute('data-action') ?? active?.id ?? active?.tagName ?? '',
                live: document.getElementById('live')?.textContent ?? '',
              };
            }));
          } catch (e) {
            if (attempt >= 3 || !/detached/i.test(String(e))) throw e;
            await new Promise((r) => setTimeout(r, 200));
            frame = await findFrame(page, selector);
            if (!frame) return send(200, { open: false });
          }
        }
      }
      if (url.pathname === '/rows') {
        // The rows of a view (its pane found by its title, e.g. "Refactor Preview"), as shown;
        // ?expand=TEXT first opens the collapsed rows whose accessible name holds TEXT.
        const view = url.searchParams.get('view') ?? '';
        const expand = url.searchParams.get('expand');
        if (url.searchParams.get('alone')) {
          // ?alone=1: the other open panes are collapsed first, so the list has room to draw its rows.
          const others = page.locator('.pane-header[aria-expanded="true"]').filter({ hasNot: page.locator('.title', { hasText: new RegExp(view, 'i') }) });
          for (let i = 0, n = await others.count(); i < n; i++) await others.first().click();
          await new Promise((r) => setTimeout(r, 300));
        }
        if (expand) {
          const rows = page.locator('.pane').filter({ has: page.locator('.pane-header .title', { hasText: new RegExp(view, 'i') }) }).locator(`.monaco-list-row[aria-expanded="false"][aria-label*="${expand.replace(/"/g, '')}"]`);
          for (let i = 0, n = await rows.count(); i < n; i++) await rows.first().click();
          await new Promise((r) => setTimeout(r, 300));
        }
        return send(200, await page.evaluate((title) => {
          const panes = [...document.querySelectorAll('.pane')].filter((p) => (p.querySelector('.pane-header .title')?.textContent ?? '').toLowerCase().includes(title.toLowerCase()));
          const rows = panes.flatMap((p) => [...p.querySelectorAll('.monaco-list-row')]);
          return rows.map((r) => (r.getAttribute('aria-label') || r.textContent || '').trim());
        }, view));
      }
      if (url.pathname === '/welcome') {
        // A view's welcome content (its pane found by its title), as shown; empty when it shows none.
        return send(200, await page.evaluate((title) => {
          const pane = [...document.querySelectorAll('.pane')].find((p) => (p.querySelector('.pane-header .title')?.textContent ?? '').toLowerCase().includes(title.toLowerCase()));
          return [...(pane?.querySelectorAll('.welcome-view-content') ?? [])].map((w) => w.textContent ?? '').join('\n').trim();
        }, url.searchParams.get('view') ?? ''));
      }
      if (url.pathname === '/focused') {
        // What has keyboard focus: in a view's list, the row it points at (a list keeps DOM
        // focus itself and names its focused row in aria-activedescendant, as a screen
        // reader reads it), and the view's title.
        return send(200, await page.evaluate(() => {
          const active = document.activeElement;
          const id = active?.getAttribute('aria-activedescendant');
          const row = id ? document.getElementById(id) : null;
          return {
            view: (active?.closest('.pane')?.querySelector('.pane-header .title')?.textContent ?? '').trim(),
            row: (row?.getAttribute('aria-label') ?? '').trim(),
          };
        }));
      }
      if (url.pathname === '/contextmenu') {
        // The context menu of what has focus, opened and walked by keyboard as a person
        // does (Shift+F10, Down until ?item=TEXT starts the focused entry, Enter). The menu
        // lives in a shadow root, which Playwright's locators read through.
        const item = url.searchParams.get('item') ?? '';
        await page.keyboard.press('Shift+F10');
        await new Promise((r) => setTimeout(r, 300));
        const menu = page.locator('.monaco-menu');
        if (!(await menu.count())) return send(200, { opened: false, items: [] });
        const items = (await menu.first().locator('.action-item:not(.disabled) .action-label').allTextContents()).map((t) => t.trim()).filter(Boolean);
        for (let i = 0; i <= items.length; i++) {
          const focused = ((await menu.first().locator('.action-item.focused .action-label').allTextContents())[0] ?? '').trim();
          if (focused && focused.startsWith(item)) {
            await page.keyboard.press('Enter');
            await new Promise((r) => setTimeout(r, 300));
            return send(200, { opened: true, items, chosen: focused });
          }
          await page.keyboard.press('ArrowDown');
        }
        await page.keyboard.press('Escape');
        return send(200, { opened: true, items });
      }
      if (url.pathname === '/dialog') {
        // A modal dialog: its message and buttons; ?click=LABEL presses that button.
        const info = await page.evaluate(() => {
          const d = document.querySelector('.monaco-dialog-box');
          if (!d) return { visible: false, message: '', detail: '', buttons: [] };
          return {
            visible: true,
            message: (d.querySelector('.dialog-message-text')?.textContent ?? '').trim(),
            detail: (d.querySelector('.dialog-message-detail')?.textContent ?? '').trim(),
            buttons: [...d.querySelectorAll('.dialog-buttons a.monaco-button, .dialog-buttons .monaco-button')].map((b) => (b.textContent ?? '').trim()),
          };
        });
        const click = url.searchParams.get('click');
        if (click && info.visible) await page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: click }).first().click();
        return send(200, info);
      }
      if (url.pathname === '/screenshot') {
        // What a person sees now, as a PNG at ?path= (a test's artefact, or a look while debugging).
        const to = url.searchParams.get('path');
        if (!to) return send(400, { error: 'no path' });
        await page.screenshot({ path: to });
        return send(200, { path: to });
      }
      if (url.pathname === '/type') {
        // Text typed where the focus is, as a person types it (?text=).
        await page.keyboard.type(url.searchParams.get('text') ?? '', { delay: 20 });
        await new Promise((r) => setTimeout(r, 300));
        return send(200, { typed: true });
      }
      if (url.pathname === '/chat') {
        // The chat view: the text of its input (what a person would send) and whether it has focus.
        return send(200, await page.evaluate(() => {
          const input = document.querySelector('.interactive-input-part .interactive-input-editor');
          const lines = [...(input?.querySelectorAll('.view-line') ?? [])].map((l) => l.textContent ?? '');
          return {
            visible: !!input && input.offsetParent !== null,
            input: lines.join('\n'),
            focused: !!input?.contains(document.activeElement),
          };
        }));
      }
      if (url.pathname === '/notifications' && url.searchParams.has('click')) {
        // Presses a notification's button (in the notification center, opened by the caller).
        const label = url.searchParams.get('click') ?? '';
        const button = page.locator('.notifications-center .notification-list-item .monaco-button, .notifications-toasts .notification-list-item .monaco-button', { hasText: label }).first();
        const found = (await button.count()) > 0;
        if (found) await button.click();
        return send(200, { clicked: found });
      }
      if (req.url === '/notifications') {
        const toasts = await page.evaluate(() => [...document.querySelectorAll('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item')].map((el) => {
          const message = el.querySelector('.notification-list-item-message');
          return {
            text: message?.textContent ?? '',
            links: [...(message?.querySelectorAll('a') ?? [])].map((a) => ({ text: a.textContent ?? '', href: a.getAttribute('href') ?? a.getAttribute('data-href') ?? '' })),
          };
        }));
        return send(200, toasts);
      }
      return send(404, { error: `no probe ${req.url}` });
    } catch (err) {
      return send(500, { error: String(err?.message ?? err) });
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${server.address().port}`;
}

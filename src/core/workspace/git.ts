import { closeSync, fstatSync, mkdtempSync, openSync, promises as fsp, readSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckRepoActions, simpleGit } from 'simple-git';
import { programRunner, type ProgramResult } from './programRunner';
import { isNotFound } from './safeOpen';
import { l10n } from '../text/l10n';

/**
 * git's output for the listings of a large repository (a path list of 100,000 files is a
 * few megabytes); beyond this something is wrong and the call fails instead of growing.
 */
const MAX_OUTPUT = 512 * 1024 * 1024;

/**
 * Settings that keep programs a repository's own `.git/config` names from running in a
 * read-only git call of ours: `core.fsmonitor` is started by `status` and `ls-files` (a
 * cloned or downloaded repository can name any program there). Hooks, pagers and editors
 * are not run by the commands a scan uses. Workspaces that are not trusted run no git at
 * all (SelectOptions.useGit, projectName.ts); this is for trusted ones, as a second fence.
 */
export const SAFE_GIT_CONFIG = ['core.fsmonitor=false'];

/**
 * The environment git runs with: the extension host's, without the `GIT_*` variables
 * (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE` …) that an editor started from a git hook
 * or a terminal may carry and that would point git at another repository than the folder.
 */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^git_/i.test(k)) env[k] = v;
  return env;
}

let resolved: { pathVar: string; git: string | undefined } | undefined;

function isExecutableFile(p: string): boolean {
  try {
    const st = statSync(p);
    return st.isFile() && (process.platform === 'win32' || (st.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * git's executable, found on PATH by its absolute entries only. git runs with the
 * workspace folder as its working directory: an empty or relative PATH entry (`.`) would
 * find a `git` the repository ships, and on Windows the working directory is searched
 * before PATH; an absolute path leaves neither to chance. Undefined when none is found.
 */
export function gitExecutable(): string | undefined {
  const pathVar = process.env.PATH ?? process.env.Path ?? '';
  if (resolved?.pathVar === pathVar) return resolved.git;
  const names = process.platform === 'win32' ? ['git.exe'] : ['git'];
  let git: string | undefined;
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    git = names.map((n) => path.join(dir, n)).find(isExecutableFile);
    if (git) break;
  }
  resolved = { pathVar, git };
  return git;
}

/** The arguments git runs with for `args`: our safety settings first. */
function gitArgs(args: string[]): string[] {
  return [...SAFE_GIT_CONFIG.flatMap((c) => ['-c', c]), '--no-optional-locks', ...args];
}

/** A git command that failed, named by its subcommand, with git's own message. */
function gitFailed(args: string[], message: string): Error {
  return new Error(l10n.t('git {0} failed: {1}', args.find((a) => !a.startsWith('-')) ?? args[0], message));
}

function gitMissing(): Error {
  return new Error(l10n.t('git was not found on PATH (only absolute PATH entries are searched); install git or add its folder to PATH.'));
}

/**
 * Runs git in `root` and gives its standard output as bytes, for everything a scan asks
 * git (listings, branch, commit, status). Rejects when git fails, with its message.
 * --no-optional-locks: a background status/ls-files must never take the index lock away
 * from the user's own git commands.
 *
 * Started by ProgramRunner (from its helper process on Linux), not through simple-git:
 * simple-git 4 waits a further 50 ms after any command that printed nothing (`ls-files
 * --others` or `status` in a clean tree, `remote` without remotes), whatever its
 * `completion` option says; that was a quarter of the selection of a mid-sized repository,
 * and most of a re-scan's git details. It also clears `GIT_*` variables; so does this.
 */
export async function gitBytes(root: string, args: string[]): Promise<Buffer> {
  const git = gitExecutable();
  if (!git) throw gitMissing();
  if (!(await gitCouldFindRepository(root))) throw gitFailed(args, NO_REPOSITORY());
  const r = await programRunner().run(git, gitArgs(args), { cwd: root, env: gitEnv(), maxBuffer: MAX_OUTPUT });
  if (r.code !== 0 || r.error) throw gitFailed(args, r.stderr.toString('utf8').trim() || howItEnded(r));
  return r.stdout;
}

function howItEnded(r: ProgramResult): string {
  return r.error ?? (r.signal ? l10n.t('it was stopped by {0}', r.signal) : l10n.t('it exited with code {0}', r.code));
}

/**
 * As gitBytes, for a listing that may be megabytes (every tracked or untracked path): git
 * writes it to a private temporary file, read back in one buffer of its size. Read from a
 * pipe, it came in 64 KB chunks joined at the end, and the chunks' memory stayed with the
 * allocator: a 10.4 MB listing (100,000 paths) grew the process by 20-22 MB, by 11 MB this
 * way. Where no temporary file can be made, or git fails to write it, the pipe.
 */
export function gitListing(root: string, args: string[]): Promise<Buffer> {
  const git = gitExecutable();
  if (!git) return Promise.reject(gitMissing());
  // A folder known to be in reach (every scan but its first): git starts within this call,
  // before the caller's next step takes the thread (a re-scan reads its kept index then, ~20
  // ms: git's start had waited for it).
  if (inReach.has(root)) return listInto(git, root, args);
  return gitCouldFindRepository(root).then((found) => {
    if (!found) throw gitFailed(args, NO_REPOSITORY());
    return listInto(git, root, args);
  });
}

/** gitListing once git may run in `root`: synchronous up to git's start. */
async function listInto(git: string, root: string, args: string[]): Promise<Buffer> {
  let dir: string;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'code-scanner-git-'));
  } catch {
    return gitBytes(root, args);
  }
  const listing = path.join(dir, 'listing');
  let fd: number | undefined;
  try {
    fd = openSync(listing, 'wx+', 0o600);
    const { code } = await programRunner().run(git, gitArgs(args), { cwd: root, env: gitEnv(), maxBuffer: MAX_OUTPUT, stdoutPath: listing });
    // Writing to a file, git can fail for want of room (a full disk, a quota, a limit on
    // file sizes) where a pipe would do; whether that is why is not told apart from its
    // other failures (its messages are translated). Asked again through a pipe, git gives
    // the listing or its own reason, and only a failing listing pays the second run.
    if (code !== 0) return await gitBytes(root, args);
    const { size } = fstatSync(fd);
    if (size > MAX_OUTPUT) throw gitFailed(args, l10n.t('it printed more than {0} bytes', MAX_OUTPUT));
    const bytes = Buffer.allocUnsafeSlow(size);
    for (let got = 0; got < size;) {
      const read = readSync(fd, bytes, got, size - got, got);
      if (read === 0) throw new Error(l10n.t('the git listing ended early'));
      got += read;
    }
    return bytes;
  } finally {
    if (fd !== undefined) closeSync(fd);
    await fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * True when `root` lies in a git work tree (and git is installed). Asked through
 * simple-git's own check, which prints an answer either way, so its wait after a silent
 * command (see gitBytes) never applies; with the same executable as gitBytes. (`rev-parse`
 * reads no index, so no fsmonitor starts; simple-git refuses `-c core.fsmonitor` anyway.)
 */
export async function isInsideGitWorkTree(root: string): Promise<boolean> {
  const git = gitExecutable();
  if (!git || !(await gitCouldFindRepository(root))) return false;
  try {
    // The binary is our own absolute path (it may hold spaces: "C:\Program Files\Git\…").
    return await simpleGit({ baseDir: root, binary: git, unsafe: { allowUnsafeCustomBinary: true } }).checkIsRepo(CheckRepoActions.IN_TREE);
  } catch {
    return false;
  }
}

const NO_REPOSITORY = () => l10n.t('not a git repository (there is no .git in the folder or in any folder above it)');

/** Folders found to be in reach of a repository, as asked and as real paths; bounded. */
const inReach = new Set<string>();

/**
 * Whether git, started in `root`, could find a repository: a `.git` (a folder, or the file of
 * a worktree or submodule) in the folder or one above it, or one of them a repository itself
 * (HEAD, objects and refs: a bare one, or a `.git` folder). That is where git looks, up
 * from the real folder (symlinks resolved, as git sees its working directory); the
 * variables that would point it elsewhere (`GIT_DIR` …) are cleared (gitEnv). When there is
 * none, every git command fails, and is not run: a scan of a folder outside git started nine
 * git processes that all failed (each a fork of the extension host on Linux), a save three.
 * Anything that keeps a folder from being looked at counts as "could". A "could" is kept:
 * git itself decides then, so a repository deleted since costs only a failing git as before;
 * a "could not" is never kept, so `git init` counts at once.
 */
export async function gitCouldFindRepository(root: string): Promise<boolean> {
  if (inReach.has(root)) return true;
  let dir: string;
  try {
    dir = await fsp.realpath(root);
  } catch {
    return true;
  }
  if (inReach.has(dir)) return true;
  for (let at = dir; ; at = path.dirname(at)) {
    if (await couldBeRepositoryAt(at)) {
      if (inReach.size >= 256) inReach.clear();
      inReach.add(dir).add(root);
      return true;
    }
    if (path.dirname(at) === at) return false;
  }
}

/**
 * Starts git's helper process for the next git commands (ProgramRunner.prepare), unless
 * the folder is one git cannot run in. `root` undefined: a folder not known here (a resumed
 * upload's), for which it starts.
 */
export async function prepareGitHelperFor(root: string | undefined): Promise<void> {
  if (root === undefined || (await gitCouldFindRepository(root))) programRunner().prepare();
}

async function couldBeRepositoryAt(dir: string): Promise<boolean> {
  const there = (name: string) => fsp.lstat(path.join(dir, name)).then(() => true, (e: unknown) => !isNotFound(e));
  const [dotGit, head] = await Promise.all([there('.git'), there('HEAD')]);
  if (dotGit) return true;
  return head && (await there('objects')) && (await there('refs'));
}

/**
 * The folder git's `core.hooksPath` names, relative to `root`, when it lies inside it (a fix
 * must not write git hooks there); undefined otherwise or when git cannot tell.
 */
export async function gitHooksDir(root: string): Promise<string | undefined> {
  try {
    const [top, hooks] = await Promise.all([
      gitBytes(root, ['rev-parse', '--show-toplevel']).then((b) => b.toString('utf8').trim()),
      gitBytes(root, ['config', '--get', 'core.hooksPath']).then((b) => b.toString('utf8').trim()),
    ]);
    if (!hooks) return undefined;
    // A relative hooksPath is taken from the top of the work tree.
    const abs = path.resolve(top, hooks.replace(/^~(?=\/|$)/, process.env.HOME ?? '~'));
    const rel = path.relative(path.resolve(root), abs);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : undefined;
  } catch {
    return undefined;
  }
}

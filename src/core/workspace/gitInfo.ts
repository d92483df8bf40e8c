import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { gitBytes, isInsideGitWorkTree } from './git';
import { sameFile, type FileIdentity, type TrackedClean } from './trackedClean';
import type { UploadFields } from '../api/chunk';

/** What git says of a folder: the fields of an upload that name its revision, and more. */
export interface GitInfo extends Pick<UploadFields, 'branch' | 'repoUrl' | 'sha' | 'dirty'> {
  /** With GitInfoOptions.record, when the folder's tracked files were found clean: for the next scan's `since`. */
  clean?: TrackedClean;
}

export interface GitInfoOptions {
  /**
   * Whether git lists untracked, not ignored files in the folder, from a caller that finds
   * out anyway (a workspace selection walks the tree for them).
   */
  untracked?: boolean | Promise<boolean | undefined>;
  /** Also give, when the tracked files are found clean, what the next scan may start from (GitInfo.clean). */
  record?: boolean;
  /**
   * The folder's last clean reading, and the paths the selection found may have changed since
   * (pathsToRecheck; undefined when too many). With `untracked` known, and HEAD and the index
   * still what they were, git looks at those paths alone (trackedClean.ts).
   */
  since?: { clean: TrackedClean; recheck: Promise<string[] | undefined> };
}

/**
 * Branch, remote URL, HEAD commit and dirtiness of the work tree holding `root`, for the
 * scan's form parts. Undefined outside git. Each field is left out when git cannot tell
 * (detached HEAD, no remote, no commit yet) rather than guessed.
 *
 * Dirty: what `git status` shows for the folder (staged, modified, deleted or untracked
 * files in it). Told `untracked`, git looks only at the tracked files rather than walking the
 * tree a second time (babel shape: 0.04 s instead of 0.16 s), and starts before the answer
 * is in, alongside the selection. When the answer comes back unknown, dirtiness is left out.
 *
 * Few git processes: one status gives the branch, the commit and the changes as one
 * consistent reading, and `remote -v` the remotes with their URLs (as `remote get-url`
 * gives them, `insteadOf` rewrites applied); `record` and `since` add one rev-parse. A
 * re-scan reads these alongside its selection on two cores; each further process was a few
 * milliseconds of the extension host's time to start and one more program on those cores.
 */
export async function readGitInfo(root: string, o: GitInfoOptions = {}): Promise<GitInfo | undefined> {
  const remotesP = gitBytes(root, ['remote', '-v']).then((b) => b.toString('utf8'), () => '');
  // Read before any status, so that a clean status vouches for this very index.
  const where = o.record || o.since ? await headAndIndex(root) : undefined;
  const since = o.since?.clean;
  if (since && where && o.untracked !== undefined && where.sha === since.head && sameFile(where.index, since.index)) {
    const carried = await cleanSince(root, where, o.since!.recheck, o.untracked, remotesP);
    if (carried) return carried;
  }
  const untrackedFiles = o.untracked === undefined ? 'normal' : 'no';
  let status: Buffer;
  try {
    status = await gitBytes(root, ['status', '--porcelain=v2', '-z', '--branch', '--no-ahead-behind', `--untracked-files=${untrackedFiles}`, '--', '.']);
  } catch {
    // Outside git; a git older than 2.17 (no porcelain v2 with --no-ahead-behind); or a
    // repository git cannot give the status of (a damaged index): what can still be read is sent.
    if (!(await isInsideGitWorkTree(root))) return undefined;
    const [info, v1] = await Promise.all([
      fallbackInfo(root),
      gitBytes(root, ['status', '--porcelain', '-z', `--untracked-files=${untrackedFiles}`, '--', '.']).catch(() => undefined),
    ]);
    const untracked = v1 && (await o.untracked);
    if (v1 && (untracked !== undefined || o.untracked === undefined)) info.dirty = v1.length > 0 || untracked === true;
    return withRemote(info, await remotesP);
  }
  const info = withRemote(parseStatusHeaders(status), await remotesP);
  const untracked = await o.untracked;
  if (untracked !== undefined || o.untracked === undefined) info.dirty = hasChanges(status) || untracked === true;
  if (where && info.sha && !hasTrackedChanges(status)) info.clean = { head: info.sha, index: where.index };
  return info;
}

/**
 * The revision only (branch, commit, remote), for a partial scan: such a scan is dirty
 * whatever the tree holds (pipeline.ts, uploadDirty), so no `git status` walks the tree,
 * which on a large repository would be most of the time from a save to its upload.
 * Undefined outside git.
 */
export async function readRevision(root: string): Promise<GitInfo | undefined> {
  const remotesP = gitBytes(root, ['remote', '-v']).then((b) => b.toString('utf8'), () => undefined);
  const info = await fallbackInfo(root);
  const remotes = await remotesP;
  // Outside git every command fails; inside, the remote listing works even without a commit.
  if (remotes === undefined && !info.sha && !info.branch) return undefined;
  return withRemote(info, remotes ?? '');
}

/** HEAD's commit and branch, and which file the index is; undefined without a commit. */
async function headAndIndex(root: string): Promise<{ sha: string; branch?: string; index: FileIdentity } | undefined> {
  try {
    const out = (await gitBytes(root, ['rev-parse', '--git-path', 'index', 'HEAD', '--symbolic-full-name', 'HEAD'])).toString('utf8');
    const [indexPath, sha, symbolic] = out.split(/\r?\n/);
    if (!/^[0-9a-f]{40,64}$/.test(sha)) return undefined;
    const st = await fsp.stat(path.resolve(root, indexPath));
    const branch = symbolic.startsWith('refs/heads/') ? symbolic.slice('refs/heads/'.length) : undefined;
    return { sha, branch, index: { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } };
  } catch {
    return undefined;
  }
}

/**
 * The git details when HEAD and the index are those of a clean reading: git compares only
 * the paths that may have been written since. Undefined when they are too many to name.
 */
async function cleanSince(
  root: string, where: { sha: string; branch?: string; index: FileIdentity }, recheck: Promise<string[] | undefined>,
  untrackedP: boolean | Promise<boolean | undefined>, remotesP: Promise<string>,
): Promise<GitInfo | undefined> {
  const paths = await recheck;
  if (!paths) return undefined;
  let trackedDirty = false;
  if (paths.length) {
    try {
      // Literal: a file named `*.js` is that file, not a pattern.
      trackedDirty = hasChanges(await gitBytes(root, ['--literal-pathspecs', 'status', '--porcelain=v2', '-z', '--untracked-files=no', '--', ...paths]));
    } catch {
      return undefined;
    }
  }
  const info = withRemote({ ...(where.branch ? { branch: where.branch } : {}), sha: where.sha }, await remotesP);
  const untracked = await untrackedP;
  if (untracked !== undefined) info.dirty = trackedDirty || untracked;
  if (!trackedDirty) info.clean = { head: where.sha, index: where.index };
  return info;
}

/**
 * The branch and commit from porcelain v2's headers, which come before any entry (so a
 * renamed file's original path, a record of its own, is never read as one). Detached HEAD
 * and a repository without commits leave them out.
 */
function parseStatusHeaders(status: Buffer): GitInfo {
  const info: GitInfo = {};
  for (const record of status.toString('utf8').split('\0')) {
    if (!record.startsWith('# ')) break;
    const space = record.indexOf(' ', 2);
    if (space < 0) continue;
    const key = record.slice(2, space);
    const value = record.slice(space + 1);
    if (key === 'branch.oid' && /^[0-9a-f]{40,64}$/.test(value)) info.sha = value;
    if (key === 'branch.head' && value && value !== '(detached)') info.branch = value;
  }
  return info;
}

/** Whether porcelain v2 lists any entry: a change, a conflict or an untracked file. */
function hasChanges(status: Buffer): boolean {
  return status.toString('utf8').split('\0').some((record) => record.length > 0 && !record.startsWith('# '));
}

/**
 * Whether it lists a change or a conflict of a tracked file. (A renamed file's original path
 * is a record of its own that could read like one, but it only follows a rename, itself a change.)
 */
function hasTrackedChanges(status: Buffer): boolean {
  return status.toString('utf8').split('\0').some((record) => /^[12u] /.test(record));
}

/** Branch and commit asked one by one, when git gives no status. */
async function fallbackInfo(root: string): Promise<GitInfo> {
  const attempt = (args: string[]) => gitBytes(root, args).then((b) => b.toString('utf8').trim() || undefined, () => undefined);
  const [branch, sha] = await Promise.all([attempt(['symbolic-ref', '--short', '-q', 'HEAD']), attempt(['rev-parse', '--verify', '-q', 'HEAD'])]);
  return { ...(branch ? { branch } : {}), ...(sha ? { sha } : {}) };
}

/**
 * Adds the URL of `origin`, or of the first remote there is, from `git remote -v`'s lines
 * (`name<TAB>url (fetch)`; remote names hold no whitespace), credentials removed.
 */
function withRemote(info: GitInfo, remotes: string): GitInfo {
  const url = remoteUrl(remotes);
  if (url) info.repoUrl = url;
  return info;
}

/** The URL of `origin`, or of the first remote, from `git remote -v`'s text; credentials removed. */
export function remoteUrl(remotes: string): string | undefined {
  const urls = new Map<string, string>();
  for (const line of remotes.split(/\r?\n/)) {
    const m = /^([^\t]+)\t(.*) \(fetch\)$/.exec(line);
    if (m && m[2] && !urls.has(m[1])) urls.set(m[1], m[2]);
  }
  const url = urls.get('origin') ?? urls.values().next().value;
  return url ? stripCredentials(url) : undefined;
}

/**
 * Remote URLs can embed credentials (`https://user:token@host/…`, `ssh://user:secret@…`,
 * `git+https://token@…`, `…?access_token=…`). They must never reach the service or a log:
 * over http(s) the whole user part goes (a token is often the user name), elsewhere the
 * password; a query or fragment is dropped everywhere. scp-like `user:secret@host:path`
 * loses its user part.
 */
export function stripCredentials(url: string): string {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  if (u && u.host) {
    const httpLike = /^(git\+)?https?:$/.test(u.protocol);
    let changed = false;
    if (u.password) { u.password = ''; changed = true; }
    if (httpLike && u.username) { u.username = ''; changed = true; }
    if (u.search || u.hash) { u.search = ''; u.hash = ''; changed = true; }
    return changed ? u.toString() : url;
  }
  // scp-like syntax: [user@]host:path. A user part with a colon carries a password.
  const scp = /^([^@/]+)@([^:/]+):(.*)$/.exec(url);
  if (scp && scp[1].includes(':')) return `${scp[2]}:${scp[3]}`;
  return url;
}

import { gitBytes, isInsideGitWorkTree } from './git';

export interface GitInfo {
  branch?: string;
  repoUrl?: string;
  sha?: string;
  dirty?: boolean;
}

/**
 * Branch, remote URL, HEAD commit and dirtiness of the work tree holding `root`, for the
 * scan's form parts. Undefined outside git. Each field is left out when git cannot tell
 * (detached HEAD, no remote, no commit yet) rather than guessed.
 *
 * Dirty: what `git status` shows for the folder (staged, modified, deleted or untracked
 * files in it). `untracked`: whether git lists untracked, not ignored files there, from a
 * caller that finds out anyway (a workspace selection walks the tree for them): git then
 * looks only at the tracked files rather than walking the tree a second time (babel shape:
 * 0.04 s instead of 0.16 s), and can start before the answer is in, alongside the
 * selection. When the answer comes back unknown, dirtiness is left out.
 *
 * Two git processes: one status gives the branch, the commit and the changes as one
 * consistent reading, and `remote -v` the remotes with their URLs (as `remote get-url`
 * gives them, `insteadOf` rewrites applied). A re-scan reads these alongside its selection
 * on two cores; each further process was a few milliseconds of the extension host's time to
 * start and one more program competing for those cores.
 */
export async function readGitInfo(root: string, o: { untracked?: boolean | Promise<boolean | undefined> } = {}): Promise<GitInfo | undefined> {
  const untrackedFiles = o.untracked === undefined ? 'normal' : 'no';
  const statusP = gitBytes(root, ['status', '--porcelain=v2', '-z', '--branch', '--no-ahead-behind', `--untracked-files=${untrackedFiles}`, '--', '.']);
  const remotesP = gitBytes(root, ['remote', '-v']).then((b) => b.toString('utf8'), () => '');
  let status: Buffer;
  try {
    status = await statusP;
  } catch {
    // Outside git, or a repository git cannot read the status of (a damaged index):
    // then only what can still be read is sent.
    return (await isInsideGitWorkTree(root)) ? withRemote(await fallbackInfo(root), await remotesP) : undefined;
  }
  const info = withRemote(parseStatusHeaders(status), await remotesP);
  const untracked = await o.untracked;
  if (untracked !== undefined || o.untracked === undefined) info.dirty = hasChanges(status) || untracked === true;
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
  const urls = new Map<string, string>();
  for (const line of remotes.split(/\r?\n/)) {
    const m = /^([^\t]+)\t(.*) \(fetch\)$/.exec(line);
    if (m && m[2] && !urls.has(m[1])) urls.set(m[1], m[2]);
  }
  const url = urls.get('origin') ?? urls.values().next().value;
  if (url) info.repoUrl = stripCredentials(url);
  return info;
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

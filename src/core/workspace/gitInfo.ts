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
 */
export async function readGitInfo(root: string, o: { untracked?: boolean | Promise<boolean | undefined> } = {}): Promise<GitInfo | undefined> {
  if (!(await isInsideGitWorkTree(root))) return undefined;
  const attempt = async (args: string[]): Promise<string | undefined> => {
    try {
      const out = (await gitBytes(root, args)).toString('utf8').trim();
      return out || undefined;
    } catch {
      return undefined;
    }
  };
  const [branchRaw, sha, remotes, status] = await Promise.all([
    attempt(['symbolic-ref', '--short', '-q', 'HEAD']),
    attempt(['rev-parse', '--verify', '-q', 'HEAD']),
    attempt(['remote']),
    gitBytes(root, ['status', '--porcelain=v1', '-z', `--untracked-files=${o.untracked === undefined ? 'normal' : 'no'}`, '--', '.']).catch(() => undefined),
  ]);
  const info: GitInfo = {};
  if (branchRaw) info.branch = branchRaw;
  if (sha) info.sha = sha;
  const remoteNames = remotes ? remotes.split(/\r?\n/).filter(Boolean) : [];
  const remote = remoteNames.includes('origin') ? 'origin' : remoteNames[0];
  if (remote) {
    const url = await attempt(['remote', 'get-url', remote]);
    if (url) info.repoUrl = stripCredentials(url);
  }
  const untracked = await o.untracked;
  if (status !== undefined && (untracked !== undefined || o.untracked === undefined)) info.dirty = status.length > 0 || untracked === true;
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

import { gitRaw, isInsideGitWorkTree } from './git';

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
 */
export async function readGitInfo(root: string): Promise<GitInfo | undefined> {
  if (!(await isInsideGitWorkTree(root))) return undefined;
  const attempt = async (args: string[]): Promise<string | undefined> => {
    try {
      const out = (await gitRaw(root, args)).trim();
      return out || undefined;
    } catch {
      return undefined;
    }
  };
  const [branchRaw, sha, remotes, status] = await Promise.all([
    attempt(['symbolic-ref', '--short', '-q', 'HEAD']),
    attempt(['rev-parse', '--verify', '-q', 'HEAD']),
    attempt(['remote']),
    gitRaw(root, ['status', '--porcelain=v1', '-z', '--untracked-files=normal']).catch(() => undefined),
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
  if (status !== undefined) info.dirty = status.length > 0;
  return info;
}

/**
 * Remote URLs can embed credentials (https://user:token@host/...). They must never reach
 * the service or a log, so the user-info part is dropped.
 */
export function stripCredentials(url: string): string {
  try {
    const u = new URL(url);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && (u.username || u.password)) {
      u.username = '';
      u.password = '';
      return u.toString();
    }
  } catch {
    // scp-like syntax (git@host:org/repo.git) carries no secret; keep it as is.
  }
  return url;
}

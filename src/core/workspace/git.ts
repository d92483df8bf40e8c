import { simpleGit, type SimpleGit } from 'simple-git';

function gitAt(root: string): SimpleGit {
  // GIT_OPTIONAL_LOCKS=0: a status/ls-files run in the background must never take the
  // index lock away from the user's own git commands.
  return simpleGit({ baseDir: root, trimmed: false }).env({ ...process.env, GIT_OPTIONAL_LOCKS: '0' });
}

/** Runs git in `root`. Rejects when git fails with a message on stderr. */
export async function gitRaw(root: string, args: string[]): Promise<string> {
  return gitAt(root).raw(args);
}

/** True when `root` lies in a git work tree (and git is installed). */
export async function isInsideGitWorkTree(root: string): Promise<boolean> {
  try {
    return (await gitRaw(root, ['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
  } catch {
    return false;
  }
}

import { simpleGit } from 'simple-git';

/**
 * Runs git in `root`. Rejects when git fails with a message on stderr.
 * --no-optional-locks: a background status/ls-files must never take the index lock away
 * from the user's own git commands.
 */
export async function gitRaw(root: string, args: string[]): Promise<string> {
  return simpleGit({ baseDir: root, trimmed: false }).raw(['--no-optional-locks', ...args]);
}

/** True when `root` lies in a git work tree (and git is installed). */
export async function isInsideGitWorkTree(root: string): Promise<boolean> {
  try {
    return (await gitRaw(root, ['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
  } catch {
    return false;
  }
}

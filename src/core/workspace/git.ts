import { execFile } from 'node:child_process';
import { CheckRepoActions, simpleGit } from 'simple-git';

/**
 * git's output for the listings of a large repository (a path list of 100,000 files is a
 * few megabytes); beyond this something is wrong and the call fails instead of growing.
 */
const MAX_OUTPUT = 512 * 1024 * 1024;

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

/**
 * Runs git in `root` and gives its standard output as bytes, for everything a scan asks
 * git (listings, branch, commit, status). Rejects when git fails, with its message.
 * --no-optional-locks: a background status/ls-files must never take the index lock away
 * from the user's own git commands.
 *
 * Spawned directly rather than through simple-git: simple-git 4 waits a further 50 ms after
 * any command that printed nothing (`ls-files --others` or `status` in a clean tree,
 * `remote` without remotes), whatever its `completion` option says; that was a quarter of
 * the selection of a mid-sized repository, and most of a re-scan's git details. It also
 * clears `GIT_*` variables; so does this.
 */
export function gitBytes(root: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('git', ['--no-optional-locks', ...args], { cwd: root, env: gitEnv(), encoding: 'buffer', maxBuffer: MAX_OUTPUT, windowsHide: true }, (err, stdout, stderr) => {
      if (err) {
        const message = stderr.toString('utf8').trim() || err.message;
        reject(new Error(`git ${args[0]} failed: ${message}`));
      } else {
        resolve(stdout);
      }
    });
  });
}

/**
 * True when `root` lies in a git work tree (and git is installed). Asked through
 * simple-git's own check, which prints an answer either way, so its wait after a silent
 * command (see gitBytes) never applies.
 */
export async function isInsideGitWorkTree(root: string): Promise<boolean> {
  try {
    return await simpleGit({ baseDir: root }).checkIsRepo(CheckRepoActions.IN_TREE);
  } catch {
    return false;
  }
}

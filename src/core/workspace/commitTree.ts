// A commit's tracked files, written where a scan can read them, as CI checks them out: a
// shared clone of the repository (its objects borrowed, nothing of the repository changed:
// not its index, not its work tree, not its config) checked out at the commit. No hook runs
// and no filter fetches anything (large-file pointers stay pointers, as in a CI checkout
// without them); the repository's own config is not the clone's, so none of its commands run.
import * as path from 'node:path';
import { gitBytes } from './git';
import { l10n } from '../text/l10n';

/** Settings of the clone's checkout: no hooks, no large-file downloads. */
const NO_HOOKS = path.join(path.sep, 'nonexistent-hooks');
const QUIET_CHECKOUT = ['-c', 'core.hooksPath=' + NO_HOOKS, '-c', 'filter.lfs.smudge=', '-c', 'filter.lfs.process=', '-c', 'filter.lfs.required=false'];

export interface CommitTree {
  /** The commit checked out (HEAD when it was read). */
  sha: string;
  /** Where the folder's part of the commit is: `dest`, or under it when the folder is inside its repository. */
  root: string;
  /** The commit's tracked files under `root`, `/`-separated. */
  files: string[];
}

/** Writes the commit HEAD names into `dest` (which must not exist), for the folder at `gitRoot`. */
export async function checkOutHead(gitRoot: string, dest: string): Promise<CommitTree> {
  const [toplevel = '', prefix = '', sha = ''] = (await gitBytes(gitRoot, ['rev-parse', '--show-toplevel', '--show-prefix', 'HEAD'])).toString('utf8').split(/\r?\n/);
  if (!toplevel || !/^[0-9a-f]{40,64}$/.test(sha)) throw new Error(l10n.t('git names no commit for {0}', gitRoot));
  await gitBytes(gitRoot, ['clone', '--quiet', '--shared', '--no-checkout', '--', toplevel, dest]);
  await gitBytes(dest, [...QUIET_CHECKOUT, 'checkout', '--quiet', '--detach', sha]);
  const listed = (await gitBytes(dest, ['ls-files', '-z', '--full-name', '--', prefix || '.'])).toString('utf8').split('\0').filter(Boolean);
  return {
    sha,
    root: prefix ? path.join(dest, ...prefix.split('/').filter(Boolean)) : dest,
    files: listed.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length)),
  };
}

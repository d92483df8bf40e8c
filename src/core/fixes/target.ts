// Where a fix may write. The diff and its path come from the service, so a fix is only
// ever applied to a file that (1) was uploaded in the scanned archive of that folder,
// (2) is not editor, VCS, CI, git hook or agent configuration (a change there can run
// commands: git's core.fsmonitor, hooks, VS Code tasks, CI jobs, an agent's instructions and
// tools), and (3) still really lies inside the folder once
// symlinks are resolved, as a regular file.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { isInsideFolder } from '../workspace/insideFolder';
import { isInsideReal } from '../workspace/readInside';
import { l10n } from '../text/l10n';

export type TargetRefusal = 'outside-folder' | 'not-scanned' | 'protected' | 'not-a-file' | 'missing';

export type TargetCheck =
  | { ok: true; realPath: string }
  | { ok: false; reason: TargetRefusal; message: string };

/**
 * Folders whose files configure tools that run commands (version control, editors, git
 * hooks, AI agents); never written by a fix, at any depth.
 */
const PROTECTED_SEGMENTS = new Set([
  '.git', '.hg', '.svn', '.vscode', '.idea', '.devcontainer', 'node_modules',
  '.husky', '.githooks', '.claude', '.cursor', '.windsurf', '.circleci', '.buildkite',
]);

/** Paths below the folder's root whose files run in CI or steer agents. */
const PROTECTED_PREFIXES = ['.github/workflows/', '.github/actions/', '.github/instructions/', '.gitlab/'];

/** Files that make other tools run commands, or tell AI agents what to do; at any depth. */
const PROTECTED_NAMES = new Set([
  '.gitlab-ci.yml', '.travis.yml', 'azure-pipelines.yml', 'bitbucket-pipelines.yml', 'jenkinsfile',
  '.pre-commit-config.yaml', '.gitmodules', '.gitattributes', '.lfsconfig',
  '.mcp.json', '.cursorrules', '.windsurfrules', 'claude.md', 'agents.md', 'copilot-instructions.md',
]);

/**
 * True for paths a fix must never change, whatever the archive held. `hooksDir`: the folder
 * git's `core.hooksPath` names, relative to the workspace folder, when it lies inside it.
 */
export function isProtectedPath(relPath: string, hooksDir?: string): boolean {
  const normal = relPath.replace(/\\/g, '/');
  const lower = normal.toLowerCase();
  const segments = lower.split('/');
  if (segments.some((s) => PROTECTED_SEGMENTS.has(s))) return true;
  if (PROTECTED_PREFIXES.some((p) => lower.startsWith(p))) return true;
  const base = segments[segments.length - 1];
  if (PROTECTED_NAMES.has(base) || base.endsWith('.code-workspace')) return true;
  const hooks = hooksDir?.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '').toLowerCase();
  return !!hooks && (lower === hooks || lower.startsWith(`${hooks}/`));
}

/**
 * Checks that a fix for `relPath` may write `folderPath/relPath`. `inArchive` says whether
 * the path was one of the files uploaded for the scan that produced the fix.
 */
export async function checkFixTarget(folderPath: string, relPath: string, inArchive: boolean, o: { hooksDir?: string } = {}): Promise<TargetCheck> {
  if (!isInsideFolder(relPath)) {
    return { ok: false, reason: 'outside-folder', message: l10n.t('The fix changes "{0}", which is outside the workspace folder; it was not applied.', relPath) };
  }
  if (isProtectedPath(relPath, o.hooksDir)) {
    return { ok: false, reason: 'protected', message: l10n.t('The fix changes "{0}", a version-control, editor, CI, git hook, agent or dependency file that fixes never change (a change there can make tools run commands); it was not applied.', relPath) };
  }
  if (!inArchive) {
    return { ok: false, reason: 'not-scanned', message: l10n.t('The fix changes "{0}", which was not among the files uploaded for this scan; it was not applied.', relPath) };
  }
  let realRoot: string;
  let real: string;
  try {
    realRoot = await fsp.realpath(folderPath);
    real = await fsp.realpath(path.join(folderPath, ...relPath.split('/')));
  } catch {
    return { ok: false, reason: 'missing', message: l10n.t('"{0}" no longer exists; rescan to get fresh results.', relPath) };
  }
  if (!isInsideReal(realRoot, real)) {
    return { ok: false, reason: 'outside-folder', message: l10n.t('"{0}" now leads outside the workspace folder (a symbolic link); the fix was not applied.', relPath) };
  }
  const st = await fsp.stat(real).catch(() => undefined);
  if (!st?.isFile()) {
    return { ok: false, reason: 'not-a-file', message: l10n.t('"{0}" is not a regular file any more; the fix was not applied.', relPath) };
  }
  return { ok: true, realPath: real };
}

// Where a fix may write. The diff and its path come from the service, so a fix is only
// ever applied to a file that (1) was uploaded in the scanned archive of that folder,
// (2) is not editor, VCS or workspace configuration (a change there can run commands:
// git's core.fsmonitor, VS Code tasks), and (3) still really lies inside the folder once
// symlinks are resolved, as a regular file.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { isInsideFolder } from './applyFix';
import { isInsideReal } from '../workspace/readInside';

export type TargetRefusal = 'outside-folder' | 'not-scanned' | 'protected' | 'not-a-file' | 'missing';

export type TargetCheck =
  | { ok: true; realPath: string }
  | { ok: false; reason: TargetRefusal; message: string };

/** Folders whose files configure tools that run commands; never written by a fix. */
const PROTECTED_SEGMENTS = new Set(['.git', '.hg', '.svn', '.vscode', '.idea', '.devcontainer', 'node_modules']);

/** True for paths a fix must never change, whatever the archive held. */
export function isProtectedPath(relPath: string): boolean {
  const segments = relPath.replace(/\\/g, '/').split('/');
  if (segments.some((s) => PROTECTED_SEGMENTS.has(s.toLowerCase()))) return true;
  const base = segments[segments.length - 1].toLowerCase();
  return base.endsWith('.code-workspace');
}

/**
 * Checks that a fix for `relPath` may write `folderPath/relPath`. `inArchive` says whether
 * the path was one of the files uploaded for the scan that produced the fix.
 */
export async function checkFixTarget(folderPath: string, relPath: string, inArchive: boolean): Promise<TargetCheck> {
  if (!isInsideFolder(relPath)) {
    return { ok: false, reason: 'outside-folder', message: `The fix changes "${relPath}", which is outside the workspace folder; it was not applied.` };
  }
  if (isProtectedPath(relPath)) {
    return { ok: false, reason: 'protected', message: `The fix changes "${relPath}", a version-control, editor or dependency file that fixes never change; it was not applied.` };
  }
  if (!inArchive) {
    return { ok: false, reason: 'not-scanned', message: `The fix changes "${relPath}", which was not among the files uploaded for this scan; it was not applied.` };
  }
  let realRoot: string;
  let real: string;
  try {
    realRoot = await fsp.realpath(folderPath);
    real = await fsp.realpath(path.join(folderPath, ...relPath.split('/')));
  } catch {
    return { ok: false, reason: 'missing', message: `"${relPath}" no longer exists; rescan to get fresh results.` };
  }
  if (!isInsideReal(realRoot, real)) {
    return { ok: false, reason: 'outside-folder', message: `"${relPath}" now leads outside the workspace folder (a symbolic link); the fix was not applied.` };
  }
  const st = await fsp.stat(real).catch(() => undefined);
  if (!st?.isFile()) {
    return { ok: false, reason: 'not-a-file', message: `"${relPath}" is not a regular file any more; the fix was not applied.` };
  }
  return { ok: true, realPath: real };
}

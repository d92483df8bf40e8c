import { applyPatch, parsePatch } from 'diff';
import type { StructuredPatch } from 'diff';
import * as path from 'node:path';
import { isInsideFolder } from '../workspace/insideFolder';
import { l10n } from '../text/l10n';

export { isInsideFolder };

export type FixRefusal =
  | 'too-large'         // bigger than any real fix; applying it could stall the editor
  | 'unreadable'        // not a unified diff we can parse
  | 'not-one-file'      // zero or several files in one fix
  | 'creates-or-deletes'
  | 'outside-folder'
  | 'does-not-apply';

export type FixResult =
  | { ok: true; text: string }
  | { ok: false; reason: FixRefusal; message: string };

/** Limits on a fix from the service: every hunk costs a search through the file on the extension host. */
export const MAX_FIX_DIFF_CHARS = 2 * 1024 * 1024;
export const MAX_FIX_HUNKS = 200;

/** Strips git's a/ and b/ prefixes and any timestamp the header carried. */
function headerPath(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const p = name.split('\t')[0].trim();
  if (p === '/dev/null') return p;
  return p.replace(/^[ab]\//, '');
}

export interface FixTarget {
  /** Path relative to the folder root, `/`-separated. */
  relativePath: string;
  patch: StructuredPatch;
}

/**
 * Reads which file a fix patches and checks it stays inside the workspace folder it was
 * scanned from. The path comes from the service, so `..`, absolute paths and drive letters
 * are refused rather than resolved.
 */
export function readFixTarget(diffText: string): FixTarget | Exclude<FixResult, { ok: true }> {
  if (diffText.length > MAX_FIX_DIFF_CHARS) {
    return { ok: false, reason: 'too-large', message: l10n.t('The fix is {0} KB of diff, more than a suggested fix should be; it was not applied.', Math.round(diffText.length / 1024)) };
  }
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(diffText);
  } catch (e) {
    return { ok: false, reason: 'unreadable', message: l10n.t('The fix is not a readable patch ({0}).', (e as Error).message) };
  }
  patches = patches.filter((p) => p.hunks.length > 0);
  if (patches.length !== 1) {
    return {
      ok: false, reason: patches.length ? 'not-one-file' : 'unreadable',
      message: patches.length ? l10n.t('The fix changes {0} files; only single-file fixes can be applied.', patches.length) : l10n.t('The fix contains no changes.'),
    };
  }
  const patch = patches[0];
  if (patch.hunks.length > MAX_FIX_HUNKS) {
    return { ok: false, reason: 'too-large', message: l10n.t('The fix changes {0} places in one file, more than a suggested fix should; it was not applied.', patch.hunks.length) };
  }
  const oldPath = headerPath(patch.oldFileName);
  const newPath = headerPath(patch.newFileName);
  if (oldPath === '/dev/null' || newPath === '/dev/null') {
    return { ok: false, reason: 'creates-or-deletes', message: l10n.t('The fix creates or deletes a file; only edits to an existing file can be applied.') };
  }
  const target = newPath ?? oldPath;
  if (!target) return { ok: false, reason: 'unreadable', message: l10n.t('The fix does not name the file it changes.') };
  for (const p of [oldPath, newPath]) {
    if (p !== undefined && !isInsideFolder(p)) {
      return { ok: false, reason: 'outside-folder', message: l10n.t('The fix changes "{0}", which is outside the workspace folder; it was not applied.', p) };
    }
  }
  if (oldPath && newPath && path.posix.normalize(oldPath) !== path.posix.normalize(newPath)) {
    return { ok: false, reason: 'not-one-file', message: l10n.t('The fix renames "{0}" to "{1}"; only in-place edits can be applied.', oldPath, newPath) };
  }
  return { relativePath: path.posix.normalize(target.replace(/\\/g, '/')), patch };
}


/**
 * Applies a fix to the file's current text. Hunks may have moved (the user edited above
 * them): `applyPatch` searches outwards for the exact context, but never fuzzes it, so a
 * fix whose context changed is refused instead of landing in the wrong place.
 */
export function applyFixToText(currentText: string, target: FixTarget): FixResult {
  const result = applyPatch(currentText, target.patch, { fuzzFactor: 0 });
  if (result === false) {
    return {
      ok: false, reason: 'does-not-apply',
      message: l10n.t('The fix no longer applies to {0}: the code it changes was edited since the scan. Rescan to get a fresh fix.', target.relativePath),
    };
  }
  return { ok: true, text: result };
}

/** readFixTarget + applyFixToText, also checking the fix is for `expectedPath` when given. */
export function applyFix(diffText: string, currentText: string, expectedPath?: string): FixResult & { relativePath?: string } {
  const target = readFixTarget(diffText);
  if (!('patch' in target)) return target;
  if (expectedPath !== undefined && path.posix.normalize(expectedPath) !== target.relativePath) {
    return {
      ok: false, reason: 'not-one-file',
      message: l10n.t('The fix changes "{0}", not "{1}" where the issue is; it was not applied.', target.relativePath, expectedPath),
    };
  }
  return { ...applyFixToText(currentText, target), relativePath: target.relativePath };
}

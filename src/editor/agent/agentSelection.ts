// The files an agent's scan would upload, chosen exactly as the editor's scans choose them
// (the same selection, the same settings), before anything is asked or sent.
import * as vscode from 'vscode';
import { selectChangedFiles, selectGivenFiles, type Selection } from '../../core/workspace/selectFiles';
import { leaveOutBinaryContent, type ContentChecked } from '../../core/workspace/binaryContent';
import { selectForScan, selectOptions } from '../scan/fileChoice';
import { filesByFolder } from '../scan/scanTargets';
import { mapInSlices } from '../../core/async/slices';
import { l10n } from '../../core/text/l10n';

export interface PlannedUpload {
  /** The files named (a partial scan of given files), or the folders (a whole-folder scan). */
  uris: vscode.Uri[];
  /**
   * Each folder's selection, the very one the scan packages, and what packaging will make of
   * it (`uploaded`: files binary by their content left out too): what the person confirms is
   * what is uploaded.
   */
  selections: { folder: vscode.WorkspaceFolder; selection: Selection; uploaded: ContentChecked }[];
  problem?: string;
  /** Paths named that lie in no folder the call acts on. */
  outside?: string[];
}

/**
 * Most paths one call names: beyond it a whole-folder scan says more, and the person is not
 * asked to confirm a list no one can read.
 */
export const MAX_AGENT_PATHS = 5000;

async function checked(folder: vscode.WorkspaceFolder, selection: Selection): Promise<PlannedUpload['selections'][number]> {
  return { folder, selection, uploaded: await leaveOutBinaryContent(selection) };
}

export async function selectForUpload(kind: 'workspace' | 'changedFiles' | 'givenFiles', input: Record<string, unknown>, folders: readonly vscode.WorkspaceFolder[]): Promise<PlannedUpload> {
  if (!folders.length) return { uris: [], selections: [], problem: l10n.t('No folder is open in this window.') };
  if (kind === 'workspace') {
    const selections = [];
    for (const folder of folders) selections.push(await checked(folder, await selectForScan(folder)));
    return { uris: folders.map((f) => f.uri), selections };
  }
  if (kind === 'changedFiles') {
    const selections = [];
    for (const folder of folders) {
      try {
        selections.push(await checked(folder, await selectChangedFiles(folder.uri.fsPath, selectOptions(folder))));
      } catch {
        // Not a git repository: no changed files there.
      }
    }
    return { uris: folders.map((f) => f.uri), selections };
  }
  const paths = (Array.isArray(input.paths) ? input.paths : []).filter((p): p is string => typeof p === 'string' && !!p.trim());
  if (!paths.length) return { uris: [], selections: [], problem: l10n.t('name the files to scan (paths relative to the workspace folder), or set changed to scan what git reports as changed, or wholeFolder to scan every file.') };
  if (paths.length > MAX_AGENT_PATHS) return { uris: [], selections: [], problem: l10n.t('{0} paths were named; one call scans at most {1}. Scan the folder whole (wholeFolder), the changed files (changed), or fewer paths at a time.', paths.length, MAX_AGENT_PATHS) };
  // In slices: the host's thread is the editor's too, and a call may name thousands of paths.
  const uris = await mapInSlices(paths, (p) => {
    const candidates = p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) ? [vscode.Uri.file(p)] : folders.map((f) => vscode.Uri.joinPath(f.uri, ...p.split(/[\\/]/)));
    return candidates.find((u) => vscode.workspace.getWorkspaceFolder(u)) ?? candidates[0]!;
  });
  const byFolder = filesByFolder(uris, folders);
  const inFolder = (u: vscode.Uri) => { const f = vscode.workspace.getWorkspaceFolder(u); return !!f && folders.includes(f); };
  const named = uris.filter(inFolder);
  // Named but in no folder the call acts on: said, among what is left out, never dropped unsaid.
  const outside = paths.filter((_, i) => !inFolder(uris[i]!));
  if (!byFolder.size) return { uris: named, selections: [], outside, problem: l10n.t('none of those paths is inside a folder of this workspace.') };
  const selections = [];
  for (const [folder, files] of byFolder) selections.push(await checked(folder, await selectGivenFiles(folder.uri.fsPath, files, selectOptions(folder))));
  return { uris: named, selections, ...(outside.length ? { outside } : {}) };
}

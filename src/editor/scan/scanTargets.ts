// Which folders and files a scan command means: the whole folders, their changed files,
// the files open in editors, or files the caller names, each as a step of the pipeline.
import * as vscode from 'vscode';
import type { FolderScanRequest } from '../../core/scan/pipeline';
import { selectChangedFiles, selectGivenFiles, selectWorkspaceFiles } from '../../core/workspace/selectFiles';
import { selectOptions } from './uploadPreview';

/** `givenFiles`: files named by the caller (the agent's Scan Files tool), a partial scan like open files. */
export type ScanKind = 'workspace' | 'openFiles' | 'changedFiles' | 'givenFiles';

/** `partialOf`: what a partial scan's files are, in the end message ("2 issues in the 1 changed file"). */
export interface Step { folder: vscode.WorkspaceFolder; select: FolderScanRequest['select']; partial: boolean; partialOf?: string }

export const SCAN_TITLES: Record<ScanKind, string> = {
  workspace: 'Scanning the workspace',
  openFiles: 'Scanning open files',
  givenFiles: 'Scanning the chosen files',
  changedFiles: 'Scanning changed files',
};

/** The folders and files a scan command means, or why there are none (a sentence). */
export function scanSteps(kind: ScanKind, given?: readonly vscode.Uri[]): Step[] | string {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (!folders.length) return 'Open a folder to scan it.';
  const s = selectOptions;
  // A whole-folder or changed-files scan of some folders (an agent's): `given` names them.
  const chosen = (kind === 'workspace' || kind === 'changedFiles') && given?.length
    ? folders.filter((f) => given.some((u) => u.toString() === f.uri.toString()))
    : folders;
  if (kind === 'workspace') return chosen.map((folder) => ({ folder, partial: false, select: (known, watched, onCount) => selectWorkspaceFiles(folder.uri.fsPath, { ...s(folder), known, watched, onCount, statsLater: true }) }));
  if (kind === 'changedFiles') return chosen.map((folder) => ({ folder, partial: true, partialOf: 'changed file', select: () => selectChangedFiles(folder.uri.fsPath, s(folder)) }));
  const byFolder = new Map<vscode.WorkspaceFolder, string[]>();
  for (const uri of kind === 'givenFiles' ? given ?? [] : openFileUris()) {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (folder && folders.includes(folder)) byFolder.set(folder, [...(byFolder.get(folder) ?? []), uri.fsPath]);
  }
  if (!byFolder.size) return kind === 'givenFiles' ? 'None of those files is in a folder of this workspace.' : 'No files of this workspace are open in an editor.';
  return [...byFolder].map(([folder, files]) => ({ folder, partial: true, partialOf: kind === 'openFiles' ? 'open file' : 'chosen file', select: () => selectGivenFiles(folder.uri.fsPath, files, s(folder)) }));
}

/** Files shown in editor tabs (the user's notion of "open"), falling back to visible editors. */
export function openFileUris(): vscode.Uri[] {
  const seen = new Map<string, vscode.Uri>();
  const add = (u: vscode.Uri) => { if (u.scheme === 'file') seen.set(u.toString(), u); };
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText) add(tab.input.uri);
      else if (tab.input instanceof vscode.TabInputTextDiff) add(tab.input.modified);
    }
  }
  for (const e of vscode.window.visibleTextEditors) add(e.document.uri);
  return [...seen.values()];
}

// Which folders and files a scan command means: the whole folders, their changed files,
// the files open in editors, or files the caller names, each as a step of the pipeline.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FolderScanRequest } from '../../core/scan/pipeline';
import type { PartialKind } from '../../core/scan/endWords';
import { selectChangedFiles, selectGivenFiles, selectWorkspaceFiles } from '../../core/workspace/selectFiles';
import type { Selection } from '../../core/workspace/selection';
import { selectOptions } from './fileChoice';
import { l10n } from '../../core/text/l10n';

/** `givenFiles`: files named by the caller (the agent's Scan Files tool), a partial scan like open files. */
export type ScanKind = 'workspace' | 'openFiles' | 'changedFiles' | 'givenFiles';

/** `partialOf`: what a partial scan's files are, in the end message ("2 issues in the 1 changed file"). */
export interface Step { folder: vscode.WorkspaceFolder; select: FolderScanRequest['select']; partial: boolean; partialOf?: PartialKind }

/** What each partial scan's files are; a whole-folder scan is not partial. */
const PARTIAL_OF: Record<ScanKind, PartialKind | undefined> = { workspace: undefined, changedFiles: 'changed', openFiles: 'open', givenFiles: 'chosen' };

export const SCAN_TITLES: Record<ScanKind, string> = {
  get workspace() { return l10n.t('Scanning the workspace'); },
  get openFiles() { return l10n.t('Scanning open files'); },
  get givenFiles() { return l10n.t('Scanning the chosen files'); },
  get changedFiles() { return l10n.t('Scanning changed files'); },
};

/** The folders and files a scan command means, or why there are none (a sentence). */
export function scanSteps(kind: ScanKind, given?: readonly vscode.Uri[]): Step[] | string {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (!folders.length) return l10n.t('Open a folder to scan it.');
  const s = selectOptions;
  // A whole-folder or changed-files scan of some folders (an agent's): `given` names them.
  const chosen = (kind === 'workspace' || kind === 'changedFiles') && given?.length
    ? folders.filter((f) => given.some((u) => u.toString() === f.uri.toString()))
    : folders;
  if (kind === 'workspace') return chosen.map((folder) => ({ folder, partial: false, select: (known, watched, onCount) => selectWorkspaceFiles(folder.uri.fsPath, { ...s(folder), known, watched, onCount, statsLater: true }) }));
  if (kind === 'changedFiles') return chosen.map((folder) => ({ folder, partial: true, partialOf: PARTIAL_OF.changedFiles, select: () => selectChangedFiles(folder.uri.fsPath, s(folder)) }));
  const byFolder = filesByFolder(kind === 'givenFiles' ? given ?? [] : openFileUris(), folders);
  if (!byFolder.size) return kind === 'givenFiles' ? l10n.t('None of those files is in a folder of this workspace.') : l10n.t('No files of this workspace are open in an editor.');
  return [...byFolder].map(([folder, files]) => ({ folder, partial: true, partialOf: PARTIAL_OF[kind], select: () => selectGivenFiles(folder.uri.fsPath, files, s(folder)) }));
}

/**
 * Steps for saved files as scan on save and the check of applied fixes gather them: folder
 * URI to paths relative to it, each folder's own (a nested folder's file stays with the
 * folder it was saved under). Folders no longer open are left out.
 */
export function savedFileSteps(files: ReadonlyMap<string, ReadonlySet<string>>): Step[] | string {
  const steps: Step[] = [];
  for (const folder of (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file')) {
    const paths = files.get(folder.uri.toString());
    if (!paths?.size) continue;
    const root = folder.uri.fsPath;
    steps.push({ folder, partial: true, partialOf: PARTIAL_OF.givenFiles, select: () => selectGivenFiles(root, [...paths].map((p) => path.join(root, ...p.split('/'))), selectOptions(folder)) });
  }
  return steps.length ? steps : l10n.t('None of those files is in a folder of this workspace.');
}

/** Steps for selections already made (and confirmed): each packaged as it is. */
export function stepsOf(kind: ScanKind, chosen: readonly { folder: vscode.WorkspaceFolder; selection: Selection }[]): Step[] | string {
  if (!chosen.length) return l10n.t('None of those files is in a folder of this workspace.');
  const partialOf = PARTIAL_OF[kind];
  return chosen.map(({ folder, selection }) => ({ folder, partial: kind !== 'workspace', ...(partialOf ? { partialOf } : {}), select: () => Promise.resolve(selection) }));
}

/**
 * The files of `uris` by the folder of `folders` that holds them, as paths; the others are
 * dropped. Linear: an agent can name tens of thousands of paths in one call.
 */
export function filesByFolder(uris: readonly vscode.Uri[], folders: readonly vscode.WorkspaceFolder[]): Map<vscode.WorkspaceFolder, string[]> {
  const byFolder = new Map<vscode.WorkspaceFolder, string[]>();
  for (const uri of uris) {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || !folders.includes(folder)) continue;
    const files = byFolder.get(folder);
    if (files) files.push(uri.fsPath);
    else byFolder.set(folder, [uri.fsPath]);
  }
  return byFolder;
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

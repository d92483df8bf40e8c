// Which files a scan may take, as the editor sets it: the folders that can be scanned and
// each folder's selection settings. Every surface that chooses files (a scan, scan on save,
// Upload Preview, the first-scan question, the check before a push, the agent tools) takes
// them from here, so they all choose alike.
import * as vscode from 'vscode';
import { selectWorkspaceFiles, type SelectOptions, type Selection } from '../../core/workspace/selectFiles';
import { scanSettings } from '../settings';

/** The folders a scan would upload files of (local folders only, as scans). */
export function scannableFolders(): vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/**
 * The files a full scan of `folder` would upload, chosen with the folder's settings; with
 * `listIgnored`, what git ignores is listed too (the preview shows it, a scan need not know).
 */
export function selectForScan(folder: vscode.WorkspaceFolder, listIgnored = false): Promise<Selection> {
  return selectWorkspaceFiles(folder.uri.fsPath, { ...selectOptions(folder), listIgnored });
}

/**
 * The selection settings of a folder's scans (exclude globs, size limit, credential files
 * allowed). No git runs for a workspace that is not trusted: its `.git/config` can name
 * programs git starts.
 */
export function selectOptions(folder: vscode.WorkspaceFolder): SelectOptions {
  const st = scanSettings(folder);
  return { excludeGlobs: st.excludeGlobs, maxFileSizeBytes: st.maxFileSizeBytes, allowCredentialFiles: st.allowCredentialFiles, useGit: vscode.workspace.isTrusted };
}

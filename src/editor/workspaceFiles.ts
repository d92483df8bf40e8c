// A workspace folder's files as every surface names and reads them: the folder's name, a
// file's URI from its folder-relative path and back, its text as the editor sees it, and
// where a finding is in it as the editor's range.
import * as vscode from 'vscode';
import type { Range, StoredIssue } from '../core/issues';
import { readTextInside } from '../core/workspace/readInside';

/** A results folder's name as the workspace shows it (its last path segment when it left the workspace). */
export function folderNameOf(folderUri: string): string {
  const uri = vscode.Uri.parse(folderUri);
  return vscode.workspace.getWorkspaceFolder(uri)?.name ?? uri.path.split('/').pop() ?? folderUri;
}

/** A folder-relative path's URI. */
export function fileUri(folderUri: string, relPath: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.Uri.parse(folderUri), ...relPath.split('/'));
}

/** A file's path relative to its folder (the URI's own path when it is outside). */
export function relativeTo(folder: vscode.Uri, file: vscode.Uri): string {
  const base = folder.path.endsWith('/') ? folder.path : folder.path + '/';
  return file.path.startsWith(base) ? file.path.slice(base.length) : file.path;
}

/** A file's text as the editor sees it: an open editor's text wins over the disk. */
export async function readText(folderUri: string, relPath: string): Promise<string | undefined> {
  const uri = fileUri(folderUri, relPath);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  return readTextInside(vscode.Uri.parse(folderUri).fsPath, relPath);
}

/** A range of the core's as the editor's. */
export function toVsRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

/** Where a finding is now (tracked through edits), else the start of the service's line. */
export function issueRange(issue: StoredIssue): vscode.Range {
  return issue.range ? toVsRange(issue.range) : new vscode.Range(issue.line - 1, 0, issue.line - 1, 0);
}

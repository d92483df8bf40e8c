import * as vscode from 'vscode';
import { resolveBaseUrl, type Region } from '../core/api';
import { projectNameOf, type ProjectName } from '../core/workspace/projectName';

const SECTION = 'codeScanner';

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

/** Throws ClientValidationError (a user-facing message) when the custom URL is unusable. */
export function baseUrl(): string {
  const c = config();
  return resolveBaseUrl({ region: c.get<Region>('region', 'production'), customUrl: c.get<string>('customBaseUrl', '') });
}

/** The service's host (and port) as the person configured it, for questions that say where code goes. */
export function serviceHost(): string {
  try {
    return new URL(baseUrl()).host;
  } catch {
    return 'the code scanning service';
  }
}

export interface ScanSettings {
  excludeGlobs: string[];
  allowCredentialFiles: string[];
  maxFileSizeBytes: number;
  chunkSizeBytes: number;
  scanConfigs: string[];
}

const MB = 1024 * 1024;

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string' && g.trim() !== '') : [];
}

export function scanSettings(folder?: vscode.WorkspaceFolder): ScanSettings {
  const c = vscode.workspace.getConfiguration(SECTION, folder);
  return {
    excludeGlobs: stringList(c.get<unknown>('excludeGlobs')),
    // Only the user's own settings: a repository must not be able to have your keys uploaded.
    allowCredentialFiles: stringList(config().inspect<unknown>('uploadCredentialFiles')?.globalValue),
    maxFileSizeBytes: Math.round(positive(c.get<number>('maxFileSizeMB'), 10) * MB),
    chunkSizeBytes: Math.round(positive(c.get<number>('uploadChunkSizeMB'), 8) * MB),
    scanConfigs: c.get<string[]>('scanConfigs', []).map((s) => s.trim()).filter(Boolean),
  };
}

export function hideFalsePositives(): boolean {
  return config().get<boolean>('hideFalsePositives', false);
}

export function affectsConnection(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(`${SECTION}.region`) || e.affectsConfiguration(`${SECTION}.customBaseUrl`);
}

/** The project a folder's scans go to: the setting, else as the service's CLI names it (git remote, else the folder). */
export function folderProject(folder: vscode.WorkspaceFolder): Promise<ProjectName> {
  const configured = vscode.workspace.getConfiguration(SECTION, folder).get<string>('projectName', '');
  // No git process for a workspace that is not trusted: the repository could name a program git runs.
  return projectNameOf(folder.uri.fsPath, { configured: typeof configured === 'string' ? configured : '', folderName: folder.name, git: vscode.workspace.isTrusted });
}

/** "Project: payments-api" with where the name came from, for tooltips and questions. */
export function describeProject(p: ProjectName): string {
  const from = p.from === 'setting' ? 'from the codeScanner.projectName setting' : p.from === 'remote' ? 'named after the git remote' : 'named after the folder (no git remote)';
  return `Project: ${p.name} (${from})`;
}

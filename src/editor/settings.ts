import * as vscode from 'vscode';
import { resolveBaseUrl, type Region } from '../core/api';
import { projectNameOf, type ProjectName } from '../core/workspace/projectName';
import { clampSetting } from './settingBounds';
import { l10n, plural } from '../core/text/l10n';

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
    return l10n.t('the code scanning service');
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

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string' && g.trim() !== '') : [];
}

export function scanSettings(folder?: vscode.WorkspaceFolder): ScanSettings {
  const c = vscode.workspace.getConfiguration(SECTION, folder);
  return {
    excludeGlobs: stringList(c.get<unknown>('excludeGlobs')),
    // Only the user's own settings: a repository must not be able to have your keys uploaded.
    allowCredentialFiles: stringList(config().inspect<unknown>('uploadCredentialFiles')?.globalValue),
    maxFileSizeBytes: Math.round(clampSetting('maxFileSizeMB', c.get<unknown>('maxFileSizeMB')) * MB),
    chunkSizeBytes: Math.round(clampSetting('uploadChunkSizeMB', c.get<unknown>('uploadChunkSizeMB')) * MB),
    scanConfigs: c.get<string[]>('scanConfigs', []).map((s) => s.trim()).filter(Boolean),
  };
}

export function hideFalsePositives(): boolean {
  return config().get<boolean>('hideFalsePositives', false);
}

export function affectsConnection(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(`${SECTION}.region`) || e.affectsConfiguration(`${SECTION}.customBaseUrl`);
}

/** The project a folder's scans go to: the setting, else CI's `--project-name`, else as the service's CLI names it (git remote, else the folder). */
export function folderProject(folder: vscode.WorkspaceFolder): Promise<ProjectName> {
  const configured = vscode.workspace.getConfiguration(SECTION, folder).get<string>('projectName', '');
  // No git process for a workspace that is not trusted: the repository could name a program git runs.
  return projectNameOf(folder.uri.fsPath, { configured: typeof configured === 'string' ? configured : '', folderName: folder.name, git: vscode.workspace.isTrusted });
}

/** "Project: payments-api" with where the name came from, for tooltips and questions. */
export function describeProject(p: ProjectName): string {
  const from = p.from === 'setting' ? l10n.t('from the codeScanner.projectName setting')
    : p.from === 'ci' ? l10n.t('as CI\'s corgea scan command names it, {0}', p.ci ?? '')
      : p.from === 'remote' ? l10n.t('named after the git remote') : l10n.t('named after the folder (no git remote)');
  return l10n.t('Project: {0} ({1})', p.name, from);
}

/**
 * What a folder's own settings (the repository's `.vscode/settings.json`, or the workspace
 * file) change about what a scan sends or checks, in words; said wherever a scan is
 * explained, since a repository can narrow its own scan without the person noticing.
 */
export function repositorySettingNotes(folder: vscode.WorkspaceFolder): string[] {
  const c = vscode.workspace.getConfiguration(SECTION, folder);
  const fromWorkspace = <T>(key: string): T | undefined => {
    const i = c.inspect<T>(key);
    return i?.workspaceFolderValue ?? i?.workspaceValue;
  };
  const notes: string[] = [];
  const types = fromWorkspace<unknown>('scanConfigs');
  if (types !== undefined) {
    const list = stringList(types);
    notes.push(list.length ? l10n.t('the workspace\'s settings choose the scan types ({0}); others are not run', list.join(', ')) : l10n.t('the workspace\'s settings set the scan types to the service\'s default'));
  }
  const excludes = stringList(fromWorkspace<unknown>('excludeGlobs'));
  if (excludes.length) notes.push(l10n.t('the workspace\'s settings leave out {0} ({1}{2})', plural(excludes.length, l10n.t('{0} more pattern'), l10n.t('{0} more patterns')), excludes.slice(0, 3).join(', '), excludes.length > 3 ? ', …' : ''));
  const size = fromWorkspace<unknown>('maxFileSizeMB');
  if (size !== undefined) notes.push(l10n.t('the workspace\'s settings leave out files over {0} MB', clampSetting('maxFileSizeMB', size)));
  if (fromWorkspace<unknown>('scanOnSave') === 'savedFiles') notes.push(l10n.t('the workspace\'s settings turn on scan on save (you are asked before its first upload)'));
  const project = fromWorkspace<unknown>('projectName');
  if (typeof project === 'string' && project.trim()) notes.push(l10n.t('the workspace\'s settings send scans to the project {0}', project.trim()));
  return notes;
}

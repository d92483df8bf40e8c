// The service project a folder's scans go to, named as the service's command-line client
// names it (decisions.md, `project_name`), so the editor's scans land in the same project as
// the team's CI scans: the `--project-name` of CI's own `corgea scan` command where the
// repository's CI configuration gives one, else the repository name of the git remote
// (`origin` first), else the folder's name, with every character outside [A-Za-z0-9._-]
// made `_`. A setting may name another project.
import { gitBytes } from './git';
import { remoteUrl } from './gitInfo';
import { readCiGate } from './ciGateFiles';

/** Where a project name came from, for the views that show it. */
export type ProjectNameSource = 'setting' | 'ci' | 'remote' | 'folder';

export interface ProjectName {
  name: string;
  from: ProjectNameSource;
  /** The remote URL it was read from (credentials removed). */
  remote?: string;
  /** Where CI's command names it (`file:line`). */
  ci?: string;
}

/** Longest name sent; a real repository name is far shorter. */
const MAX_NAME = 200;

/** Every character outside [A-Za-z0-9._-] becomes `_` (as the service's CLI does). */
export function sanitizeProjectName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, MAX_NAME);
}

/**
 * The repository's name in a remote URL: the last path segment, `.git` removed. Reads
 * https and ssh URLs, scp-like `git@host:owner/repo.git`, and local paths (either slash).
 */
export function repositoryName(url: string): string | undefined {
  let p = url.trim();
  try {
    const u = new URL(p);
    // A Windows path `C:\repos\x` parses as a URL with the scheme `c:`.
    if (u.host || u.protocol === 'file:') p = decodeURIComponent(u.pathname);
  } catch {
    // scp-like `[user@]host:path`, or a plain path.
    const scp = /^(?:[^@/\\]+@)?[^:/\\]+:(?!\\)(.*)$/.exec(p);
    if (scp && !/^[A-Za-z]:[\\/]/.test(p)) p = scp[1];
  }
  const last = p.split(/[\\/]+/).filter(Boolean).pop() ?? '';
  const name = last.replace(/\.git$/i, '');
  return name || undefined;
}

/** The project name from a setting, CI's command, a remote URL or the folder's name, in that order. */
export function projectNameFrom(o: { configured?: string; ci?: { name: string; where: string }; remote?: string; folderName: string }): ProjectName {
  // A repository's own settings may name it: the same characters as a derived name, so
  // `../other-team/x` or markup never reaches the service or a view as it is.
  const configured = o.configured?.trim() ? sanitizeProjectName(o.configured.trim()) : '';
  if (configured) return { name: configured, from: 'setting' };
  const ci = o.ci ? sanitizeProjectName(o.ci.name.trim()) : '';
  if (ci) return { name: ci, from: 'ci', ci: o.ci!.where };
  const repo = o.remote ? repositoryName(o.remote) : undefined;
  const fromRemote = repo ? sanitizeProjectName(repo) : '';
  if (fromRemote) return { name: fromRemote, from: 'remote', remote: o.remote };
  return { name: sanitizeProjectName(o.folderName) || 'project', from: 'folder' };
}

/**
 * The folder's project name: the setting's, else CI's `--project-name` (its files read as
 * text), else from its git remotes (one `git remote -v`) unless `git: false` (an untrusted
 * workspace runs no git).
 */
export async function projectNameOf(root: string, o: { configured?: string; folderName: string; git?: boolean }): Promise<ProjectName> {
  if (o.configured?.trim()) return projectNameFrom(o);
  // CI's files are read as text: nothing in them runs, in a trusted workspace or not.
  const gate = await readCiGate(root).catch(() => undefined);
  const ci = gate?.projectName && gate.file ? { name: gate.projectName, where: `${gate.file}:${gate.line}` } : undefined;
  if (ci || o.git === false) return projectNameFrom({ ...o, ci });
  const remotes = await gitBytes(root, ['remote', '-v']).then((b) => b.toString('utf8'), () => '');
  return projectNameFrom({ ...o, remote: remoteUrl(remotes) });
}

/** The archive's name for a project (`<project_name>.zip`), always a name the service accepts. */
export function archiveNameFor(project: string): string {
  return `${sanitizeProjectName(project) || 'project'}.zip`;
}

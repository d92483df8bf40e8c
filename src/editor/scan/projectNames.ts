// The service project of each workspace folder, kept at hand for the views that show it (the
// Quality Issues view, Upload Preview, the first-scan question): read once, again when the
// setting, the folders, the workspace's trust or CI's configuration files (which may name
// it) change. A scan reads it afresh.
import * as vscode from 'vscode';
import type { ProjectName } from '../../core/workspace/projectName';
import { DisposableObject } from '../disposable';
import { folderProject } from '../settings';

export class ProjectNames extends DisposableObject {
  private names = new Map<string, ProjectName>();
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private reading: Promise<void> = Promise.resolve();

  constructor() {
    super();
    this.own(vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('codeScanner.projectName')) void this.refresh(); }));
    this.own(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.refresh()));
    this.own(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refresh()));
    const ci = this.own(vscode.workspace.createFileSystemWatcher('**/{.github/workflows/*.yml,.github/workflows/*.yaml,.gitlab-ci.yml,azure-pipelines.yml,bitbucket-pipelines.yml,.circleci/config.yml,Jenkinsfile}'));
    for (const on of [ci.onDidChange, ci.onDidCreate, ci.onDidDelete]) this.own(on(() => void this.refresh()));
    void this.refresh();
  }

  /** Reads every folder's project again; resolves once done. */
  refresh(): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    this.reading = Promise.all(folders.map(async (f) => [f.uri.toString(), await folderProject(f)] as const))
      .then((pairs) => {
        this.names = new Map(pairs);
        this.changed.fire();
      }, () => undefined);
    return this.reading;
  }

  /** Once the first reading is in. */
  get ready(): Promise<void> {
    return this.reading;
  }

  of(folderUri: string): ProjectName | undefined {
    return this.names.get(folderUri);
  }

  /** What a scan just read afresh (a remote added since shows at once). */
  set(folderUri: string, name: ProjectName): void {
    const was = this.names.get(folderUri);
    this.names.set(folderUri, name);
    if (JSON.stringify(was) !== JSON.stringify(name)) this.changed.fire();
  }
}

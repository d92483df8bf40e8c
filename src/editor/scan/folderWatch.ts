// What VS Code's file watcher sees in each workspace folder, kept per folder in a
// ChangeJournal (core/workspace/changeJournal.ts), so a re-scan looks again only at what
// changed. VS Code already watches every workspace folder recursively; this subscribes to it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChangeJournal, patternsHidingFiles } from '../../core/workspace/changeJournal';
import { DisposableObject } from '../disposable';
import { l10n } from '../../core/text/l10n';

export class FolderWatch extends DisposableObject {
  private readonly journals = new Map<string, ChangeJournal>();

  constructor() {
    super();
    const watcher = this.own(vscode.workspace.createFileSystemWatcher('**/*'));
    const seen = (uri: vscode.Uri) => this.note(uri);
    this.own(watcher.onDidCreate(seen));
    this.own(watcher.onDidChange(seen));
    this.own(watcher.onDidDelete(seen));
    // A save through the editor is known at once; the watcher's event follows later.
    this.own(vscode.workspace.onDidSaveTextDocument((d) => this.note(d.uri)));
    this.own(vscode.workspace.onDidChangeWorkspaceFolders((e) => {
      for (const f of e.removed) this.journals.delete(f.uri.toString());
    }));
    this.own(vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('files.watcherExclude')) return;
      for (const f of vscode.workspace.workspaceFolders ?? []) this.judge(f, this.journals.get(f.uri.toString()));
    }));
  }

  /** The folder's journal, from the first time a scan asks (events before that matter to no scan). */
  journalOf(folderUri: string): ChangeJournal | undefined {
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.toString() === folderUri);
    if (!folder || folder.uri.scheme !== 'file') return undefined;
    let journal = this.journals.get(folderUri);
    if (!journal) {
      journal = new ChangeJournal();
      this.judge(folder, journal);
      this.journals.set(folderUri, journal);
    }
    return journal;
  }

  /** A journal is trusted only while no setting hides files of the folder from the watcher. */
  private judge(folder: vscode.WorkspaceFolder, journal: ChangeJournal | undefined): void {
    if (!journal) return;
    const hidden = patternsHidingFiles(vscode.workspace.getConfiguration('files', folder.uri).get('watcherExclude'));
    if (hidden.length) journal.disable(l10n.t('files.watcherExclude hides {0}{1} from VS Code\'s file watcher', hidden.slice(0, 3).join(', '), hidden.length > 3 ? l10n.t(' and more') : ''));
    else journal.enable();
  }

  private note(uri: vscode.Uri): void {
    if (uri.scheme !== 'file' || !this.journals.size) return;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const journal = folder && this.journals.get(folder.uri.toString());
    if (!journal) return;
    const rel = path.relative(folder.uri.fsPath, uri.fsPath);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return;
    journal.note(rel.split(path.sep).join('/'));
  }
}

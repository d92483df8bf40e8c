// Every route by which a file's text can change back: an edit in the editor (Undo, Revert
// File, a formatter), a document closed without saving (its text is the disk's again), a
// write outside the editor (git checkout, another tool), a file created again, a reload.
// Each sends the file to the store, which brings back the findings whose fix or deleted
// code is no longer gone (src/core/results/leftFindings.ts).
import * as vscode from 'vscode';
import { DisposableObject } from '../disposable';
import { l10n, plural } from '../../core/text/l10n';

/** Typing in a file with findings that left is looked at once it pauses this long. */
const SETTLE_MS = 150;

export interface ReturningStore {
  /** The folder and path of a file, when it is in a folder with findings that left through some file. */
  leftFileOf(uri: vscode.Uri): { folderUri: string; path: string } | undefined;
  /** Every folder with findings that left, for a look at all of them. */
  foldersWithLeft(): string[];
  revisit(folderUri: string, paths?: string[]): Promise<number>;
}

export class ReturningFindings extends DisposableObject {
  private readonly due = new Map<string, { folderUri: string; paths: Set<string> }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: ReturningStore, private readonly log: (line: string) => void) {
    super();
    this.own(vscode.workspace.onDidChangeTextDocument((e) => { if (e.contentChanges.length) this.note(e.document.uri); }));
    // Closed without saving: the disk's text is the file's text again.
    this.own(vscode.workspace.onDidCloseTextDocument((d) => this.note(d.uri, true)));
    const watcher = this.own(vscode.workspace.createFileSystemWatcher('**/*', false, false, true));
    this.own(watcher.onDidChange((uri) => this.note(uri)));
    this.own(watcher.onDidCreate((uri) => this.noteCreated(uri)));
    this.own({ dispose: () => clearTimeout(this.timer) });
  }

  /** Looks at every file through which findings left (after loading them: a reload keeps a fix only while its file has it). */
  async revisitAll(): Promise<void> {
    for (const folderUri of this.store.foldersWithLeft()) await this.revisit(folderUri);
  }

  private note(uri: vscode.Uri, now = false): void {
    if (uri.scheme !== 'file') return;
    const at = this.store.leftFileOf(uri);
    if (!at) return;
    let entry = this.due.get(at.folderUri);
    if (!entry) this.due.set(at.folderUri, (entry = { folderUri: at.folderUri, paths: new Set() }));
    entry.paths.add(at.path);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), now ? 0 : SETTLE_MS);
  }

  /** A created folder (a checkout of a deleted one) may hold many files: every file of its folder is looked at. */
  private noteCreated(uri: vscode.Uri): void {
    if (this.store.leftFileOf(uri)) return this.note(uri);
    for (const folderUri of this.store.foldersWithLeft()) {
      if (vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() === folderUri) void this.revisit(folderUri);
    }
  }

  private async flush(): Promise<void> {
    const due = [...this.due.values()];
    this.due.clear();
    for (const { folderUri, paths } of due) await this.revisit(folderUri, [...paths]);
  }

  private async revisit(folderUri: string, paths?: string[]): Promise<void> {
    try {
      const n = await this.store.revisit(folderUri, paths);
      if (n) this.log(l10n.t('Findings came back in {0} whose fix or deleted code is no longer there.', plural(n, l10n.t('{0} file'), l10n.t('{0} files'))));
    } catch (e) {
      this.log(l10n.t('Could not look again at files whose findings left: {0}', e instanceof Error ? e.message : String(e)));
    }
  }
}

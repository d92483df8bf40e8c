import * as vscode from 'vscode';
import { isInsideFolder } from '../core/fixes';
import { rangeForLine, trackRangeThrough, type StoredIssue } from '../core/issues';
import type { ScanRef } from '../core/scan/pipeline';
import type { IssueRef } from './commands/args';
import { CONTEXT_KEYS } from './commands/contextKeys';
import { setContext } from './commands/manager';
import { DisposableObject } from './disposable';
import { readTextInside } from '../core/workspace/readInside';

export type { ScanRef } from '../core/scan/pipeline';
export type { IssueRef } from './commands/args';

interface FolderResults {
  folderUri: string;
  scans: ScanRef[];
  issues: StoredIssue[];
  /** Findings of these scans the service sent in a shape that could not be read (left out, logged). */
  unreadable?: number;
}

interface Persisted { version: 1; folders: FolderResults[]; classificationFilter?: string }

export interface LocatedIssue { folderUri: string; uri: vscode.Uri; issue: StoredIssue }

const STATE_KEY = 'codeScanner.results';
/** Overlays kept per folder before the oldest partial scans are folded away. */
const MAX_SCANS_PER_FOLDER = 20;

export function fileUri(folderUri: string, relPath: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.Uri.parse(folderUri), ...relPath.split('/'));
}

/**
 * The one place findings live. The tree, diagnostics and code actions read from here and
 * never write back except through these methods; everything is persisted per workspace.
 */
export class ResultsStore extends DisposableObject {
  private folders = new Map<string, FolderResults>();
  private filter: string | undefined;
  private readonly changed = this.own(new vscode.EventEmitter<{ uris?: vscode.Uri[] }>());
  /** `uris` lists the files whose findings changed; undefined means anything may have. */
  readonly onDidChange = this.changed.event;
  private persistTimer: NodeJS.Timeout | undefined;
  private located: LocatedIssue[] | undefined;

  constructor(private readonly state: vscode.Memento) {
    super();
    const saved = state.get<Persisted>(STATE_KEY);
    if (saved?.version === 1) {
      for (const f of saved.folders) this.folders.set(f.folderUri, f);
      this.filter = saved.classificationFilter;
    }
    // Deletions made outside the editor too (git checkout, a terminal): a watcher, not onDidDeleteFiles.
    const deletions = this.own(vscode.workspace.createFileSystemWatcher('**/*', true, true, false));
    this.own(deletions.onDidDelete((uri) => this.dropFiles([uri])));
    this.own(vscode.workspace.onDidChangeTextDocument((e) => this.followEdits(e)));
    void this.updateContext();
  }

  get classificationFilter(): string | undefined {
    return this.filter;
  }

  async setClassificationFilter(value: string | undefined): Promise<void> {
    this.filter = value?.trim() || undefined;
    this.schedulePersist();
  }

  /** How many findings of the stored scans could not be read (left out of every view). */
  unreadableCount(): number {
    return [...this.folders.values()].reduce((n, f) => n + (f.unreadable ?? 0), 0);
  }

  hasResults(): boolean {
    return [...this.folders.values()].some((f) => f.scans.length > 0);
  }

  scansOf(folderUri: string): ScanRef[] {
    return this.folders.get(folderUri)?.scans ?? [];
  }

  foldersWithResults(): string[] {
    return [...this.folders.values()].filter((f) => f.scans.length).map((f) => f.folderUri);
  }

  /** Archive digests of every recorded scan (their file lists must be kept). */
  archiveDigests(): string[] {
    return [...this.folders.values()].flatMap((f) => f.scans.map((s) => s.archiveSha256).filter((d): d is string => !!d));
  }

  /** Every finding with its file's URI; cached until the next change (readers call it per keystroke). */
  all(): LocatedIssue[] {
    if (!this.located) {
      this.located = [];
      for (const f of this.folders.values()) {
        for (const issue of f.issues) this.located.push({ folderUri: f.folderUri, uri: fileUri(f.folderUri, issue.path), issue });
      }
    }
    return this.located;
  }

  forFile(uri: vscode.Uri): LocatedIssue[] {
    const key = uri.toString();
    return this.all().filter((l) => l.uri.toString() === key);
  }

  get(ref: IssueRef): LocatedIssue | undefined {
    const f = this.folders.get(ref.folderUri);
    const issue = f?.issues.find((i) => i.id === ref.issueId);
    return f && issue ? { folderUri: f.folderUri, uri: fileUri(f.folderUri, issue.path), issue } : undefined;
  }

  /**
   * Records a scan's findings. A full scan replaces the folder's findings; a partial scan
   * replaces only those of the files it covered. `archived` lists the files the scan
   * uploaded (only their findings may be fixed).
   */
  async recordScan(folderUri: string, scan: ScanRef, issues: StoredIssue[], archived: ReadonlySet<string> | undefined, unreadable = 0): Promise<void> {
    const prev = this.folders.get(folderUri);
    let scans: ScanRef[];
    let kept: StoredIssue[];
    if (!scan.partialFiles || !prev) {
      scans = [scan];
      kept = [];
    } else {
      const covered = new Set(scan.partialFiles);
      scans = [...prev.scans.filter((s) => s.scanId !== scan.scanId), scan].slice(-MAX_SCANS_PER_FOLDER);
      kept = prev.issues.filter((i) => !covered.has(i.path));
    }
    const located = await locate(folderUri, markArchived(issues, archived));
    const stillUnreadable = scan.partialFiles && prev ? (prev.unreadable ?? 0) : 0;
    this.folders.set(folderUri, { folderUri, scans, issues: [...kept, ...located], unreadable: stillUnreadable + unreadable });
    this.fireAll();
  }

  /** Replaces findings after Refresh Results re-fetched every scan of a folder, oldest first. */
  async replaceFolder(folderUri: string, perScan: { scan: ScanRef; issues: StoredIssue[]; archived: ReadonlySet<string> | undefined; unreadable?: number }[]): Promise<void> {
    let issues: StoredIssue[] = [];
    for (const { scan, issues: found, archived } of perScan) {
      if (scan.partialFiles) {
        const covered = new Set(scan.partialFiles);
        issues = issues.filter((i) => !covered.has(i.path));
      } else {
        issues = [];
      }
      issues.push(...markArchived(found, archived));
    }
    // Findings the refresh brings back keep the range they were tracked to since the scan.
    const tracked = new Map((this.folders.get(folderUri)?.issues ?? []).map((i) => [i.id, i]));
    issues = issues.map((i) => ({ ...i, range: tracked.get(i.id)?.range, lineText: tracked.get(i.id)?.lineText }));
    const unreadable = perScan.reduce((n, p) => n + (p.unreadable ?? 0), 0);
    this.folders.set(folderUri, { folderUri, scans: perScan.map((p) => p.scan), issues: await locate(folderUri, issues), unreadable });
    this.fireAll();
  }

  /** Takes a finding out of view, e.g. once its fix was applied. */
  remove(refs: IssueRef[]): void {
    const uris: vscode.Uri[] = [];
    for (const ref of refs) {
      const f = this.folders.get(ref.folderUri);
      const i = f?.issues.findIndex((x) => x.id === ref.issueId) ?? -1;
      if (f && i >= 0) {
        uris.push(fileUri(f.folderUri, f.issues[i].path));
        f.issues.splice(i, 1);
      }
    }
    if (uris.length) this.fire(uris);
  }

  clear(): void {
    this.folders.clear();
    this.fireAll();
  }

  private followEdits(e: vscode.TextDocumentChangeEvent): void {
    if (!e.contentChanges.length || e.document.uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(e.document.uri);
    const f = folder && this.folders.get(folder.uri.toString());
    if (!f) return;
    const relPath = relativeTo(folder!.uri, e.document.uri);
    let touched = false;
    f.issues = f.issues.filter((issue) => {
      if (issue.path !== relPath || !issue.range) return true;
      const next = trackRangeThrough(issue.range, e.contentChanges, issue.lineText);
      touched = true;
      if (!next) return false;
      issue.range = next;
      return true;
    });
    if (touched) this.fire([e.document.uri]);
  }

  private dropFiles(uris: readonly vscode.Uri[]): void {
    let any = false;
    for (const f of this.folders.values()) {
      const before = f.issues.length;
      f.issues = f.issues.filter((i) => {
        const u = fileUri(f.folderUri, i.path).toString();
        return !uris.some((d) => u === d.toString() || u.startsWith(d.toString() + '/'));
      });
      any ||= f.issues.length !== before;
    }
    if (any) this.fireAll();
  }

  private fire(uris: vscode.Uri[]): void {
    this.located = undefined;
    this.changed.fire({ uris });
    this.schedulePersist();
  }

  private fireAll(): void {
    this.located = undefined;
    this.changed.fire({});
    void this.updateContext();
    this.schedulePersist();
  }

  private updateContext(): Thenable<unknown> {
    return setContext(CONTEXT_KEYS.hasResults, this.hasResults());
  }

  private schedulePersist(): void {
    // Typing moves ranges on every keystroke; write the state at most twice a second.
    if (this.persistTimer) return;
    this.persistTimer = setTimeout(() => { this.persistTimer = undefined; void this.persist(); }, 500);
  }

  persist(): Thenable<void> {
    const data: Persisted = { version: 1, folders: [...this.folders.values()], classificationFilter: this.filter };
    return this.state.update(STATE_KEY, data);
  }

  override dispose(): void {
    if (this.persistTimer) { clearTimeout(this.persistTimer); this.persistTimer = undefined; void this.persist(); }
    super.dispose();
  }
}

function markArchived(issues: StoredIssue[], archived: ReadonlySet<string> | undefined): StoredIssue[] {
  return issues.map((i) => ({ ...i, inArchive: !!archived?.has(i.path) }));
}

function relativeTo(folder: vscode.Uri, file: vscode.Uri): string {
  const base = folder.path.endsWith('/') ? folder.path : folder.path + '/';
  return file.path.startsWith(base) ? file.path.slice(base.length) : file.path;
}

/**
 * Gives each finding a range in the file as it is now (an open editor's text wins over the
 * disk) and drops findings whose file no longer exists or lies outside the folder.
 */
async function locate(folderUri: string, issues: StoredIssue[]): Promise<StoredIssue[]> {
  const texts = new Map<string, string | undefined>();
  const lines = new Map<string, string[]>();
  const out: StoredIssue[] = [];
  for (const issue of issues) {
    // The path comes from the service: never follow one out of the scanned folder.
    if (!isInsideFolder(issue.path)) continue;
    if (!texts.has(issue.path)) texts.set(issue.path, await readText(folderUri, issue.path));
    const text = texts.get(issue.path);
    if (text === undefined) continue;
    const range = issue.range ?? rangeForLine(text, issue.line);
    if (!lines.has(issue.path)) lines.set(issue.path, text.split(/\r\n|\r|\n/));
    // Remembered so the finding survives edits that rewrite its line unchanged (revert, formatter).
    out.push({ ...issue, range, lineText: issue.lineText ?? lines.get(issue.path)![range.start.line] ?? '' });
  }
  return out;
}

async function readText(folderUri: string, relPath: string): Promise<string | undefined> {
  const uri = fileUri(folderUri, relPath);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  return readTextInside(vscode.Uri.parse(folderUri).fsPath, relPath);
}

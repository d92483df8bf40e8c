import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { isInsideFolder } from '../core/fixes';
import { rangeForLine, trackRangeThrough, type StoredIssue } from '../core/issues';
import type { ScanRef } from '../core/scan/pipeline';
import { readTextInside } from '../core/workspace/readInside';
import type { IssueRef } from './commands/args';
import { CONTEXT_KEYS } from './commands/contextKeys';
import { setContext } from './commands/manager';
import { DisposableObject } from './disposable';

export type { ScanRef } from '../core/scan/pipeline';
export type { IssueRef } from './commands/args';

/** Why a finding was set aside locally; the service has no operation for this. */
export type DismissReason = 'false-positive' | 'accepted-risk' | 'wont-fix';

export interface Dismissal { reason: DismissReason; at: string }

interface FolderResults {
  folderUri: string;
  scans: ScanRef[];
  issues: StoredIssue[];
  /** Findings of these scans the service sent in a shape that could not be read (left out, logged). */
  unreadable?: number;
  /**
   * Findings that left this editor since their scan (fix applied, line or file deleted):
   * a refresh of the same scans does not bring them back; a new scan of their file does.
   */
  gone?: string[];
  /** Digest of each file's text when its findings were placed; tells whether a refresh can trust the service's lines. */
  fileDigests?: Record<string, string>;
  /** Who recorded these results (company and user), so another account's sign-in does not show them. */
  account?: string;
}

interface Persisted {
  version: 1;
  folders: FolderResults[];
  classificationFilter?: string;
  /** Local dismissals, by finding fingerprint (survives rescans, which give findings new ids). */
  dismissals?: Record<string, Dismissal>;
}

export interface LocatedIssue { folderUri: string; uri: vscode.Uri; issue: StoredIssue }

const STATE_KEY = 'codeScanner.results';
/** Overlays kept per folder before the oldest partial scans are folded away. */
const MAX_SCANS_PER_FOLDER = 20;

export function fileUri(folderUri: string, relPath: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.Uri.parse(folderUri), ...relPath.split('/'));
}

function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** Identifies a finding across scans: its file, classification and the code on its line. */
export function fingerprint(issue: StoredIssue): string {
  const code = (issue.lineText ?? '').replace(/\s+/g, ' ').trim();
  return code ? `${issue.path}\n${issue.classificationId}\n${code}` : `id:${issue.id}`;
}

/**
 * The one place findings live. The tree, diagnostics and code actions read from here and
 * never write back except through these methods; everything is persisted per workspace.
 */
export class ResultsStore extends DisposableObject {
  private folders = new Map<string, FolderResults>();
  /** Per folder: relative path -> its findings (the same objects as in FolderResults.issues). */
  private byFile = new Map<string, Map<string, StoredIssue[]>>();
  private dismissals = new Map<string, Dismissal>();
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
      for (const f of saved.folders) this.setFolder(f);
      this.filter = saved.classificationFilter;
      for (const [k, d] of Object.entries(saved.dismissals ?? {})) this.dismissals.set(k, d);
    }
    // Deletions made outside the editor too (git checkout, a terminal): a watcher, not onDidDeleteFiles.
    const deletions = this.own(vscode.workspace.createFileSystemWatcher('**/*', true, true, false));
    this.own(deletions.onDidDelete((uri) => this.dropFiles([uri])));
    this.own(vscode.workspace.onDidChangeTextDocument((e) => this.followEdits(e)));
    void this.updateContext();
  }

  private setFolder(f: FolderResults): void {
    this.folders.set(f.folderUri, f);
    const index = new Map<string, StoredIssue[]>();
    for (const issue of f.issues) {
      const list = index.get(issue.path);
      if (list) list.push(issue);
      else index.set(issue.path, [issue]);
    }
    this.byFile.set(f.folderUri, index);
  }

  get classificationFilter(): string | undefined {
    return this.filter;
  }

  /** A view filter: the tree narrows to it; Problems and counts keep every finding. */
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

  /** The account that recorded the stored results, if known. */
  accounts(): Set<string> {
    return new Set([...this.folders.values()].map((f) => f.account).filter((a): a is string => !!a));
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

  /** The findings of one file, from the per-file index. */
  forFile(uri: vscode.Uri): LocatedIssue[] {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return [];
    const folderUri = folder.uri.toString();
    const list = this.byFile.get(folderUri)?.get(relativeTo(folder.uri, uri));
    return list ? list.map((issue) => ({ folderUri, uri, issue })) : [];
  }

  get(ref: IssueRef): LocatedIssue | undefined {
    const f = this.folders.get(ref.folderUri);
    const issue = f?.issues.find((i) => i.id === ref.issueId);
    return f && issue ? { folderUri: f.folderUri, uri: fileUri(f.folderUri, issue.path), issue } : undefined;
  }

  // ---- what the editor shows

  dismissalOf(issue: StoredIssue): Dismissal | undefined {
    return this.dismissals.get(fingerprint(issue)) ?? this.dismissals.get(`id:${issue.id}`);
  }

  /**
   * Whether a finding is in Problems, squiggles and every count: placed at a line, not
   * dismissed here, and not a likely false positive when those are hidden.
   */
  isShown(issue: StoredIssue, hideFalsePositives: boolean): boolean {
    return !issue.stale && !!issue.range && !(hideFalsePositives && issue.falsePositive) && !this.dismissalOf(issue);
  }

  /** The number every count shows (status bar, view badge, Problems). */
  shownCount(hideFalsePositives: boolean): number {
    let n = 0;
    for (const l of this.all()) if (this.isShown(l.issue, hideFalsePositives)) n++;
    return n;
  }

  async dismiss(refs: IssueRef[], reason: DismissReason): Promise<number> {
    const uris: vscode.Uri[] = [];
    for (const ref of refs) {
      const l = this.get(ref);
      if (!l) continue;
      this.dismissals.set(fingerprint(l.issue), { reason, at: new Date().toISOString() });
      uris.push(l.uri);
    }
    if (uris.length) this.fire(uris);
    return uris.length;
  }

  async restoreDismissed(refs: IssueRef[]): Promise<number> {
    const uris: vscode.Uri[] = [];
    for (const ref of refs) {
      const l = this.get(ref);
      if (!l) continue;
      if (this.dismissals.delete(fingerprint(l.issue)) || this.dismissals.delete(`id:${l.issue.id}`)) uris.push(l.uri);
    }
    if (uris.length) this.fire(uris);
    return uris.length;
  }

  // ---- recording and refreshing

  /**
   * Records a scan's findings. A full scan replaces the folder's findings; a partial scan
   * replaces only those of the files it covered. `archived` lists the files the scan
   * uploaded (only their findings may be fixed).
   */
  async recordScan(folderUri: string, scan: ScanRef, issues: StoredIssue[], archived: ReadonlySet<string> | undefined, unreadable = 0, account?: string): Promise<void> {
    const prev = this.folders.get(folderUri);
    let scans: ScanRef[];
    let kept: StoredIssue[];
    let gone: string[];
    let fileDigests: Record<string, string>;
    if (!scan.partialFiles || !prev) {
      scans = [scan];
      kept = [];
      gone = [];
      fileDigests = {};
    } else {
      const covered = new Set(scan.partialFiles);
      scans = [...prev.scans.filter((s) => s.scanId !== scan.scanId), scan].slice(-MAX_SCANS_PER_FOLDER);
      kept = prev.issues.filter((i) => !covered.has(i.path));
      // The new scan speaks for its files: what it reports there is current again.
      const coveredIds = new Set(prev.issues.filter((i) => covered.has(i.path)).map((i) => i.id));
      gone = (prev.gone ?? []).filter((id) => !coveredIds.has(id));
      fileDigests = Object.fromEntries(Object.entries(prev.fileDigests ?? {}).filter(([p]) => !covered.has(p)));
    }
    const placed = await place(folderUri, markArchived(issues, archived), { trustLines: () => true, digests: fileDigests });
    const stillUnreadable = scan.partialFiles && prev ? (prev.unreadable ?? 0) : 0;
    this.setFolder({
      folderUri, scans, issues: [...kept, ...placed], unreadable: stillUnreadable + unreadable, gone, fileDigests,
      account: account ?? prev?.account,
    });
    this.fireAll();
  }

  /**
   * Replaces findings after Refresh Results re-fetched every scan of a folder, oldest
   * first. Findings the editor already tracks keep their place; those that left it (fix
   * applied, line deleted) stay out; others are placed at the service's line only when
   * their file is unchanged since the scan, and are marked stale otherwise.
   */
  async replaceFolder(folderUri: string, perScan: { scan: ScanRef; issues: StoredIssue[]; archived: ReadonlySet<string> | undefined; unreadable?: number }[]): Promise<void> {
    const prev = this.folders.get(folderUri);
    const gone = new Set(prev?.gone ?? []);
    let issues: StoredIssue[] = [];
    for (const { scan, issues: found, archived } of perScan) {
      if (scan.partialFiles) {
        const covered = new Set(scan.partialFiles);
        issues = issues.filter((i) => !covered.has(i.path));
      } else {
        issues = [];
      }
      issues.push(...markArchived(found.filter((i) => !gone.has(i.id)), archived));
    }
    const tracked = new Map((prev?.issues ?? []).map((i) => [i.id, i]));
    issues = issues.map((i) => {
      const t = tracked.get(i.id);
      return t?.range && !t.stale ? { ...i, range: t.range, lineText: t.lineText } : i;
    });
    const digests = prev?.fileDigests ?? {};
    const unreadable = perScan.reduce((n, p) => n + (p.unreadable ?? 0), 0);
    const placed = await place(folderUri, issues, {
      trustLines: (relPath, text) => digests[relPath] === undefined || digests[relPath] === digest(text),
      digests: { ...digests },
    });
    this.setFolder({ ...prev, folderUri, scans: perScan.map((p) => p.scan), issues: placed, unreadable, gone: [...gone], fileDigests: prev?.fileDigests });
    this.fireAll();
  }

  /**
   * Takes findings out of view because their code was fixed, and returns them (with their
   * current places) so an undo can bring them back exactly.
   */
  takeOut(refs: IssueRef[]): LocatedIssue[] {
    const out: LocatedIssue[] = [];
    for (const ref of refs) {
      const f = this.folders.get(ref.folderUri);
      const issue = f?.issues.find((x) => x.id === ref.issueId);
      if (!f || !issue) continue;
      this.forget(f, [issue]);
      out.push({ folderUri: f.folderUri, uri: fileUri(f.folderUri, issue.path), issue: structuredClone(issue) });
    }
    if (out.length) this.fire(out.map((l) => l.uri));
    return out;
  }

  /**
   * Puts findings taken out by takeOut back (an undo of their fix). Only while they are
   * still "gone": a scan since then speaks for the file, and an old copy would be a ghost.
   */
  putBack(located: LocatedIssue[]): void {
    const uris: vscode.Uri[] = [];
    for (const l of located) {
      const f = this.folders.get(l.folderUri);
      if (!f || !f.gone?.includes(l.issue.id) || f.issues.some((i) => i.id === l.issue.id)) continue;
      const issue = structuredClone(l.issue);
      f.issues.push(issue);
      f.gone = (f.gone ?? []).filter((id) => id !== issue.id);
      const index = this.byFile.get(f.folderUri)!;
      const list = index.get(issue.path);
      if (list) list.push(issue);
      else index.set(issue.path, [issue]);
      uris.push(l.uri);
    }
    if (uris.length) this.fire(uris);
  }

  /** Forgets one scan and the findings it brought (a scan the user chose to ignore). */
  forgetScan(scanId: string): void {
    for (const f of this.folders.values()) {
      const scan = f.scans.find((s) => s.scanId === scanId);
      if (!scan) continue;
      const rest = f.scans.filter((s) => s !== scan);
      if (!scan.partialFiles || !rest.length) {
        this.folders.delete(f.folderUri);
        this.byFile.delete(f.folderUri);
      } else {
        const covered = new Set(scan.partialFiles);
        this.setFolder({ ...f, scans: rest, issues: f.issues.filter((i) => !covered.has(i.path)) });
      }
      this.fireAll();
      return;
    }
  }

  /** Forgets everything: findings, where they went and local dismissals. */
  clear(): void {
    this.folders.clear();
    this.byFile.clear();
    this.dismissals.clear();
    this.fireAll();
  }

  private forget(f: FolderResults, issues: StoredIssue[]): void {
    const ids = new Set(issues.map((i) => i.id));
    f.issues = f.issues.filter((i) => !ids.has(i.id));
    f.gone = [...new Set([...(f.gone ?? []), ...ids])];
    const index = this.byFile.get(f.folderUri);
    for (const issue of issues) {
      const list = index?.get(issue.path);
      if (!list) continue;
      const rest = list.filter((i) => !ids.has(i.id));
      if (rest.length) index!.set(issue.path, rest);
      else index!.delete(issue.path);
    }
  }

  private followEdits(e: vscode.TextDocumentChangeEvent): void {
    if (!e.contentChanges.length || e.document.uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(e.document.uri);
    const f = folder && this.folders.get(folder.uri.toString());
    if (!f) return;
    const list = this.byFile.get(f.folderUri)?.get(relativeTo(folder!.uri, e.document.uri));
    if (!list?.length) return;
    const lost: StoredIssue[] = [];
    for (const issue of list) {
      if (!issue.range) continue;
      const next = trackRangeThrough(issue.range, e.contentChanges, issue.lineText);
      if (next) issue.range = next;
      else lost.push(issue);
    }
    if (lost.length) this.forget(f, lost);
    this.fire([e.document.uri]);
  }

  private dropFiles(uris: readonly vscode.Uri[]): void {
    let any = false;
    for (const f of this.folders.values()) {
      const gone = f.issues.filter((i) => {
        const u = fileUri(f.folderUri, i.path).toString();
        return uris.some((d) => u === d.toString() || u.startsWith(d.toString() + '/'));
      });
      if (gone.length) {
        this.forget(f, gone);
        any = true;
      }
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
    const data: Persisted = {
      version: 1,
      folders: [...this.folders.values()],
      classificationFilter: this.filter,
      dismissals: Object.fromEntries(this.dismissals),
    };
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

export function relativeTo(folder: vscode.Uri, file: vscode.Uri): string {
  const base = folder.path.endsWith('/') ? folder.path : folder.path + '/';
  return file.path.startsWith(base) ? file.path.slice(base.length) : file.path;
}

interface PlaceOptions {
  /** Whether the service's line numbers still hold for this file's current text. */
  trustLines(relPath: string, text: string): boolean;
  /** Filled with the digest of each file whose findings were placed from the service's lines. */
  digests: Record<string, string>;
}

/**
 * Gives each finding a range in the file as it is now (an open editor's text wins over the
 * disk) and drops findings whose file no longer exists or lies outside the folder. A
 * finding that has no range yet is placed at the service's line when `trustLines` says the
 * file is as scanned, and marked stale otherwise.
 */
async function place(folderUri: string, issues: StoredIssue[], o: PlaceOptions): Promise<StoredIssue[]> {
  const texts = new Map<string, string | undefined>();
  const lines = new Map<string, string[]>();
  const out: StoredIssue[] = [];
  for (const issue of issues) {
    // The path comes from the service: never follow one out of the scanned folder.
    if (!isInsideFolder(issue.path)) continue;
    if (!texts.has(issue.path)) texts.set(issue.path, await readText(folderUri, issue.path));
    const text = texts.get(issue.path);
    if (text === undefined) continue;
    if (issue.range) {
      out.push({ ...issue, stale: undefined });
      continue;
    }
    if (!o.trustLines(issue.path, text)) {
      out.push({ ...issue, range: undefined, stale: true });
      continue;
    }
    const range = rangeForLine(text, issue.line);
    if (!lines.has(issue.path)) {
      lines.set(issue.path, text.split(/\r\n|\r|\n/));
      o.digests[issue.path] ??= digest(text);
    }
    // Remembered so the finding survives edits that rewrite its line unchanged (revert, formatter).
    out.push({ ...issue, range, stale: undefined, lineText: issue.lineText ?? lines.get(issue.path)![range.start.line] ?? '' });
  }
  return out;
}

async function readText(folderUri: string, relPath: string): Promise<string | undefined> {
  const uri = fileUri(folderUri, relPath);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  return readTextInside(vscode.Uri.parse(folderUri).fsPath, relPath);
}

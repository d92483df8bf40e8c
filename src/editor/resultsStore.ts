import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { forEachInSlices } from '../core/async';
import { isInsideFolder } from '../core/fixes';
import { readJsonLines, writeJsonLines, writeJsonLinesSync } from '../core/persist';
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
  /** 1: findings in the Memento; 2: findings in the results file, the rest here. */
  version: 1 | 2;
  folders?: FolderResults[];
  classificationFilter?: string;
  /** Local dismissals, by finding fingerprint (survives rescans, which give findings new ids). */
  dismissals?: Record<string, Dismissal>;
}

export interface LocatedIssue { folderUri: string; uri: vscode.Uri; issue: StoredIssue }

const STATE_KEY = 'codeScanner.results';
/** Findings per line of the results file: small lines, so reading and writing can pause between them. */
const ISSUES_PER_RECORD = 500;

type FileRecord =
  | ({ kind: 'folder' } & Omit<FolderResults, 'issues'>)
  | { kind: 'issues'; folderUri: string; issues: StoredIssue[] };
const PERSIST_SOON_MS = 500;
const PERSIST_IDLE_MS = 3000;

/** What changed: `uris` (undefined: anything may have); `moved`: only the places of findings in those files. */
export interface StoreChange { uris?: vscode.Uri[]; moved?: boolean }
/** Overlays kept per folder before the oldest partial scans are folded away. */
const MAX_SCANS_PER_FOLDER = 20;

/** A results folder's name as the workspace shows it (its last path segment when it left the workspace). */
export function folderNameOf(folderUri: string): string {
  const uri = vscode.Uri.parse(folderUri);
  return vscode.workspace.getWorkspaceFolder(uri)?.name ?? uri.path.split('/').pop() ?? folderUri;
}

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
  private readonly changed = this.own(new vscode.EventEmitter<StoreChange>());
  /** `uris` lists the files whose findings changed; undefined means anything may have. */
  readonly onDidChange = this.changed.event;
  private persistTimer: NodeJS.Timeout | undefined;
  private persistDue = 0;
  private located: LocatedIssue[] | undefined;
  /** shownCount per value of hideFalsePositives, until the next change that is more than a move. */
  private shown = new Map<boolean, number>();
  /** File URIs per folder, keyed by relative path: made once per file, looked up per finding. */
  private readonly uris = new Map<string, Map<string, vscode.Uri>>();

  /** Settles once the findings kept in the results file are loaded (at once without one). */
  readonly ready: Promise<void>;
  private writing: Promise<void> = Promise.resolve();

  /**
   * `resultsFile`: where findings are kept (JSON Lines in the workspace's storage); without
   * one they go into the Memento with the rest. `log` hears of a results file that could
   * not be read or written.
   */
  constructor(
    private readonly state: vscode.Memento,
    private readonly resultsFile?: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    super();
    const saved = state.get<Persisted>(STATE_KEY);
    if (saved?.version === 1 || saved?.version === 2) {
      // Version 1 kept findings here; the next write moves them to the results file.
      for (const f of saved.folders ?? []) this.setFolder(f);
      this.filter = saved.classificationFilter;
      for (const [k, d] of Object.entries(saved.dismissals ?? {})) this.dismissals.set(k, d);
    }
    this.ready = resultsFile && saved?.version === 2 ? this.load(resultsFile) : Promise.resolve();
    if (resultsFile && saved?.version === 1 && saved.folders?.length) this.schedulePersist('idle');
    // Deletions made outside the editor too (git checkout, a terminal): a watcher, not onDidDeleteFiles.
    const deletions = this.own(vscode.workspace.createFileSystemWatcher('**/*', true, true, false));
    this.own(deletions.onDidDelete((uri) => this.dropFiles([uri])));
    this.own(vscode.workspace.onDidChangeTextDocument((e) => this.followEdits(e)));
    void this.updateContext();
  }

  private async load(file: string): Promise<void> {
    let records: unknown[] | undefined;
    try {
      records = await readJsonLines(file);
    } catch (e) {
      this.log(`Stored findings could not be read (${e instanceof Error ? e.message : String(e)}); scan again to see them.`);
      return;
    }
    const loaded = new Map<string, FolderResults>();
    for (const r of records ?? []) {
      const rec = r as Partial<FileRecord> | null;
      if (rec?.kind === 'folder' && typeof rec.folderUri === 'string') {
        const { kind: _kind, ...folder } = rec;
        loaded.set(rec.folderUri, { ...(folder as Omit<FolderResults, 'issues'>), issues: [] });
      } else if (rec?.kind === 'issues' && Array.isArray(rec.issues)) {
        loaded.get(String(rec.folderUri))?.issues.push(...rec.issues);
      }
    }
    // Results recorded while the file was read are newer than the file's.
    let any = false;
    for (const f of loaded.values()) {
      if (this.folders.has(f.folderUri)) continue;
      this.setFolder(f);
      any = true;
    }
    if (any) this.fireAll(false);
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
    this.schedulePersist('soon');
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

  /** Every folder the store holds findings or scans of. */
  folderUris(): string[] {
    return [...this.folders.keys()];
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

  /**
   * A folder's file URIs, each made once: tens of thousands of findings would make as many
   * URIs on every change. Keyed by the path alone, whose hash V8 keeps with the string (a
   * key joined from folder and path was hashed anew for every finding).
   */
  private urisOf(folderUri: string): Map<string, vscode.Uri> {
    let uris = this.uris.get(folderUri);
    if (!uris) this.uris.set(folderUri, (uris = new Map()));
    return uris;
  }

  private uriOf(folderUri: string, relPath: string, uris = this.urisOf(folderUri)): vscode.Uri {
    let uri = uris.get(relPath);
    if (!uri) uris.set(relPath, (uri = fileUri(folderUri, relPath)));
    return uri;
  }

  /** Every finding with its file's URI; cached until findings come or go (moving with edits keeps it). */
  all(): LocatedIssue[] {
    if (!this.located) {
      this.located = [];
      for (const f of this.folders.values()) {
        const uris = this.urisOf(f.folderUri);
        for (const issue of f.issues) this.located.push({ folderUri: f.folderUri, uri: this.uriOf(f.folderUri, issue.path, uris), issue });
      }
    }
    return this.located;
  }

  /** A folder's findings as stored (read only): for counts and lists that need no URIs. */
  issuesIn(folderUri: string): readonly StoredIssue[] {
    return this.folders.get(folderUri)?.issues ?? [];
  }

  /** Every file with findings and its findings, from the per-file index (the arrays are the store's: read only). */
  *files(): Generator<{ uri: vscode.Uri; issues: readonly StoredIssue[] }> {
    for (const [folderUri, index] of this.byFile) {
      const uris = this.urisOf(folderUri);
      for (const [relPath, issues] of index) yield { uri: this.uriOf(folderUri, relPath, uris), issues };
    }
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
    if (!this.dismissals.size) return undefined;
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
    let n = this.shown.get(hideFalsePositives);
    if (n === undefined) {
      n = 0;
      for (const f of this.folders.values()) for (const issue of f.issues) if (this.isShown(issue, hideFalsePositives)) n++;
      this.shown.set(hideFalsePositives, n);
    }
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
    const placed = await place(folderUri, await markArchived(issues, archived), { trustLines: () => true, digests: fileDigests });
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
    // Sliced, one pass each and no copies: at 50,000 findings a map built from an array of
    // pairs, a filter and a spread into push held the extension host 20-40 ms at once.
    const tracked = new Map<string, StoredIssue>();
    await forEachInSlices(prev?.issues ?? [], (i) => { tracked.set(i.id, i); });
    let issues: StoredIssue[] = [];
    for (const { scan, issues: found, archived } of perScan) {
      if (scan.partialFiles) {
        const covered = new Set(scan.partialFiles);
        const earlier = issues;
        issues = [];
        await forEachInSlices(earlier, (i) => { if (!covered.has(i.path)) issues.push(i); });
      } else {
        issues = [];
      }
      // In place: these are the fetch's own objects, and every copy of 50,000 findings is
      // garbage the young generation copies before it dies (the extension host's longest stalls).
      await forEachInSlices(found, (i) => {
        if (gone.has(i.id)) return;
        i.inArchive = !!archived?.has(i.path);
        // Where the editor has followed a finding since the last scan, it stays.
        const t = tracked.get(i.id);
        if (t?.range && !t.stale) {
          i.range = t.range;
          i.lineText = t.lineText;
        }
        issues.push(i);
      });
    }
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
    // Most keystrokes only move findings: readers refresh that file, counts stay as they are.
    this.fire([e.document.uri], { moved: lost.length === 0 });
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

  private fire(uris: vscode.Uri[], o: { moved?: boolean } = {}): void {
    if (!o.moved) {
      this.located = undefined;
      this.shown.clear();
    }
    this.changed.fire({ uris, moved: o.moved });
    this.schedulePersist(o.moved ? 'idle' : 'soon');
  }

  private fireAll(persist = true): void {
    this.located = undefined;
    this.shown.clear();
    this.changed.fire({});
    void this.updateContext();
    if (persist) this.schedulePersist('soon');
  }

  private updateContext(): Thenable<unknown> {
    return setContext(CONTEXT_KEYS.hasResults, this.hasResults());
  }

  /**
   * Writes the state after a change: `soon` (findings came or went: within half a second),
   * or `idle` (findings moved with typing: once the typing has paused for a few seconds,
   * so the whole state is not rewritten while someone types).
   */
  private schedulePersist(when: 'soon' | 'idle'): void {
    const now = Date.now();
    const due = now + (when === 'soon' ? PERSIST_SOON_MS : PERSIST_IDLE_MS);
    if (this.persistTimer) {
      // A write of real changes already due soon stays; a pending write after typing moves on.
      if (this.persistDue <= now + PERSIST_SOON_MS || (when === 'soon' && this.persistDue <= due)) return;
      clearTimeout(this.persistTimer);
    }
    this.persistDue = due;
    this.persistTimer = setTimeout(() => { this.persistTimer = undefined; void this.persist(); }, due - Date.now());
  }

  /** The small part of the state; findings go with it only when there is no results file. */
  private persistedState(): Persisted {
    return {
      version: this.resultsFile ? 2 : 1,
      folders: this.resultsFile ? undefined : [...this.folders.values()],
      classificationFilter: this.filter,
      dismissals: Object.fromEntries(this.dismissals),
    };
  }

  private *fileRecords(): Generator<FileRecord> {
    for (const { issues, ...folder } of [...this.folders.values()]) {
      yield { kind: 'folder', ...folder };
      for (let i = 0; i < issues.length; i += ISSUES_PER_RECORD) {
        yield { kind: 'issues', folderUri: folder.folderUri, issues: issues.slice(i, i + ISSUES_PER_RECORD) };
      }
    }
  }

  /** Writes the state now; writes never overlap, and the last one wins. */
  persist(): Promise<void> {
    const file = this.resultsFile;
    const run = async () => {
      if (file) {
        // The findings before the state that points at them: a reload never finds version 2 without its file.
        await this.ready;
        await writeJsonLines(file, this.fileRecords()).catch((e: unknown) => {
          this.log(`Findings could not be stored in ${file}: ${e instanceof Error ? e.message : String(e)}`);
        });
      }
      await this.state.update(STATE_KEY, this.persistedState());
    };
    this.writing = this.writing.then(run, run);
    return this.writing;
  }

  override dispose(): void {
    if (this.persistTimer) {
      clearTimeout(this.persistTimer);
      this.persistTimer = undefined;
      // Shutting down: nothing waits for the event loop any more, and an async write could be cut off.
      if (this.resultsFile) {
        try {
          writeJsonLinesSync(this.resultsFile, this.fileRecords());
        } catch (e) {
          this.log(`Findings could not be stored in ${this.resultsFile}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      void this.state.update(STATE_KEY, this.persistedState());
    }
    super.dispose();
  }
}

/** Marks the findings in place: they are a fetch's own objects, not yet the store's (see replaceFolder). */
async function markArchived(issues: StoredIssue[], archived: ReadonlySet<string> | undefined): Promise<StoredIssue[]> {
  await forEachInSlices(issues, (i) => { i.inArchive = !!archived?.has(i.path); });
  return issues;
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
 * file is as scanned, and marked stale otherwise. The findings are changed in place: they
 * are a fetch's own objects, and a copy of 50,000 would be garbage that lives just long
 * enough for the young generation to copy it (see markArchived).
 */
async function place(folderUri: string, issues: StoredIssue[], o: PlaceOptions): Promise<StoredIssue[]> {
  const texts = new Map<string, string | undefined>();
  const lines = new Map<string, string[]>();
  const out: StoredIssue[] = [];
  let last = performance.now();
  for (const issue of issues) {
    // Tens of thousands of findings: let the editor breathe between slices.
    if (performance.now() - last > 10) {
      await new Promise<void>((r) => setImmediate(r));
      last = performance.now();
    }
    // The path comes from the service: never follow one out of the scanned folder.
    if (!isInsideFolder(issue.path)) continue;
    if (!texts.has(issue.path)) texts.set(issue.path, await readText(folderUri, issue.path));
    const text = texts.get(issue.path);
    if (text === undefined) continue;
    if (issue.range) {
      issue.stale = undefined;
      out.push(issue);
      continue;
    }
    if (!o.trustLines(issue.path, text)) {
      issue.range = undefined;
      issue.stale = true;
      out.push(issue);
      continue;
    }
    if (!lines.has(issue.path)) {
      lines.set(issue.path, text.split(/\r\n|\r|\n/));
      o.digests[issue.path] ??= digest(text);
    }
    const range = rangeForLine(text, issue.line, lines.get(issue.path));
    issue.range = range;
    issue.stale = undefined;
    // Remembered so the finding survives edits that rewrite its line unchanged (revert, formatter).
    issue.lineText ??= lines.get(issue.path)![range.start.line] ?? '';
    out.push(issue);
  }
  return out;
}

async function readText(folderUri: string, relPath: string): Promise<string | undefined> {
  const uri = fileUri(folderUri, relPath);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  return readTextInside(vscode.Uri.parse(folderUri).fsPath, relPath);
}

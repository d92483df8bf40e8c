// The one place a workspace's findings live, without the editor: every folder's findings,
// the scans they came from and those still on the service, local dismissals, and the
// findings that left through their file (a fix, deleted lines), which come back when that
// change is thrown away. Views read it and listen to its changes; only its methods change
// it (the rules are in transitions.ts and leftFindings.ts).
import { forEachInSlices } from '../async';
import { trackRangeThrough, type StoredIssue, type TextChange } from '../issues';
import { kindOf } from '../issues/kinds';
import type { ScanEvent, ScanRef } from '../scan/events';
import { sawUploadTime } from '../scan/uploadTime';
import { baselineOf, markNew } from './baseline';
import { returnOf, type LeftFinding, type LeftHow } from './leftFindings';
import { digest, fingerprint, place, type ReadText } from './placement';
import { emptyFolder, isEmpty, mergeCompleted, withAttempt, withFailure, withoutScan, withPending, withStop } from './transitions';
import type { Attempt, DismissReason, Dismissal, FindingsChange, FolderFindings, PendingScan } from './types';

export interface Located { folderUri: string; issue: StoredIssue }

/**
 * What a refresh read again of one of the folder's scans. A list named in the scan's
 * `unreadLists` could not be read: the findings of that list the folder shows stay.
 */
export interface RefreshedScan { scan: ScanRef; issues: StoredIssue[]; archived: ReadonlySet<string> | undefined; unreadable?: number }

export interface FindingsModelOptions {
  readText: ReadText;
  now?: () => Date;
}

export class FindingsModel {
  private folders = new Map<string, FolderFindings>();
  /** Per folder: relative path -> its findings (the same objects as in FolderFindings.issues). */
  private byFile = new Map<string, Map<string, StoredIssue[]>>();
  private dismissals = new Map<string, Dismissal>();
  private readonly listeners = new Set<(c: FindingsChange) => void>();
  /** shownCount per value of hideFalsePositives, until the next change that is more than a move. */
  private readonly shown = new Map<boolean, number>();
  /** Transitions that place findings run one at a time, so none works from a state another is replacing. */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: FindingsModelOptions) {}

  private now(): string {
    return (this.o.now?.() ?? new Date()).toISOString();
  }

  onDidChange(listener: (c: FindingsChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(c: FindingsChange): void {
    if (c.all || !c.moved) this.shown.clear();
    for (const l of [...this.listeners]) l(c);
  }

  private exclusively<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.serial.then(fn, fn);
    this.serial = run.catch(() => undefined);
    return run;
  }

  // ---- reading

  folder(folderUri: string): FolderFindings | undefined {
    return this.folders.get(folderUri);
  }

  /** Every folder the model holds anything of (findings, a scan on the service, a note). */
  folderUris(): string[] {
    return [...this.folders.keys()];
  }

  foldersWithResults(): string[] {
    return [...this.folders.values()].filter((f) => f.scans.length).map((f) => f.folderUri);
  }

  /** Whether some folder's findings come from a completed scan (only then may a view say "no issues"). */
  hasResults(): boolean {
    return [...this.folders.values()].some((f) => f.scans.length > 0);
  }

  scansOf(folderUri: string): ScanRef[] {
    return this.folders.get(folderUri)?.scans ?? [];
  }

  pendingOf(folderUri: string): PendingScan[] {
    return this.folders.get(folderUri)?.pending ?? [];
  }

  lastAttemptOf(folderUri: string): Attempt | undefined {
    return this.folders.get(folderUri)?.lastAttempt;
  }

  issuesIn(folderUri: string): readonly StoredIssue[] {
    return this.folders.get(folderUri)?.issues ?? [];
  }

  issuesOfFile(folderUri: string, relPath: string): readonly StoredIssue[] {
    return this.byFile.get(folderUri)?.get(relPath) ?? [];
  }

  /** Every file with findings, per folder (the arrays are the model's: read only). */
  *files(): Generator<{ folderUri: string; path: string; issues: readonly StoredIssue[] }> {
    for (const [folderUri, index] of this.byFile) for (const [path, issues] of index) yield { folderUri, path, issues };
  }

  get(folderUri: string, issueId: string): StoredIssue | undefined {
    return this.folders.get(folderUri)?.issues.find((i) => i.id === issueId);
  }

  unreadableCount(): number {
    return [...this.folders.values()].reduce((n, f) => n + (f.unreadable ?? 0), 0);
  }

  /** The accounts that recorded the stored results, where known. */
  accounts(): Set<string> {
    return new Set([...this.folders.values()].map((f) => f.account).filter((a): a is string => !!a));
  }

  /** Archive digests of every scan kept or waited for (their file lists must be kept). */
  archiveDigests(): string[] {
    return [...this.folders.values()].flatMap((f) => [...f.scans, ...(f.pending ?? [])].map((s) => s.archiveSha256).filter((d): d is string => !!d));
  }

  dismissalOf(issue: StoredIssue): Dismissal | undefined {
    if (!this.dismissals.size) return undefined;
    return this.dismissals.get(fingerprint(issue)) ?? this.dismissals.get(`id:${issue.id}`);
  }

  /** In Problems, squiggles and every count: placed at a line, not dismissed here, not a likely false positive when those are hidden. */
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

  // ---- the scan lifecycle

  /**
   * What a scan reports. Only `completed` changes findings; the rest keep them exactly as
   * they are and record the scan to wait for, or what happened to it.
   */
  apply(folderUri: string, e: ScanEvent, account?: string): Promise<void> {
    return this.exclusively(async () => {
      const prev = this.folders.get(folderUri) ?? emptyFolder(folderUri);
      switch (e.kind) {
        case 'uploaded':
          this.setState(withPending(prev, e.scan));
          break;
        case 'failed':
          this.setState(withFailure(prev, e.scan, e.reason, this.now()));
          break;
        case 'stopped':
          this.setState(withStop(prev, e.scan, e.why, e.detail, this.now()));
          break;
        case 'completed':
          await this.complete(folderUri, e.findings, account);
          return;
      }
      this.emit({ all: true });
    });
  }

  private async complete(folderUri: string, findings: Parameters<typeof mergeCompleted>[1], account?: string): Promise<void> {
    const first = mergeCompleted(this.folders.get(folderUri) ?? emptyFolder(folderUri), findings, account);
    const digests: Record<string, string> = {};
    let placed: StoredIssue[] = [];
    if (!first.superseded) {
      const archived = findings.archived;
      await forEachInSlices(first.incoming, (i) => { i.inArchive = !!archived?.has(i.path); });
      placed = await place(folderUri, first.incoming, { readText: this.o.readText, trustLines: () => true, digests });
    }
    // Merged again with the state as it is now: a fix or an edit may have taken findings out meanwhile.
    const before = this.folders.get(folderUri) ?? emptyFolder(folderUri);
    const merge = mergeCompleted(before, { ...findings, issues: placed }, account);
    const issues = merge.superseded ? merge.kept : [...merge.kept, ...merge.incoming];
    // A full scan measures "new" against what the folder showed before it (when a full scan
    // made that); a partial scan against the same baseline as the full scan before it.
    let baseline = before.baseline;
    if (!merge.superseded && !findings.scan.partialFiles) {
      // After the first full scan, its own findings: what a later partial scan finds first is new.
      baseline = before.scans.some((s) => !s.partialFiles) ? await baselineOf(before.issues, before.left) : await baselineOf(issues);
      await markNew(issues, baseline);
    } else if (!merge.superseded) {
      await markNew(merge.incoming, baseline);
    }
    this.setFolder({ ...merge.next, folderUri, issues, fileDigests: { ...merge.next.fileDigests, ...digests }, baseline });
    this.emit({ all: true });
  }

  /** A scan attempt that ended before the service had a scan (the upload failed or was cancelled). */
  noteAttempt(folderUri: string, attempt: Omit<Attempt, 'at'>): void {
    this.setState(withAttempt(this.folders.get(folderUri) ?? emptyFolder(folderUri), { ...attempt, at: this.now() }));
    this.emit({ all: true });
  }

  /** Ignore This Scan: no longer waited for, its note dropped; every other scan's findings stay. */
  forgetScan(scanId: string): boolean {
    for (const f of this.folders.values()) {
      if (!f.pending?.some((p) => p.scanId === scanId) && f.lastAttempt?.scanId !== scanId) continue;
      this.setState(withoutScan(f, scanId));
      this.emit({ all: true });
      return true;
    }
    return false;
  }

  /**
   * Replaces findings after Refresh Results read every scan of a folder again, oldest first.
   * Findings the editor already tracks keep their place; those that left it (fix applied,
   * line deleted) stay out; others are placed at the service's line only when their file is
   * unchanged since the scan, and are marked stale otherwise.
   */
  replaceFolder(folderUri: string, perScan: RefreshedScan[]): Promise<void> {
    return this.exclusively(async () => {
      const prev = this.folders.get(folderUri);
      const gone = new Set((prev?.left ?? []).map((l) => l.issue.id));
      // Sliced, one pass each and no copies: at 50,000 findings a map built from an array of
      // pairs, a filter and a spread into push held the extension host 20-40 ms at once.
      const tracked = new Map<string, StoredIssue>();
      await forEachInSlices(prev?.issues ?? [], (i) => { tracked.set(i.id, i); });
      let issues: StoredIssue[] = [];
      for (const { scan, issues: found, archived } of perScan) {
        // A list that could not be read keeps what the folder showed of it.
        const unread = new Set(scan.unreadLists?.map((l) => l.kind));
        const covered = scan.partialFiles && new Set(scan.partialFiles);
        const earlier = issues;
        issues = [];
        if (covered) await forEachInSlices(earlier, (i) => { if (!covered.has(i.path) || unread.has(kindOf(i))) issues.push(i); });
        else if (unread.size) await forEachInSlices(earlier, (i) => { if (unread.has(kindOf(i))) issues.push(i); });
        if (unread.size) {
          const have = new Set(issues.map((i) => i.id));
          await forEachInSlices(prev?.issues ?? [], (i) => {
            if (unread.has(kindOf(i)) && !have.has(i.id) && (!covered || covered.has(i.path))) issues.push(i);
          });
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
      const placed = await place(folderUri, issues, {
        readText: this.o.readText,
        trustLines: (relPath, text) => digests[relPath] === undefined || digests[relPath] === digest(text),
        digests: { ...digests },
      });
      const now = this.folders.get(folderUri) ?? emptyFolder(folderUri);
      await markNew(placed, now.baseline);
      this.setFolder({
        ...now, folderUri, scans: perScan.map((p) => p.scan), issues: placed,
        unreadable: perScan.reduce((n, p) => n + (p.unreadable ?? 0), 0), left: now.left, fileDigests: prev?.fileDigests,
      });
      this.emit({ all: true });
    });
  }

  // ---- fixes and edits

  /**
   * Takes findings out of view because their fix is applied, and returns them (as they are
   * now). `blocks` marks each one's fix in its file (leftFindings.fixBlocks): the finding
   * comes back once its file lacks them. One already out because the fix's edit moved
   * its lines (a redo) is marked fixed.
   */
  takeOut(refs: { folderUri: string; issueId: string }[], blocks: (issueId: string) => string[][] | undefined = () => undefined): Located[] {
    const out: Located[] = [];
    for (const ref of refs) {
      const f = this.folders.get(ref.folderUri);
      if (!f) continue;
      const fixBlocks = blocks(ref.issueId);
      const issue = f.issues.find((x) => x.id === ref.issueId);
      if (issue) {
        this.forget(f, [issue], 'fixed', fixBlocks);
        out.push({ folderUri: f.folderUri, issue: structuredClone(issue) });
        continue;
      }
      const edited = f.left?.find((l) => l.issue.id === ref.issueId && l.how === 'edited');
      if (!edited) continue;
      edited.how = 'fixed';
      edited.fixBlocks = fixBlocks;
      out.push({ folderUri: f.folderUri, issue: structuredClone(edited.issue) });
    }
    if (out.length) this.emit({ files: out.map((l) => ({ folderUri: l.folderUri, path: l.issue.path })) });
    return out;
  }

  /** Puts findings taken out back as they were (the editor refused the fix's edit). */
  putBack(refs: readonly { folderUri: string; issueId: string }[]): void {
    const files: { folderUri: string; path: string }[] = [];
    for (const ref of refs) {
      const f = this.folders.get(ref.folderUri);
      const l = f?.left?.find((x) => x.issue.id === ref.issueId);
      if (!f || !l) continue;
      this.bringBack(f, l, l.issue);
      files.push({ folderUri: f.folderUri, path: l.issue.path });
    }
    if (files.length) this.emit({ files });
  }

  /** Whether a finding is out of view because its fix is applied (and its file still has the fix). */
  isFixed(folderUri: string, issueId: string): boolean {
    return !!this.folders.get(folderUri)?.left?.some((l) => l.issue.id === issueId && l.how === 'fixed');
  }

  /** The findings that left through `relPath` of a folder (a fix, deleted lines or file). */
  leftIn(folderUri: string, relPath: string): readonly LeftFinding[] {
    return this.folders.get(folderUri)?.left?.filter((l) => l.issue.path === relPath) ?? [];
  }

  /** Whether any finding left through a file of the folder: only then is there something for `revisit` to look at. */
  hasLeft(folderUri?: string): boolean {
    return folderUri ? !!this.folders.get(folderUri)?.left?.length : [...this.folders.values()].some((f) => f.left?.length);
  }

  /**
   * Looks at the files (all of a folder's, without `paths`) through which findings left, as
   * their text is now: a finding whose change is no longer there comes back
   * (leftFindings.returnOf). Resolves to the number that came back.
   */
  revisit(folderUri: string, paths?: readonly string[]): Promise<number> {
    return this.exclusively(async () => {
      const f = this.folders.get(folderUri);
      if (!f?.left?.length) return 0;
      const wanted = paths && new Set(paths);
      const byPath = new Map<string, LeftFinding[]>();
      for (const l of f.left) {
        if (wanted && !wanted.has(l.issue.path)) continue;
        byPath.set(l.issue.path, [...(byPath.get(l.issue.path) ?? []), l]);
      }
      const files: { folderUri: string; path: string }[] = [];
      for (const [path, left] of byPath) {
        const text = await this.o.readText(folderUri, path);
        // Read while the model may have changed: only records still held are brought back.
        const now = this.folders.get(folderUri);
        if (!now) return files.length;
        let back = false;
        for (const l of left) {
          if (!now.left?.includes(l)) continue;
          const where = returnOf(l, text, now.fileDigests?.[path]);
          if (!where) continue;
          const issue = structuredClone(l.issue);
          if ('range' in where) {
            issue.range = where.range;
            delete issue.stale;
          } else {
            delete issue.range;
            issue.stale = true;
          }
          this.bringBack(now, l, issue);
          back = true;
        }
        if (back) files.push({ folderUri, path });
      }
      if (files.length) this.emit({ files });
      return files.length;
    });
  }

  private bringBack(f: FolderFindings, l: LeftFinding, issue: StoredIssue): void {
    f.left = f.left?.filter((x) => x !== l);
    if (!f.left?.length) delete f.left;
    if (f.issues.some((i) => i.id === issue.id)) return;
    f.issues.push(issue);
    this.index(f.folderUri, issue);
  }

  /** Moves a file's findings through an edit; a finding whose code the edit removed leaves. */
  followEdits(folderUri: string, relPath: string, changes: readonly TextChange[]): void {
    const f = this.folders.get(folderUri);
    const list = f && this.byFile.get(folderUri)?.get(relPath);
    if (!f || !list?.length) return;
    const lost: StoredIssue[] = [];
    for (const issue of list) {
      if (!issue.range) continue;
      const next = trackRangeThrough(issue.range, changes, issue.lineText);
      if (next) issue.range = next;
      else lost.push(issue);
    }
    if (lost.length) this.forget(f, lost, 'edited');
    // Most keystrokes only move findings: readers refresh that file, counts stay as they are.
    this.emit({ files: [{ folderUri, path: relPath }], moved: lost.length === 0 });
  }

  /** Files deleted (or folders, `path/` and below): their findings leave. */
  dropFiles(folderUri: string, deleted: (relPath: string) => boolean): void {
    const f = this.folders.get(folderUri);
    const gone = f?.issues.filter((i) => deleted(i.path)) ?? [];
    if (!f || !gone.length) return;
    this.forget(f, gone, 'deleted');
    this.emit({ all: true });
  }

  /** Out of view, kept in `left` so it can come back (leftFindings.ts). */
  private forget(f: FolderFindings, issues: StoredIssue[], how: LeftHow, fixBlocks?: string[][]): void {
    const ids = new Set(issues.map((i) => i.id));
    f.issues = f.issues.filter((i) => !ids.has(i.id));
    f.left = [...(f.left ?? []).filter((l) => !ids.has(l.issue.id)), ...issues.map((issue) => ({ issue, how, ...(fixBlocks ? { fixBlocks } : {}) }))];
    const index = this.byFile.get(f.folderUri);
    for (const issue of issues) {
      const list = index?.get(issue.path);
      if (!list) continue;
      const rest = list.filter((i) => !ids.has(i.id));
      if (rest.length) index!.set(issue.path, rest);
      else index!.delete(issue.path);
    }
  }

  // ---- dismissals

  dismiss(issues: readonly Located[], reason: DismissReason): number {
    for (const l of issues) this.dismissals.set(fingerprint(l.issue), { reason, at: this.now() });
    if (issues.length) this.emit({ files: issues.map((l) => ({ folderUri: l.folderUri, path: l.issue.path })) });
    return issues.length;
  }

  restore(issues: readonly Located[]): number {
    const restored = issues.filter((l) => this.dismissals.delete(fingerprint(l.issue)) || this.dismissals.delete(`id:${l.issue.id}`));
    if (restored.length) this.emit({ files: restored.map((l) => ({ folderUri: l.folderUri, path: l.issue.path })) });
    return restored.length;
  }

  /** Forgets everything: findings, scans waited for, notes and local dismissals. */
  clear(): void {
    this.folders.clear();
    this.byFile.clear();
    this.dismissals.clear();
    this.emit({ all: true });
  }

  // ---- storage

  /** What storage keeps. */
  snapshot(): { folders: FolderFindings[]; dismissals: Record<string, Dismissal> } {
    return { folders: [...this.folders.values()], dismissals: Object.fromEntries(this.dismissals) };
  }

  /**
   * Folders read from storage; a folder recorded since (newer) stays as it is. `dismissals`
   * add to those known, or with `replace` (a newer copy of them all) take their place.
   */
  load(folders: readonly FolderFindings[], dismissals?: Record<string, Dismissal>, o: { replace?: boolean } = {}): void {
    let any = false;
    for (const f of folders) {
      // Scans uploaded from now on sort after those kept, whatever the clock says (uploadTime.ts).
      for (const s of [...f.scans, ...(f.pending ?? [])]) sawUploadTime(s.scannedAt);
      if (this.folders.has(f.folderUri)) continue;
      this.setFolder(f);
      any = true;
    }
    if (o.replace && dismissals) {
      this.dismissals.clear();
      any = true;
    }
    for (const [k, d] of Object.entries(dismissals ?? {})) if (!this.dismissals.has(k)) this.dismissals.set(k, d);
    if (any) this.emit({ all: true, fromStorage: true });
  }

  private setState(f: FolderFindings): void {
    if (isEmpty(f) && !f.issues.length) {
      this.folders.delete(f.folderUri);
      this.byFile.delete(f.folderUri);
    } else {
      this.setFolder(f);
    }
  }

  private setFolder(f: FolderFindings): void {
    this.folders.set(f.folderUri, f);
    const index = new Map<string, StoredIssue[]>();
    this.byFile.set(f.folderUri, index);
    for (const issue of f.issues) this.index(f.folderUri, issue);
  }

  private index(folderUri: string, issue: StoredIssue): void {
    let index = this.byFile.get(folderUri);
    if (!index) this.byFile.set(folderUri, (index = new Map()));
    const list = index.get(issue.path);
    if (list) list.push(issue);
    else index.set(issue.path, [issue]);
  }
}

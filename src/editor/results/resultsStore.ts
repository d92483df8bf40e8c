// The editor's side of a workspace's findings: the core model (src/core/results) with file
// URIs, VS Code events, the open editors' text, edits and deletions followed, and its
// storage in the workspace's Memento and storage folder. The tree, diagnostics and code
// actions read from here and change nothing except through these methods.
import * as vscode from 'vscode';
import { FindingsModel, ResultsStorage, existsNow, missingNow, type Attempt, type DismissReason, type Dismissal, type FindingsChange, type FolderFindings, type PendingScan, type RefreshedScan, type ScanEvent, type ScanRef } from '../../core/results';
import type { PolicyViolation, StoredIssue } from '../../core/issues';
import { PUSH_CHECKS_KEY, readPushChecks, type StoredPushCheck } from '../../core/results/pushChecks';
import { errorMessage } from '../../core/errors';
import { l10n } from '../../core/text/l10n';
import type { IssueRef } from '../commands/args';
import { CONTEXT_KEYS } from '../commands/contextKeys';
import { setContext } from '../commands/manager';
import { DisposableObject } from '../disposable';
import { ReturningFindings } from './returningFindings';
import { fileUri, readText, relativeTo } from '../workspaceFiles';

export type { DismissReason, Dismissal, ScanRef } from '../../core/results';
export type { IssueRef } from '../commands/args';

export interface LocatedIssue { folderUri: string; uri: vscode.Uri; issue: StoredIssue }

/** A folder's last check before a push (pushCheck.ts), kept across reloads (core/results/pushChecks.ts). */
export type PushCheckResult = StoredPushCheck;

/** The policies a finding of a folder violates (undefined: not known, so none is shown). */
export type PolicyLookup = (folderUri: string, issue: StoredIssue) => PolicyViolation[] | undefined;

/** What changed: `uris` (undefined: anything may have); `moved`: only the places of findings in those files. */
export interface StoreChange { uris?: vscode.Uri[]; moved?: boolean }

export class ResultsStore extends DisposableObject {
  private readonly model = new FindingsModel({ readText });
  private readonly storage: ResultsStorage;
  private filter: string | undefined;
  private readonly changed = this.own(new vscode.EventEmitter<StoreChange>());
  /** `uris` lists the files whose findings changed; undefined means anything may have. */
  readonly onDidChange = this.changed.event;
  private located: LocatedIssue[] | undefined;
  /** File URIs per folder, keyed by relative path: made once per file, looked up per finding. */
  private readonly uris = new Map<string, Map<string, vscode.Uri>>();
  /** Settles once the findings kept in the results file are loaded (at once without one). */
  readonly ready: Promise<void>;
  private policies: PolicyLookup | undefined;
  /** Each folder's last push check, kept in the workspace's state across reloads. */
  private readonly pushChecks: Map<string, PushCheckResult>;

  /**
   * `resultsFile`: where findings are kept (JSON Lines in the workspace's storage); without
   * one they go into the Memento with the rest. `log` hears of stored findings that could
   * not be read or written.
   */
  constructor(private readonly state: vscode.Memento, resultsFile?: string, private readonly log: (line: string) => void = () => undefined, info: (line: string) => void = () => undefined) {
    super();
    this.pushChecks = readPushChecks(state.get(PUSH_CHECKS_KEY));
    this.storage = new ResultsStorage(state, resultsFile, () => ({ ...this.model.snapshot(), classificationFilter: this.filter }), log);
    const { snapshot, fileToRead } = this.storage.initial();
    this.model.load(snapshot.folders, snapshot.dismissals);
    this.filter = snapshot.classificationFilter;
    this.own(this.model.onDidChange((c) => this.onModelChange(c)));
    this.ready = fileToRead ? this.storage.readFile().then(({ folders, workspace }) => {
      // The file's copy of the dismissals and filter is the newest (see FileContents).
      if (workspace) this.filter = workspace.classificationFilter;
      this.model.load(folders, workspace?.dismissals, { replace: true });
    }) : Promise.resolve();
    // Findings a fix or an edit took out come back when that change is thrown away, by any
    // route; a reload keeps them out only while their files still have the change.
    const returning = this.own(new ReturningFindings(this, info));
    this.ready = this.ready.then(() => returning.revisitAll());
    // Deletions made outside the editor too (git checkout, a terminal): a watcher, not onDidDeleteFiles.
    const deletions = this.own(vscode.workspace.createFileSystemWatcher('**/*', true, true, false));
    this.own(deletions.onDidDelete((uri) => void this.dropFiles(uri)));
    this.own(vscode.workspace.onDidChangeTextDocument((e) => this.followEdits(e)));
    void this.updateContext();
  }

  /**
   * How findings are matched to the company's policies (policyViolations.ts); every finding
   * is matched again now, and each one that arrives later as it arrives.
   */
  setPolicyLookup(lookup: PolicyLookup | undefined): void {
    this.policies = lookup;
    for (const folderUri of this.model.folderUris()) this.matchPolicies(folderUri, this.model.issuesIn(folderUri));
    this.located = undefined;
    this.changed.fire({});
  }

  private matchPolicies(folderUri: string, issues: readonly StoredIssue[]): void {
    for (const issue of issues) {
      const found = this.policies?.(folderUri, issue);
      if (found?.length) issue.policies = found;
      else delete issue.policies;
    }
  }

  private onModelChange(c: FindingsChange): void {
    if (c.all) {
      for (const folderUri of this.model.folderUris()) this.matchPolicies(folderUri, this.model.issuesIn(folderUri));
      this.located = undefined;
      this.changed.fire({});
      void this.updateContext();
      if (!c.fromStorage) this.storage.schedule('soon');
      return;
    }
    if (!c.moved) {
      this.located = undefined;
      for (const f of c.files) this.matchPolicies(f.folderUri, this.model.issuesOfFile(f.folderUri, f.path));
    }
    this.changed.fire({ uris: c.files.map((f) => this.uriOf(f.folderUri, f.path)), moved: c.moved });
    this.storage.schedule(c.moved ? 'idle' : 'soon');
  }

  private updateContext(): Thenable<unknown> {
    return Promise.all([
      setContext(CONTEXT_KEYS.hasResults, this.hasResults()),
      setContext(CONTEXT_KEYS.hasPendingScan, this.pendingScans().length > 0),
    ]);
  }

  // ---- reading

  get classificationFilter(): string | undefined {
    return this.filter;
  }

  /** A view filter: the tree narrows to it; Problems and counts keep every finding. */
  async setClassificationFilter(value: string | undefined): Promise<void> {
    this.filter = value?.trim() || undefined;
    this.storage.schedule('soon');
  }

  unreadableCount(): number { return this.model.unreadableCount(); }
  hasResults(): boolean { return this.model.hasResults(); }
  scansOf(folderUri: string): ScanRef[] { return this.model.scansOf(folderUri); }
  folderUris(): string[] { return this.model.folderUris(); }
  foldersWithResults(): string[] { return this.model.foldersWithResults(); }
  archiveDigests(): string[] { return this.model.archiveDigests(); }
  accounts(): Set<string> { return this.model.accounts(); }
  /** A folder's whole state (its scans, those still on the service, the last attempt's outcome). */
  folder(folderUri: string): FolderFindings | undefined { return this.model.folder(folderUri); }
  lastAttemptOf(folderUri: string): Attempt | undefined { return this.model.lastAttemptOf(folderUri); }
  /** Scans uploaded whose findings are not read yet, with their folder. */
  pendingScans(): { folderUri: string; scan: PendingScan }[] {
    return this.model.folderUris().flatMap((folderUri) => this.model.pendingOf(folderUri).map((scan) => ({ folderUri, scan })));
  }

  /**
   * A folder's file URIs, each made once: tens of thousands of findings would make as many
   * URIs on every change. Keyed by the path alone, whose hash V8 keeps with the string.
   */
  private uriOf(folderUri: string, relPath: string): vscode.Uri {
    let uris = this.uris.get(folderUri);
    if (!uris) this.uris.set(folderUri, (uris = new Map()));
    let uri = uris.get(relPath);
    if (!uri) uris.set(relPath, (uri = fileUri(folderUri, relPath)));
    return uri;
  }

  /** Every finding with its file's URI; cached until findings come or go (moving with edits keeps it). */
  all(): LocatedIssue[] {
    if (!this.located) {
      this.located = [];
      for (const folderUri of this.model.folderUris()) {
        for (const issue of this.model.issuesIn(folderUri)) this.located.push({ folderUri, uri: this.uriOf(folderUri, issue.path), issue });
      }
    }
    return this.located;
  }

  /** A folder's findings as stored (read only): for counts and lists that need no URIs. */
  issuesIn(folderUri: string): readonly StoredIssue[] {
    return this.model.issuesIn(folderUri);
  }

  /** Every file with findings and its findings (the arrays are the store's: read only). */
  *files(): Generator<{ uri: vscode.Uri; issues: readonly StoredIssue[] }> {
    for (const f of this.model.files()) yield { uri: this.uriOf(f.folderUri, f.path), issues: f.issues };
  }

  /** The findings of one file. */
  forFile(uri: vscode.Uri): LocatedIssue[] {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return [];
    const folderUri = folder.uri.toString();
    return this.model.issuesOfFile(folderUri, relativeTo(folder.uri, uri)).map((issue) => ({ folderUri, uri, issue }));
  }

  get(ref: IssueRef): LocatedIssue | undefined {
    const issue = this.model.get(ref.folderUri, ref.issueId) ?? this.pushChecks.get(ref.folderUri)?.issues.find((i) => i.id === ref.issueId);
    return issue ? { folderUri: ref.folderUri, uri: this.uriOf(ref.folderUri, issue.path), issue } : undefined;
  }

  // ---- push checks

  pushCheckOf(folderUri: string): PushCheckResult | undefined {
    return this.pushChecks.get(folderUri);
  }

  pushCheckFolders(): string[] {
    return [...this.pushChecks.keys()];
  }

  /** A folder's check before a push (undefined: forgotten); every view hears of it. */
  setPushCheck(folderUri: string, result: PushCheckResult | undefined): void {
    if (result) this.pushChecks.set(folderUri, result);
    else this.pushChecks.delete(folderUri);
    void Promise.resolve(this.state.update(PUSH_CHECKS_KEY, Object.fromEntries(this.pushChecks))).catch((e: unknown) => this.log(l10n.t('The check before a push could not be kept: {0}', errorMessage(e))));
    this.changed.fire({});
  }

  /** Matches findings of a folder against the company's policies as the folder's own are (pushCheck.ts). */
  matchPoliciesFor(folderUri: string, issues: readonly StoredIssue[]): void {
    this.matchPolicies(folderUri, issues);
  }

  dismissalOf(issue: StoredIssue): Dismissal | undefined { return this.model.dismissalOf(issue); }
  isShown(issue: StoredIssue, hideFalsePositives: boolean): boolean { return this.model.isShown(issue, hideFalsePositives); }
  shownCount(hideFalsePositives: boolean): number { return this.model.shownCount(hideFalsePositives); }

  // ---- changing

  async dismiss(refs: IssueRef[], reason: DismissReason): Promise<number> {
    return this.model.dismiss(refs.map((r) => this.get(r)).filter((l): l is LocatedIssue => !!l), reason);
  }

  async restoreDismissed(refs: IssueRef[]): Promise<number> {
    return this.model.restore(refs.map((r) => this.get(r)).filter((l): l is LocatedIssue => !!l));
  }

  /** What a scan of the folder reports: only a completed one changes its findings (src/core/results). */
  apply(folderUri: string, e: ScanEvent, account?: string): Promise<void> {
    return this.model.apply(folderUri, e, account);
  }

  /** A scan attempt that ended before the service had the scan (upload cancelled or failed). */
  noteAttempt(folderUri: string, attempt: Omit<Attempt, 'at'>): void {
    this.model.noteAttempt(folderUri, attempt);
  }

  /** Refresh Results read every scan of a folder again. */
  replaceFolder(folderUri: string, perScan: RefreshedScan[]): Promise<void> {
    return this.model.replaceFolder(folderUri, perScan);
  }

  /** Ignore This Scan: that scan only; earlier findings stay. */
  forgetScan(scanId: string): boolean {
    return this.model.forgetScan(scanId);
  }

  /**
   * Takes findings out of view because their fix is applied; `blocks` marks each fix in its
   * file, so the finding comes back when the file no longer has it (core/results/leftFindings.ts).
   */
  takeOut(refs: IssueRef[], blocks?: (issueId: string) => string[][] | undefined): LocatedIssue[] {
    const out = this.model.takeOut(refs, blocks).map((l) => ({ ...l, uri: this.uriOf(l.folderUri, l.issue.path) }));
    // A push check's finding fixed in the working tree leaves its group; the verdict stays until checked again.
    for (const ref of refs) {
      if (out.some((l) => l.folderUri === ref.folderUri && l.issue.id === ref.issueId)) continue;
      const check = this.pushChecks.get(ref.folderUri);
      const issue = check?.issues.find((i) => i.id === ref.issueId);
      if (!check || !issue) continue;
      check.issues = check.issues.filter((i) => i !== issue);
      out.push({ folderUri: ref.folderUri, uri: this.uriOf(ref.folderUri, issue.path), issue });
    }
    if (out.length) this.changed.fire({});
    return out;
  }

  /** Puts findings taken out back as they were (the editor refused the fix's edit). */
  putBack(refs: readonly IssueRef[]): void {
    this.model.putBack(refs);
  }

  /** Whether a finding is out of view because its fix is applied, and its file still has the fix. */
  isFixed(ref: IssueRef): boolean {
    return this.model.isFixed(ref.folderUri, ref.issueId);
  }

  /** The finding as it was when its fix took it out of view. */
  fixedFinding(ref: IssueRef): LocatedIssue | undefined {
    const l = this.model.folder(ref.folderUri)?.left?.find((x) => x.issue.id === ref.issueId && x.how === 'fixed');
    return l ? { folderUri: ref.folderUri, uri: this.uriOf(ref.folderUri, l.issue.path), issue: l.issue } : undefined;
  }

  /** The folder and path of a file through which findings left (ReturningFindings). */
  leftFileOf(uri: vscode.Uri): { folderUri: string; path: string } | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return undefined;
    const folderUri = folder.uri.toString();
    if (!this.model.hasLeft(folderUri)) return undefined;
    const path = relativeTo(folder.uri, uri);
    return this.model.leftIn(folderUri, path).length ? { folderUri, path } : undefined;
  }

  foldersWithLeft(): string[] {
    return this.model.folderUris().filter((f) => this.model.hasLeft(f));
  }

  /** Brings back the findings of these files (all of the folder's) whose fix or deleted code is no longer gone. */
  revisit(folderUri: string, paths?: string[]): Promise<number> {
    return this.model.revisit(folderUri, paths);
  }

  /** Forgets everything: findings, scans waited for, notes and local dismissals. */
  clear(): void {
    this.model.clear();
  }

  private followEdits(e: vscode.TextDocumentChangeEvent): void {
    if (!e.contentChanges.length || e.document.uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(e.document.uri);
    if (!folder) return;
    this.model.followEdits(folder.uri.toString(), relativeTo(folder.uri, e.document.uri), e.contentChanges);
  }

  /** Findings of files the watcher reported deleted leave, when those files are really gone (deletions.ts). */
  private async dropFiles(deleted: vscode.Uri): Promise<void> {
    const d = deleted.toString();
    for (const folderUri of this.model.folderUris()) {
      const under = this.model.issuesIn(folderUri).map((i) => i.path).filter((relPath) => {
        const u = this.uriOf(folderUri, relPath).toString();
        return u === d || u.startsWith(d + '/');
      });
      if (!under.length) continue;
      const gone = await missingNow(under, (relPath) => existsNow(this.uriOf(folderUri, relPath).fsPath));
      if (gone.size) this.model.dropFiles(folderUri, (relPath) => gone.has(relPath));
    }
  }

  /** Writes the state now; writes never overlap, and the last one wins. */
  persist(): Promise<void> {
    return this.storage.write();
  }

  override dispose(): void {
    this.storage.flushSync();
    super.dispose();
  }
}

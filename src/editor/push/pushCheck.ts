// Would CI block this? Check Staged Changes and Check Branch Before Push scan what would
// leave the machine (core/workspace/outgoing.ts: the index's version of staged files, or the
// branch's changed files as HEAD has them) as one partial scan, or, for a branch whose CI
// names its gate, the commit whole as CI scans it (checkScans.ts); the verdict
// (core/results/pushVerdict.ts) is by CI's gate where one is found, and stands until the
// checked content changes. With codeScanner.checkBeforePush = afterCommit the branch is checked after each
// commit, in the background. The verdict is never "would pass" when it could not check.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PartialKind } from '../../core/scan/endWords';
import type { StoredIssue } from '../../core/issues';
import { digest, place, rangeOfLineText } from '../../core/results';
import { gateFlags, gateWhere, pushVerdict, verdictText, type PushVerdict, type UnknownReason } from '../../core/results/pushVerdict';
import { errorMessage } from '../../core/errors';
import { branchChanges, stagedChanges, writeOutgoing, type Outgoing, type OutgoingKind } from '../../core/workspace/outgoing';
import { skipReasonLabel } from '../../core/workspace/selectFiles';
import type { PushCheckResult } from '../results/resultsStore';
import { readText } from '../workspaceFiles';
import { clause, introducedByBranch, scanCommit, scanFiles, unreachable } from './checkScans';
import { askWithProgress, folderGate, openGate, type FolderGate } from './ciGateOf';
import type { ServiceGateOutcome } from '../../core/results/serviceGate';
import type { FeatureCtx } from '../controllers';
import { DisposableObject } from '../disposable';
import { scannableFolders } from '../scan/fileChoice';
import type { ScanOptions } from '../scan/scanController';
import { l10n } from '../../core/text/l10n';

/** What one folder's check ended with, for the caller (commands, the agent tool). */
export interface CheckedFolder { folder: string; folderUri: string; verdict: PushVerdict; text: string; files: string[]; deleted: string[] }

const TITLES: Record<OutgoingKind, string> = { get staged() { return l10n.t('Checking staged changes'); }, get branch() { return l10n.t('Checking the branch before push'); } };
const PARTIAL_OF: Record<OutgoingKind, PartialKind> = { staged: 'staged', branch: 'changed' };

export class PushCheck extends DisposableObject {
  private readonly watched = new Map<string, vscode.Disposable>();
  private recheckTimer: NodeJS.Timeout | undefined;
  private lastHead = new Map<string, string>();

  constructor(private readonly ctx: Pick<FeatureCtx, 'extension' | 'store' | 'scans' | 'session' | 'consent' | 'policies' | 'notifier' | 'log' | 'commands'>) {
    super();
    // The checked content changes (a commit, a staged change): the verdict is marked old.
    this.watchRepositories();
    this.own(vscode.workspace.onDidChangeWorkspaceFolders(() => this.watchRepositories()));
    // Signed out, nothing is matched or asked: a verdict is no longer known, and says why.
    this.own(this.ctx.session.onDidChangeSession(() => { if (this.ctx.session.stateKnown && !this.ctx.session.isSignedIn()) this.forgetVerdicts(); }));
    this.own({ dispose: () => { for (const d of this.watched.values()) d.dispose(); clearTimeout(this.recheckTimer); } });
    // A verdict kept from before the reload stands only if what it checked is still the same.
    if (vscode.workspace.isTrusted && this.ctx.store.pushCheckFolders().length) this.contentMayHaveChanged();
  }

  /** Checks what would leave the machine, in every git folder; `o.quiet`: in the background (after a commit). */
  async check(what: OutgoingKind, o: { quiet?: boolean; options?: ScanOptions; folder?: vscode.WorkspaceFolder } = {}): Promise<CheckedFolder[]> {
    const folders = o.folder ? [o.folder] : scannableFolders();
    const out: CheckedFolder[] = [];
    for (const folder of folders) {
      const r = await this.checkFolder(folder, what, o);
      if (r) out.push(r);
    }
    if (!out.length && !o.quiet) void this.ctx.notifier.info(l10n.t('No folder of this workspace is a git repository: there is nothing a push would send.'));
    return out;
  }

  private async checkFolder(folder: vscode.WorkspaceFolder, what: OutgoingKind, o: { quiet?: boolean; options?: ScanOptions }): Promise<CheckedFolder | undefined> {
    const folderUri = folder.uri.toString();
    // CI's gate decides where the repository (or the setting) names one; read first, for CI's project too.
    const gate: FolderGate | undefined = await folderGate(folder).catch((e: unknown) => {
      this.ctx.log.warn(`${folder.name}: CI's configuration could not be read (${errorMessage(e)}); the company's policies decide.`);
      return undefined;
    });
    const unknown = (reason: UnknownReason, detail?: string, outgoing?: Outgoing): CheckedFolder => this.settle(folder, what, {
      kind: 'unknown', what, reason, ...(detail ? { detail } : {}), ...(gate ? { gate: { gate: gate.gate, source: gate.source } } : {}),
    }, outgoing, [], o);
    if (!vscode.workspace.isTrusted) return unknown('not-checked', l10n.t('the workspace is in Restricted Mode, where nothing is uploaded'));
    let outgoing: Outgoing;
    try {
      outgoing = what === 'staged' ? await stagedChanges(folder.uri.fsPath) : await branchChanges(folder.uri.fsPath);
    } catch (e) {
      // Not a repository: nothing to say for this folder. Another failure: the check's own.
      if (/not a git repository|no git repository|could not find/i.test(errorMessage(e))) return undefined;
      return unknown('not-checked', l10n.t('git could not say what would leave the machine ({0})', errorMessage(e).replace(/[.\s]+$/, '')));
    }
    if (!outgoing.files.length) {
      return unknown('nothing-to-check', what === 'staged' ? (outgoing.deleted.length ? l10n.t('only deletions are staged') : l10n.t('no changes are staged')) : l10n.t('the branch has no commits its upstream does not have'), outgoing);
    }
    if (!this.ctx.session.isSignedIn()) return unknown('signed-out', undefined, outgoing);
    // The gate's flags, never the command line (it may carry an inline credential).
    this.ctx.log.info(gate ? `${folder.name}: CI's gate is ${gate.gate.kind === 'unreadable' ? `unreadable (${gate.gate.why})` : gateFlags(gate.gate)}, read in ${gateWhere(gate)}.` : `${folder.name}: no CI gate in the repository's CI configuration; the company's policies decide.`);
    // A branch with CI's gate is judged as CI will judge it: the whole commit. Else what would leave.
    const wholeCommit = what === 'branch' && !!gate && ['block-on', 'fail', 'fail-on'].includes(gate.gate.kind);
    if (!o.quiet && !(await this.ctx.consent.ask(wholeCommit ? 'workspace' : 'changedFiles', o.options?.confirmed))) return undefined;
    if (o.quiet && this.ctx.consent.needed()) return unknown('not-checked', l10n.t('the first scan of this workspace has not been allowed yet'), outgoing);
    const root = path.join((this.ctx.extension.storageUri ?? this.ctx.extension.globalStorageUri).fsPath, 'push-check', randomBytes(6).toString('hex'));
    try {
      await fsp.mkdir(root, { recursive: true, mode: 0o700 });
      // The policies as they are now, read while the scan runs: one added or removed since
      // the last read counts in this check.
      const checkedAt = Date.now();
      const policiesRead = this.ctx.policies.refresh();
      const asked = { title: TITLES[what], partialOf: PARTIAL_OF[what], quiet: o.quiet, options: o.options, ...(gate?.projectName ? { projectName: gate.projectName } : {}) };
      const attempt = wholeCommit
        ? await scanCommit(this.ctx, folder, root, asked)
        : await writeOutgoing(folder.uri.fsPath, outgoing, root).then((written) => scanFiles(this.ctx, folder, root, [...written.keys()], asked));
      if (attempt.kind === 'unknown') return unknown(attempt.reason, attempt.detail, outgoing);
      const { found, scanId, incomplete } = attempt.scanned;
      await policiesRead;
      // The service judges CI's rules on the scan, as CI would ask it.
      let service: ServiceGateOutcome | undefined;
      if (gate && (gate.gate.kind === 'block-on' || gate.gate.kind === 'fail')) {
        const client = await this.ctx.session.getClient({ ask: false });
        const answer = client ? await askWithProgress(client, scanId, gate.gate, o.quiet) : undefined;
        if (!answer) return unknown('signed-out', undefined, outgoing);
        if (answer.kind === 'cancelled') return unknown('not-checked', l10n.t('the check was cancelled'), outgoing);
        if (answer.kind === 'failed') {
          return unreachable(answer.error)
            ? unknown('unreachable', l10n.t('the service could not be reached ({0})', clause(errorMessage(answer.error))), outgoing)
            : unknown('not-checked', l10n.t('the service did not say whether CI\'s gate blocks ({0})', clause(errorMessage(answer.error))), outgoing);
        }
        service = answer.outcome;
      }
      if (!gate && (this.ctx.policies.readAt ?? 0) < checkedAt && this.ctx.policies.count !== undefined) {
        return unknown('policies-unreadable', l10n.t('the company\'s policies could not be read again for this check'), outgoing);
      }
      // The verdict is of every finding of what was sent, whatever the working tree holds now.
      this.ctx.store.matchPoliciesFor(folderUri, found);
      const judged = gate ? { gate: gate.gate, source: gate.source } : undefined;
      // A file of what would leave the machine that the scan left out (a setting, its size, a credential) was not checked.
      const leftOut = attempt.scanned.leftOut;
      if (leftOut.length) {
        const first = leftOut[0]!;
        incomplete.push(leftOut.length === 1
          ? l10n.t('{0} was left out of the scan ({1})', first.path, skipReasonLabel(first.reason))
          : l10n.t('{0} files were left out of the scan, {1} among them ({2})', leftOut.length, first.path, skipReasonLabel(first.reason)));
      }
      const { commit } = attempt.scanned;
      const verdict = pushVerdict({
        what, files: attempt.scanned.files, findings: found, policies: this.ctx.policies.count,
        ...(incomplete.length ? { incomplete: incomplete.join('; ') } : {}), ...(judged ? { gate: judged } : {}), ...(service ? { service } : {}), ...(commit ? { commit } : {}),
      });
      // Each says what it trips: CI's rules where the gate decided (the policies say it otherwise).
      const blocking = verdict.kind === 'blocked' ? verdict.blocking.map((b) => Object.assign(b.issue, b.rules ? { blocksCi: b.rules } : {})) : [];
      // How many of them the branch brought: against the base commit's own scan.
      if (verdict.kind === 'blocked' && attempt.scanned.commit) {
        const news = await introducedByBranch(this.ctx, folder, attempt.scanned, outgoing.against, blocking);
        // A blocking finding the service named but the lists did not hold cannot be told apart.
        verdict.branch = 'unknown' in news ? news
          : (verdict.count ?? 0) > blocking.length ? { unknown: l10n.t('the service named blocking findings its lists did not hold') }
            : { introduced: blocking.filter((i) => news.introduced.has(i.id)).length };
        if ('introduced' in news) for (const i of blocking) if (news.introduced.has(i.id)) i.newInBranch = true;
      }
      // Shown in the files as they are now: at the service's line where the file is the content
      // checked, else listed as changed since (a file gone from the working tree is not shown).
      const texts = new Map<string, string>();
      for (const p of new Set(blocking.map((i) => i.path))) {
        const text = await attempt.scanned.checkedText(p);
        if (text !== undefined) texts.set(p, text);
      }
      // Where the file differs, each at the line that reads as its line did in what was checked.
      for (const issue of blocking) {
        const checked = texts.get(issue.path);
        const now = checked === undefined ? undefined : await readText(folderUri, issue.path);
        if (checked === undefined || now === undefined || digest(now) === digest(checked)) continue;
        const lineText = checked.split(/\r\n|\r|\n/)[issue.line - 1] ?? '';
        const range = rangeOfLineText(now, lineText, issue.line - 1);
        if (range) Object.assign(issue, { range, lineText });
      }
      const shown = await place(folderUri, blocking, { readText, trustLines: (p, text) => texts.get(p) !== undefined && digest(texts.get(p)!) === digest(text), digests: {} });
      return this.settle(folder, what, verdict, outgoing, shown, o);
    } catch (e) {
      return unknown('not-checked', errorMessage(e).replace(/[.\s]+$/, ''), outgoing);
    } finally {
      await fsp.rm(root, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Keeps the verdict for the views and says it: a notification only when CI would block. */
  private settle(folder: vscode.WorkspaceFolder, what: OutgoingKind, verdict: PushVerdict, outgoing: Outgoing | undefined, issues: StoredIssue[], o: { quiet?: boolean }): CheckedFolder {
    const folderUri = folder.uri.toString();
    const text = verdictText(verdict);
    const result: PushCheckResult = { what, verdict, identity: outgoing?.identity ?? '', at: new Date().toISOString(), issues };
    this.ctx.store.setPushCheck(folderUri, result);
    this.ctx.log.info(`${folder.name}: ${text}`);
    // Where CI's gate was read, one click away.
    const open = verdict.gate ? [{ title: l10n.t('Open CI\'s Gate'), run: () => openGate(folder, verdict.gate!) }] : [];
    if (verdict.kind === 'blocked') {
      void this.ctx.notifier.warn(`${folder.name}: ${text}`, { title: l10n.t('Show Blocking Findings'), run: () => this.ctx.commands.execute('codeScanner.showPushCheck') }, ...open);
    } else if (!o.quiet) {
      // Said where the check was asked for; the status bar keeps it until the content changes.
      void this.ctx.notifier.info(`${folder.name}: ${text}`, ...open);
    }
    return { folder: folder.name, folderUri, verdict, text, files: outgoing?.files ?? [], deleted: outgoing?.deleted ?? [] };
  }

  /** Every verdict becomes unknown (signed out), its blocking findings no longer listed. */
  private forgetVerdicts(): void {
    for (const folderUri of this.ctx.store.pushCheckFolders()) {
      const check = this.ctx.store.pushCheckOf(folderUri)!;
      if (check.verdict.kind === 'unknown' && check.verdict.reason === 'signed-out') continue;
      const verdict: PushVerdict = { kind: 'unknown', what: check.what, reason: 'signed-out', ...(check.verdict.gate ? { gate: check.verdict.gate } : {}) };
      this.ctx.store.setPushCheck(folderUri, { ...check, verdict, issues: [] });
    }
  }

  /** Each git folder's index and HEAD, watched: a change marks the verdict old, and (afterCommit) a commit checks the branch. */
  private watchRepositories(): void {
    for (const folder of scannableFolders()) {
      const key = folder.uri.toString();
      if (this.watched.has(key)) continue;
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.git/{index,HEAD,refs/heads/**}'));
      const changed = () => this.contentMayHaveChanged();
      this.watched.set(key, vscode.Disposable.from(w, w.onDidChange(changed), w.onDidCreate(changed), w.onDidDelete(changed)));
    }
  }

  private contentMayHaveChanged(): void {
    clearTimeout(this.recheckTimer);
    this.recheckTimer = setTimeout(() => void this.reviewVerdicts(), 500);
  }

  /** A verdict whose content changed is marked old; a new commit checks the branch when the setting says so. */
  private async reviewVerdicts(): Promise<void> {
    for (const folder of scannableFolders()) {
      const folderUri = folder.uri.toString();
      const check = this.ctx.store.pushCheckOf(folderUri);
      if (check && !check.outdated) {
        const now = await (check.what === 'staged' ? stagedChanges(folder.uri.fsPath) : branchChanges(folder.uri.fsPath)).catch(() => undefined);
        // A check that ended while git was read is newer than what was compared: it stays.
        if (now?.identity !== check.identity && this.ctx.store.pushCheckOf(folderUri) === check) this.ctx.store.setPushCheck(folderUri, { ...check, outdated: true });
      }
      if (vscode.workspace.getConfiguration('codeScanner', folder).get<string>('checkBeforePush') !== 'afterCommit') continue;
      const head = await branchChanges(folder.uri.fsPath).then((o) => o.identity, () => undefined);
      const before = this.lastHead.get(folderUri);
      if (head) this.lastHead.set(folderUri, head);
      if (head && before !== undefined && head !== before) {
        this.ctx.log.info(`${folder.name}: a commit was made; the branch is checked before it is pushed (codeScanner.checkBeforePush).`);
        await this.check('branch', { quiet: true, folder }).catch((e: unknown) => this.ctx.log.warn(`The check after the commit did not run: ${errorMessage(e)}`));
      }
    }
  }

  /** Starts following commits (afterCommit): the HEAD each folder has now is the one a commit moves from. */
  async followCommits(): Promise<void> {
    for (const folder of scannableFolders()) {
      const head = await branchChanges(folder.uri.fsPath).then((o) => o.identity, () => undefined);
      if (head) this.lastHead.set(folder.uri.toString(), head);
    }
  }
}

// The agent tools, once, for every way an agent reaches them: the editor's language model
// tools (lmTools.ts) and the MCP bridge's local channel (mcpChannel.ts). They make the checks
// the commands make (workspace trust, sign-in, the first-scan answer, files chosen as a scan
// chooses them, fixes only for uploaded files while the code is as scanned) and within a
// request budget. What sends code away or changes a file is confirmed by the person first:
// each way of calling says how (`Confirm`); what is carried out is exactly what was shown
// (a digest of it). What they return marks the service's and the repository's text as
// untrusted data.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ScanBudget } from '../../core/agent/scanBudget';
import { byUrgency, changeListing, compactFinding, fullFinding, listSummary, matchesFilter, overallVerdict, pageOfRows, untrustedEnvelope, type FindingFilter, type FindingRow } from '../../core/agent/toolText';
import { TOOL_NAMES } from '../../core/agent/toolDefinitions';
import { fingerprint } from '../../core/results';
import { escapeMarkdown, oneLine } from '../../core/text/untrusted';
import { skipReasonLabel } from '../../core/workspace/selectFiles';
import { selectForUpload } from './agentSelection';
import { branchChanges, stagedChanges } from '../../core/workspace/outgoing';
import type { PushCheck } from '../push/pushCheck';
import type { FeatureCtx } from '../controllers';
import { checkFix } from '../fixes/fixTargets';
import type { LocatedIssue } from '../results/resultsStore';
import { folderNameOf } from '../workspaceFiles';
import { serviceHost } from '../settings';
import { scannableFolders } from '../scan/fileChoice';
import { l10n, plural } from '../../core/text/l10n';
import { verificationOutcome, verificationPlan, type VerificationAnswer } from '../../core/results/fixVerification';
import { verifyFixesMode } from '../fixes/fixChecks';
import type { IssueRef } from '../commands/args';

const MAX_LIST = 200;
/** How long Apply Fix with verify waits for the service's check of the fix. */
const VERIFY_WAIT_MS = 180_000;
const DEFAULT_LIST = 50;

/** What a call must have confirmed by the person before it is carried out. */
export interface Confirmation {
  /** A title for the editor's tool confirmation. */
  title: string;
  /** The whole of what would happen, for the editor's tool confirmation. */
  markdown: vscode.MarkdownString;
  /** The question as a notification asks it, and its answer that goes ahead. */
  question: string;
  accept: string;
  /** Shown before the question (the fix's diff), when a notification asks. */
  show?: () => Promise<unknown>;
  /** What exactly was shown: only that is carried out. */
  digest: string;
  /** Where a notification asks (an agent outside the editor): a first answer that also saves the file. */
  alsoSave?: string;
  /** Takes back what `show` opened when the answer is no (or the request was withdrawn). */
  onDeclined?: () => Promise<unknown>;
}

/**
 * How a call's confirmation is answered: true to go ahead (`save`: and save, where offered),
 * false when the person declined, or why it cannot be carried out.
 */
export type Confirm = (c: Confirmation) => Promise<boolean | 'save' | { refused: string }>;

/** `progress`: says what a long call is doing (the MCP bridge passes it on as progress). */
export interface ToolCall { tool: string; input: Record<string, unknown>; agent: string; progress?: (message: string) => void }
export interface ToolAnswer { text: string; isError?: boolean }

/** What a call would do: said at once (a refusal, a read), or carried out once confirmed. */
type Plan =
  | { answer: ToolAnswer; invocationMessage?: string }
  | { confirmation: Confirmation; invocationMessage: string; carryOut: (o?: { save?: boolean }) => Promise<ToolAnswer> };

const answer = (text: string, isError = false): { answer: ToolAnswer } => ({ answer: { text, ...(isError ? { isError: true } : {}) } });

/** A fence longer than any run of backticks in the text, so a diff cannot end its code block. */
function fenced(body: string): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}diff\n${body}\n${fence}`;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The workspace folder a call names (by name or path), all of them when it names none; a sentence when it names one not open here. */
function foldersNamed(input: Record<string, unknown>): vscode.WorkspaceFolder[] | string {
  const all = scannableFolders();
  const named = str(input.folder)?.trim();
  if (!named) return all;
  // A folder's name, or an absolute path of (or in) one.
  const inside = (f: vscode.WorkspaceFolder) => {
    const rel = path.relative(f.uri.fsPath, named);
    return path.isAbsolute(named) && (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)));
  };
  const found = all.filter((f) => f.name === named || inside(f));
  return found.length ? found : l10n.t('The folder {0} is not open in this window (open: {1}).', oneLine(named, 100), all.map((f) => f.name).join(', ') || 'none');
}

export class AgentToolHost {
  /** The agents' scans a minute: one budget for this editor, whoever asks. A new one for tests that scan as agents in turn. */
  budget = new ScanBudget();
  /** Per agent: the findings its previous scan returned, so the next answer marks what is new since. */
  private readonly seen = new Map<string, Set<string>>();

  constructor(private readonly ctx: Pick<FeatureCtx, 'store' | 'scans' | 'fixes' | 'fixChecks' | 'consent' | 'session' | 'log'>, private readonly push?: PushCheck) {}

  private rows(folders?: readonly vscode.WorkspaceFolder[]): (FindingRow & { located: LocatedIssue })[] {
    const keep = folders && new Set(folders.map((f) => f.uri.toString()));
    return this.ctx.store.all()
      .filter((l) => !keep || keep.has(l.folderUri))
      .map((located) => ({ finding: located.issue, folder: folderNameOf(located.folderUri), dismissed: !!this.ctx.store.dismissalOf(located.issue), located }));
  }

  /** A finding in view as a list row (the new findings a fix introduced). */
  private rowOf(folderUri: string, issueId: string) {
    const located = this.ctx.store.get({ folderUri, issueId });
    return located && compactFinding({ finding: located.issue, folder: folderNameOf(folderUri), dismissed: !!this.ctx.store.dismissalOf(located.issue) });
  }

  private findRow(input: Record<string, unknown>) {
    const id = str(input.id) ?? '';
    const folders = foldersNamed(input);
    if (typeof folders === 'string') return undefined;
    const row = this.rows(folders).find((r) => r.finding.id === id);
    if (row) return row;
    // A finding of the last check before a push (not among the folder's own findings): its id works too.
    for (const folderUri of this.ctx.store.pushCheckFolders()) {
      if (folders && !folders.some((f) => f.uri.toString() === folderUri)) continue;
      const located = this.ctx.store.get({ folderUri, issueId: id });
      if (located) return { finding: located.issue, folder: folderNameOf(folderUri), dismissed: !!this.ctx.store.dismissalOf(located.issue), located };
    }
    return undefined;
  }

  /** What the call would do and the confirmation it needs; nothing is carried out. */
  async plan(call: ToolCall): Promise<Plan> {
    const input = call.input ?? {};
    switch (call.tool) {
      case TOOL_NAMES.listFindings: return this.list(input);
      case TOOL_NAMES.getFinding: return this.get(input);
      case TOOL_NAMES.scanFiles: return this.scanPlan(input, call.agent);
      case TOOL_NAMES.applyFix: return this.fixPlan(input, call.agent, call.progress);
      case TOOL_NAMES.checkBeforePush: return this.pushPlan(input, call.agent);
      default: return answer(l10n.t('There is no tool {0}.', oneLine(call.tool, 80)), true);
    }
  }

  /** Runs a call: a read answers at once; what needs the person's yes is asked with `confirm`, then carried out. */
  async run(call: ToolCall, confirm: Confirm): Promise<ToolAnswer> {
    const p = await this.plan(call);
    if ('answer' in p) return p.answer;
    let yes: boolean | 'save' | { refused: string } = false;
    try {
      yes = await confirm(p.confirmation);
    } catch (e) {
      this.ctx.log.warn(`An agent's confirmation could not be asked: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (typeof yes === 'object' || !yes) await p.confirmation.onDeclined?.().catch(() => undefined);
    if (typeof yes === 'object') return { text: yes.refused, isError: true };
    if (!yes) return { text: l10n.t('The person declined in the editor ({0}); nothing was done. Do not ask again for the same thing unless they tell you to.', p.confirmation.title.replace(/^Code Scanner: /, '').replace(/\?$/, '')) };
    return p.carryOut({ save: yes === 'save' });
  }

  private list(input: Record<string, unknown>): Plan {
    const folders = foldersNamed(input);
    if (typeof folders === 'string') return answer(folders, true);
    if (!this.ctx.store.hasResults()) return answer(l10n.t('There are no scan results in this workspace yet. Scan first ({0}, or Code Scanner: Scan Workspace in the editor).', TOOL_NAMES.scanFiles));
    const f = input as FindingFilter & { limit?: unknown; offset?: unknown };
    const limit = Math.min(Math.max(1, Math.floor(Number(f.limit) || DEFAULT_LIST)), MAX_LIST);
    const offset = Math.max(0, Math.floor(Number(f.offset) || 0));
    const matched = this.rows(folders).filter((r) => matchesFilter(r, f)).sort(byUrgency);
    const page = pageOfRows(matched.map(compactFinding), offset, limit);
    const shown = page.shown;
    const summary = listSummary({ total: matched.length, offset, shown: shown.length, next: page.next, max: MAX_LIST });
    return answer(untrustedEnvelope(summary, shown));
  }

  private get(input: Record<string, unknown>): Plan {
    const row = this.findRow(input);
    if (!row) return answer(l10n.t('No finding with that id is in the results. List findings first ({0}); ids change when a folder is scanned again.', TOOL_NAMES.listFindings), true);
    // Only our own words before the envelope: the id and the folder are data.
    return answer(untrustedEnvelope(l10n.t('The finding asked for:'), fullFinding(row)));
  }

  private async scanPlan(input: Record<string, unknown>, agent: string): Promise<Plan> {
    if (!vscode.workspace.isTrusted) return answer(l10n.t('Refused: scanning uploads files, so it needs a trusted workspace. The person can trust it in the editor (Workspaces: Manage Workspace Trust).'), true);
    if (!this.ctx.session.isSignedIn()) return answer(l10n.t('Nothing was scanned: the editor is not signed in to the code scanning service. The person signs in with Code Scanner: Sign In.'), true);
    const folders = foldersNamed(input);
    if (typeof folders === 'string') return answer(folders, true);
    const kind = input.wholeFolder === true ? 'workspace' : input.changed === true ? 'changedFiles' : 'givenFiles';
    if (this.ctx.consent.needed()) {
      // The first-scan question is the person's: asked in the editor, never answered by an agent.
      void this.ctx.consent.ask(kind, false, agent);
      return answer(l10n.t('Nothing was scanned: the person has not yet allowed scans of this workspace. Code Scanner asks them in the editor now; scan again once they have answered.'), true);
    }
    const budget = this.budget.refusal();
    if (budget) return answer(budget, true);
    const plan = await selectForUpload(kind, input, folders);
    if (plan.problem) return answer(untrustedEnvelope(l10n.t('Nothing was scanned. Why:'), { reason: plan.problem }), true);
    const files = plan.selections.flatMap(({ folder, uploaded }) => uploaded.files.map((f) => `${folder.name}/${f.path}`));
    const left = [
      ...plan.selections.flatMap(({ folder, uploaded }) => uploaded.skipped.map((s) => `${folder.name}/${s.path} (${skipReasonLabel(s.reason)})`)),
      ...(plan.outside ?? []).map((p) => l10n.t('{0} (outside the workspace folders)', p)),
    ];
    if (!files.length) return answer(untrustedEnvelope(l10n.t('Nothing was scanned: no file would be uploaded. The files left out, with why:'), { leftOut: left.slice(0, MAX_LIST) }));
    const host = serviceHost();
    const shown = files.slice(0, 20).map((f) => `- ${escapeMarkdown(f)}`).join('\n') + (files.length > 20 ? l10n.t('\n- …and {0} more', files.length - 20) : '');
    const what = kind === 'workspace' ? l10n.t('every file of {0}', folders.map((f) => f.name).join(', ')) : plural(files.length, l10n.t('{0} file'), l10n.t('{0} files'));
    return {
      invocationMessage: plural(files.length, l10n.t('Scanning {0} file'), l10n.t('Scanning {0} files')),
      confirmation: {
        title: l10n.t('Code Scanner: upload files for scanning?'),
        markdown: new vscode.MarkdownString(l10n.t('Upload {0} of this workspace to {1} for scanning:\n\n{2}', plural(files.length, l10n.t('{0} file'), l10n.t('{0} files')), escapeMarkdown(host), shown) +
          (left.length ? l10n.t('\n\nLeft out (not uploaded): {0}{1}', left.slice(0, 10).map(escapeMarkdown).join(', '), left.length > 10 ? ', …' : '') : '')),
        question: l10n.t('An AI agent ({0}) asks to upload {1} to {2} for a scan: {3}{4}. Allow it?', oneLine(agent, 60), what, host, files.slice(0, 5).join(', '), files.length > 5 ? l10n.t(', and {0} more', files.length - 5) : ''),
        accept: l10n.t('Upload and Scan'),
        digest: createHash('sha256').update(files.join('\n')).digest('hex'),
      },
      carryOut: () => this.scanNow(kind, plan, agent, files.length, left),
    };
  }

  private async scanNow(kind: 'workspace' | 'changedFiles' | 'givenFiles', plan: Awaited<ReturnType<typeof selectForUpload>>, agent: string, files: number, left: string[]): Promise<ToolAnswer> {
    const budget = this.budget.refusal();
    if (budget) return { text: budget, isError: true };
    this.budget.spend();
    // The first-scan question was answered (checked above); the person confirmed this upload.
    // The selections the person confirmed are the ones packaged: the files are not chosen again.
    const summary = await this.ctx.scans.scan(kind, { confirmed: true }, plan.uris, plan.selections);
    if (!summary) return { text: l10n.t('Nothing was scanned: another scan is running in the editor, or the editor could not reach the service. Try again in a moment.'), isError: true };
    if (summary.error) return { text: untrustedEnvelope(l10n.t('The scan stopped; what the service or the editor said:'), { error: summary.error.message, continuesOnService: summary.continuesOnService }), isError: true };
    const scanned = new Set(plan.selections.flatMap(({ folder, uploaded }) => uploaded.files.map((f) => `${folder.uri.toString()}\n${f.path}`)));
    const found = this.rows().filter((r) => scanned.has(`${r.located.folderUri}\n${r.finding.path}`) && !r.dismissed);
    const key = (r: (typeof found)[number]) => `${r.located.folderUri}\n${fingerprint(r.finding)}`;
    const before = this.seen.get(agent);
    this.seen.set(agent, new Set(found.map(key)));
    const fresh = before ? found.filter((r) => !before.has(key(r))).length : undefined;
    const listed = found.slice(0, MAX_LIST).map((r) => ({ ...compactFinding(r), ...(before && !before.has(key(r)) ? { newSinceYourLastScan: true } : {}) }));
    const scansDone = summary.folders.map((f) => ({ folder: f.folder, filesScanned: f.files, ...(f.scanId ? { scanId: f.scanId } : {}), ...(f.note ? { note: f.note } : {}) }));
    const since = fresh === undefined ? l10n.t('This is your first scan in this session: nothing is marked new since a previous one.') : plural(fresh, l10n.t('{0} finding is new since your previous scan (newSinceYourLastScan).'), l10n.t('{0} findings are new since your previous scan (newSinceYourLastScan).'));
    return { text: untrustedEnvelope(l10n.t('Scanned {0}; {1} in them. {2}', plural(files, l10n.t('{0} file'), l10n.t('{0} files')), plural(found.length, l10n.t('{0} finding'), l10n.t('{0} findings')), since), { scans: scansDone, findings: listed, ...(left.length ? { leftOut: left.slice(0, MAX_LIST) } : {}) }) };
  }

  private async pushPlan(input: Record<string, unknown>, agent: string): Promise<Plan> {
    if (!this.push) return answer(l10n.t('This editor cannot check before a push.'), true);
    const what = input.what === 'branch' ? 'branch' : input.what === 'staged' ? 'staged' : undefined;
    if (!what) return answer(l10n.t('Say what to check: what=staged (the staged changes) or what=branch (the branch before push).'), true);
    if (!vscode.workspace.isTrusted) return answer(l10n.t('Unknown whether CI would block this: the workspace is in Restricted Mode, where nothing is uploaded. The person can trust it in the editor.'), true);
    // At once: no question about an upload that cannot happen.
    if (!this.ctx.session.isSignedIn()) return answer(l10n.t('Unknown whether CI would block this: the editor is not signed in to the code scanning service, so nothing can be checked. The person can sign in in the editor (Code Scanner: Sign In).'), true);
    const folders = foldersNamed(input);
    if (typeof folders === 'string') return answer(folders, true);
    if (this.ctx.consent.needed()) {
      void this.ctx.consent.ask('changedFiles', false, agent);
      return answer(l10n.t('Unknown whether CI would block this: the person has not yet allowed scans of this workspace. Code Scanner asks them in the editor now; check again once they have answered.'), true);
    }
    const budget = this.budget.refusal();
    if (budget) return answer(budget, true);
    const outgoing = (await Promise.all(folders.map(async (f) => ({ f, o: await (what === 'staged' ? stagedChanges(f.uri.fsPath) : branchChanges(f.uri.fsPath)).catch(() => undefined) }))))
      .filter((x) => x.o?.files.length);
    if (!outgoing.length) return answer(l10n.t('Unknown whether CI would block this: {0}, so nothing would leave the machine.', what === 'staged' ? l10n.t('no changes are staged') : l10n.t('the branch has no commits its upstream does not have')));
    const files = outgoing.flatMap(({ f, o }) => o!.files.map((p) => `${f.name}/${p}`));
    const host = serviceHost();
    return {
      invocationMessage: what === 'staged' ? l10n.t('Checking the staged changes') : l10n.t('Checking the branch before push'),
      confirmation: {
        title: l10n.t('Code Scanner: upload what would leave the machine, to check it?'),
        markdown: new vscode.MarkdownString(l10n.t('Upload {0} of {1} to {2} to check it against your company\'s policies:\n\n{3}{4}', what === 'staged' ? l10n.t('the staged version') : l10n.t('the committed version'), plural(files.length, l10n.t('{0} file'), l10n.t('{0} files')), escapeMarkdown(host), files.slice(0, 20).map((f) => `- ${escapeMarkdown(f)}`).join('\n'), files.length > 20 ? l10n.t('\n- …and {0} more', files.length - 20) : '')),
        question: l10n.t('An AI agent ({0}) asks to check {1}: {2} would be uploaded to {3}. Allow it?', oneLine(agent, 60), what === 'staged' ? l10n.t('the staged changes') : l10n.t('the branch before push'), plural(files.length, l10n.t('{0} file'), l10n.t('{0} files')), host),
        accept: l10n.t('Upload and Check'),
        digest: createHash('sha256').update(outgoing.map(({ o }) => o!.identity).join('\n')).digest('hex'),
      },
      carryOut: async () => {
        this.budget.spend();
        const checked = [];
        for (const { f } of outgoing) checked.push(...await this.push!.check(what, { folder: f, options: { confirmed: true } }));
        // Our own sentence before the envelope; each verdict's words quote the service (a
        // failed scan's reason, a refused gate's rule), so they go inside it.
        return { text: untrustedEnvelope(overallVerdict(checked.map((c) => c.verdict.kind)), checked.map((c) => ({
          folder: c.folder, verdict: c.verdict.kind, said: c.text, files: c.files, ...(c.deleted.length ? { deletedNotSent: c.deleted } : {}),
          ...(c.verdict.kind === 'blocked' ? { blocking: c.verdict.blocking.slice(0, MAX_LIST).map((b) => ({ ...compactFinding({ finding: b.issue, folder: c.folder, dismissed: false }), policies: b.policies.map((p) => ({ name: p.name, guidance: p.guidance })) })) } : {}),
          ...(c.verdict.kind === 'unknown' ? { reason: c.verdict.reason } : {}),
        }))) };
      },
    };
  }

  /**
   * What Apply Fix says of the check that follows a saved fix: that it follows, or with
   * `verify`, its outcome (waited for, within VERIFY_WAIT_MS, saying so as MCP progress).
   */
  private async verification(ref: IssueRef, saved: boolean, verify: boolean, progress?: (message: string) => void): Promise<VerificationAnswer> {
    const check = this.ctx.fixChecks.ofFixed(ref.folderUri, ref.issueId);
    const plan = verificationPlan({ followed: !!check, checksOn: !!check && verifyFixesMode(check.uri) !== 'off', saved, verify });
    if (plan !== 'wait') return plan;
    // The plan waits only for a check that is followed.
    const followed = check!;
    progress?.(l10n.t('Checking the fix with the service'));
    const [now] = await this.ctx.fixChecks.settled([followed.id], VERIFY_WAIT_MS);
    const added = now?.state.kind === 'introduced' ? now.state.issueIds.map((id) => this.rowOf(ref.folderUri, id)).filter((r) => !!r) : [];
    return verificationOutcome(followed, now?.state, added, VERIFY_WAIT_MS / 1000);
  }

  private async fixPlan(input: Record<string, unknown>, agent: string, progress?: (message: string) => void): Promise<Plan> {
    const row = this.findRow(input);
    if (!row) return answer(l10n.t('No finding with that id is in the results. List findings first ({0}).', TOOL_NAMES.listFindings), true);
    const check = await checkFix(row.located);
    // Why, in the envelope: the reason names the service's path and may quote its text.
    if (!check.ok) return answer(untrustedEnvelope(l10n.t('Refused, nothing changed. Why:'), { reason: check.message }), true);
    // The change as it will be made to the file as it is now, whole: what is confirmed is what is applied.
    const change = changeListing(check.document.getText(), check.fixed);
    if (change.tooLarge) return answer(l10n.t('Refused, nothing changed: {0}', change.why), true);
    const i = row.finding;
    const where = `${row.folder}/${i.path}, line ${i.range ? i.range.start.line + 1 : i.line}`;
    const ref = { folderUri: row.located.folderUri, issueId: i.id };
    return {
      invocationMessage: l10n.t('Applying the fix'),
      confirmation: {
        title: l10n.t('Code Scanner: apply the suggested fix?'),
        markdown: new vscode.MarkdownString(
          `${escapeMarkdown(where)}: ${escapeMarkdown(oneLine(i.classificationName, 120))}\n\n` +
          l10n.t('{0}\n\nThe whole change to the file:\n\n{1}\n\nThe file is edited, not saved; Undo takes the fix back.', escapeMarkdown(oneLine(i.fix!.explanation || l10n.t('Suggested fix'), 300)), fenced(change.text)),
        ),
        question: l10n.t('An AI agent ({0}) asks to apply the suggested fix for {1} in {2}. The change is shown in the editor. Apply it (and save the file, so the agent and git see it)?', oneLine(agent, 60), oneLine(i.classificationName, 80), where),
        accept: l10n.t('Apply Fix'),
        alsoSave: l10n.t('Apply and Save'),
        show: () => this.ctx.fixes.preview(ref),
        onDeclined: () => this.ctx.fixes.discardPreviewed(ref),
        digest: change.digest,
      },
      carryOut: async (o) => {
        // Exactly what was confirmed, or nothing: the file may have changed since.
        const again = await checkFix(row.located);
        const now = again.ok ? changeListing(again.document.getText(), again.fixed) : undefined;
        if (!now || now.tooLarge || now.digest !== change.digest) return { text: l10n.t('Refused, nothing changed: the file changed since the change was shown for confirmation. Ask again to see the change as it is now.'), isError: true };
        const applied = await this.ctx.fixes.apply([ref]);
        await this.ctx.fixes.discardPreviewed(ref).catch(() => undefined);
        if (!applied) return { text: l10n.t('The fix was not applied; the editor refused the change.'), isError: true };
        // Said as it is: whether the file on disk has the fix, which is what git and a build read.
        const saved = o?.save ? await check.document.save().then((ok) => ok && !check.document.isDirty, () => false) : false;
        const said = saved
          ? l10n.t('Applied the fix and saved the file: the file on disk has the fix, and the finding left the results. The file:')
          : o?.save
            ? l10n.t('Applied the fix, but the file could not be saved: the file on disk does not have the fix yet (it is edited in the editor). The file:')
            : l10n.t('Applied the fix. The file is edited but not saved: the file on disk does not have the fix until the person saves it; the finding left the results (Undo brings both back). The file:');
        const verification = await this.verification(ref, saved, input.verify === true, progress);
        return { text: untrustedEnvelope(`${said} ${verification.said}`, { folder: row.folder, path: i.path, savedToDisk: saved, ...verification.data }) };
      },
    };
  }
}

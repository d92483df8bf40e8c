import * as vscode from 'vscode';
import { ScanBudget } from './core/agent/scanBudget';
import type { FolderFindings } from './core/results';
import type { SaveQueueState } from './core/scan/saveQueue';
import type { SavedTransfer } from './core/upload/transferStore';
import { disposeProgramRunner } from './core/workspace/programRunner';
import { loadUndiciWith } from './core/network/undici';
import { useBundle } from './core/text/l10n';
import { accountFeature } from './editor/account';
import { followAccountChanges } from './editor/account/accountSwitch';
import { connectionFeature } from './editor/account/connectionCheck';
import { sessionFeature } from './editor/account/session';
import type { PoliciesSnapshot } from './editor/account/policiesView';
import { agentFeature } from './editor/agent/agentFeature';
import { pushFeature } from './editor/push/pushFeature';
import type { AgentTools } from './editor/agent/lmTools';
import type { PushCheckResult } from './editor/results/resultsStore';
import type { CommandHandlers } from './editor/commands/signatures';
import { createContext } from './editor/context';
import { createControllers } from './editor/controllers';
import type { TrackedFix } from './editor/fixes/fixChecks';
import { fixesFeature } from './editor/fixes/fixesFeature';
import type { ShownNotification } from './editor/notifier';
import { diagnosticsFeature } from './editor/results/diagnostics';
import { exportFeature } from './editor/results/exportFindings';
import type { IssuesTreeProvider } from './editor/results/issuesTree';
import { issuesTreeFeature } from './editor/results/issuesView';
import type { LocatedIssue } from './editor/results/resultsStore';
import { reviewFeature } from './editor/review/review';
import { offerResume } from './editor/scan/resumePrompt';
import { scanFeature, type ScanOptions, type ScanSummary } from './editor/scan/scanController';
import { statusBarFeature, statusBarShown } from './editor/scan/statusBar';
import { uploadPreviewFeature } from './editor/scan/uploadPreview';

/** What activate() returns: read-only views for automation and the integration tests. */
export interface CodeScannerApi {
  issues(): LocatedIssue[];
  hasStoredToken(): Promise<boolean>;
  readonly issuesTree: IssuesTreeProvider;
  readonly statusBar: vscode.StatusBarItem;
  /** Every text the status bar item showed since activation (the latest 200). */
  statusBarShown(): readonly string[];
  /** Folder of the "Code Scanner" log file. */
  readonly logUri: vscode.Uri;
  /** Interrupted uploads saved for this workspace (what Resume Upload would continue). */
  pendingUploads(): Promise<SavedTransfer[]>;
  /** The start-up check for interrupted uploads, as activate() runs it; resolves with Resume Upload's result if chosen. */
  offerResume(options?: ScanOptions): Promise<ScanSummary | undefined>;
  /** The start-up wait for scans still on the service, as activate() runs it (undefined: none to wait for). */
  resumeWaiting(options?: ScanOptions): Promise<ScanSummary | undefined>;
  /** A folder's whole results state: its scans, those still on the service, the last attempt. */
  folderState(folderUri: string): FolderFindings | undefined;
  /** The last notifications, as the workbench was given them; with `after` (a `seq`), only later ones. */
  notifications(after?: number): readonly ShownNotification[];
  /** The finding the details view shows, and its page (undefined when closed). */
  details(): { ref: { folderUri: string; issueId: string }; html: string } | undefined;
  /** What the Policies view holds now, without loading anything. */
  policies(): PoliciesSnapshot;
  /** The agent tools' implementations, to run one as VS Code does once its confirmation is answered. */
  readonly agentTools: AgentTools;
  /** The agents' budget of scans starts anew (suites that scan as agents, one after another). */
  resetAgentScanBudget(): void;
  /** A folder's last check before a push, and the status bar item that says its verdict. */
  readonly pushCheck: { of(folderUri: string): PushCheckResult | undefined; statusBar: vscode.StatusBarItem };
  /** Where this window's MCP bridge and its registry of windows are (for the tests of the bridge). */
  readonly mcp: { bridgePath: string; registry: string; address: () => string | undefined; waiting: () => string | undefined };
  /** The next scan asks before uploading again, as the first scan of a workspace does. */
  forgetUploadConsent(): Thenable<void>;
  /** What scan on save is doing (waiting for a quiet moment, scanning, paused, failed). */
  scanOnSaveState(): SaveQueueState;
  /** Reads the company's policies again and matches every finding against them; how many are active (undefined: none readable). */
  refreshPolicyMatches(): Promise<number | undefined>;
  /** How many policies findings are matched against now (kept for the account across reloads); undefined: none readable. */
  matchedPolicyCount(): number | undefined;
  /** Lets git's helper process go, as its idle time does; the next save or uploaded scan starts it again. */
  letGitHelperGo(): void;
  /** The applied fixes followed and what the service said of each. */
  fixChecks(): readonly TrackedFix[];
  /** How each bundle file was compiled this session (the benchmark says whether the cache was used). */
  codeCache(): Record<string, string>;
}

/**
 * A turn of the event loop between parts of activation: the extension host is one thread
 * for every extension, and activation in one piece held it too long at a time. Commands
 * run before activate() resolves wait for it (VS Code activates before it runs them).
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How the entry point loads what the extension loads later (src/loader.ts). */
export interface Loaders {
  undici?: () => unknown;
  /** How each bundle file was compiled: from V8's code cache, without one, or a cache V8 refused. */
  codeCache?: () => Record<string, string>;
}

export async function activate(context: vscode.ExtensionContext, loaders: Loaders = {}): Promise<CodeScannerApi> {
  if (loaders.undici) loadUndiciWith(loaders.undici);
  // Before any word is made: the bundle VS Code loaded for the display language (l10n/).
  useBundle(vscode.l10n.bundle, vscode.env.language);
  // One context for every feature; everything it holds is owned by context.subscriptions.
  const services = createContext(context);
  // The controllers that run scans and fixes are built from the services, beside them.
  const ctx = { ...services, ...createControllers(services) };
  // git's helper process (on Linux) goes with the extension.
  context.subscriptions.push({ dispose: disposeProgramRunner });
  const { session, store, scans, notifier, uploads, consent } = ctx;
  await turn();
  followAccountChanges(ctx);
  diagnosticsFeature(ctx);
  const account = accountFeature(ctx);
  await turn();
  const tree = issuesTreeFeature(ctx);
  const review = reviewFeature(ctx);
  await turn();
  const push = pushFeature(ctx);
  const agent = agentFeature(ctx, push.check);
  const statusBar = statusBarFeature(ctx);
  await turn();
  // Every command's handler, from the feature it belongs to: one missing does not compile.
  const handlers: CommandHandlers = {
    ...sessionFeature(ctx).commands,
    ...connectionFeature(ctx).commands,
    ...account.commands,
    ...scanFeature(ctx).commands,
    ...uploadPreviewFeature(ctx).commands,
    ...tree.commands,
    ...review.commands,
    ...fixesFeature(ctx).commands,
    ...exportFeature(ctx).commands,
    ...agent.commands,
    ...push.commands,
  };
  await turn();
  ctx.commands.registerAll(handlers);

  await session.init();
  // Scans whose wait a reload cut short are waited for again (they were saved when uploaded).
  if (vscode.workspace.isTrusted) {
    void store.ready.then(() => scans.resumeWaiting());
    void offerResume(ctx);
  } else {
    ctx.own(vscode.workspace.onDidGrantWorkspaceTrust(() => void scans.resumeWaiting()));
  }

  return {
    issues: () => store.all(),
    hasStoredToken: () => session.hasStoredToken(),
    issuesTree: tree.provider,
    statusBar,
    statusBarShown,
    logUri: context.logUri,
    pendingUploads: async () => (await uploads.pending()).map((p) => p.transfer),
    offerResume: (options) => offerResume(ctx, options),
    resumeWaiting: (options) => scans.resumeWaiting(options),
    folderState: (folderUri) => store.folder(folderUri),
    notifications: (after) => notifier.shown(after),
    details: () => review.details.current,
    policies: () => account.policies.snapshot(),
    forgetUploadConsent: () => consent.forget(),
    agentTools: agent.tools,
    resetAgentScanBudget: () => { agent.host.budget = new ScanBudget(); },
    pushCheck: { of: (folderUri) => store.pushCheckOf(folderUri), statusBar: push.statusBar },
    mcp: { bridgePath: agent.channel.bridgePath, registry: agent.channel.registry, address: () => agent.channel.address, waiting: () => agent.channel.waitingText },
    scanOnSaveState: () => ctx.saves.state,
    refreshPolicyMatches: async () => { await ctx.policies.refresh(); return ctx.policies.count; },
    matchedPolicyCount: () => ctx.policies.count,
    letGitHelperGo: disposeProgramRunner,
    fixChecks: () => ctx.fixChecks.all(),
    codeCache: () => loaders.codeCache?.() ?? {},
  };
}

export function deactivate(): void {}

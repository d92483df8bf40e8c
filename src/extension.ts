import * as vscode from 'vscode';
import { registerAccountFeatures } from './editor/account';
import { registerDiagnostics } from './editor/diagnostics';
import { registerFixes } from './editor/fixes';
import { registerIssuesTree, type IssuesTreeProvider } from './editor/issuesTree';
import { SecretRedactor } from './core/text/redact';
import { Notifier, type ShownNotification } from './editor/notifier';
import { createOutputLog } from './editor/outputLog';
import { ResultsStore, type LocatedIssue } from './editor/resultsStore';
import { offerResume } from './editor/resumePrompt';
import type { SavedTransfer } from './core/upload/transferStore';
import { ScanController, registerScanCommands, type ScanOptions, type ScanSummary } from './editor/scanController';
import { Session, registerSessionCommands } from './editor/session';
import { registerStatusBar } from './editor/statusBar';
import { TransferStores } from './editor/transferStores';

/** What activate() returns: read-only views for automation and the integration tests. */
export interface CodeScannerApi {
  issues(): LocatedIssue[];
  hasStoredToken(): Promise<boolean>;
  readonly issuesTree: IssuesTreeProvider;
  readonly statusBar: vscode.StatusBarItem;
  /** Folder of the "Code Scanner" log file. */
  readonly logUri: vscode.Uri;
  /** Interrupted uploads saved for this workspace (what Resume Upload would continue). */
  pendingUploads(): Promise<SavedTransfer[]>;
  /** The start-up check for interrupted uploads, as activate() runs it; resolves with Resume Upload's result if chosen. */
  offerResume(options?: ScanOptions): Promise<ScanSummary | undefined>;
  /** The last notifications, as the workbench was given them. */
  notifications(): readonly ShownNotification[];
}

export async function activate(context: vscode.ExtensionContext): Promise<CodeScannerApi> {
  const redactor = new SecretRedactor();
  const log = createOutputLog(redactor);
  const notifier = new Notifier(log, redactor);
  const session = new Session(context, log, notifier, redactor);
  const store = new ResultsStore(context.workspaceState);
  const transfers = new TransferStores(context);
  const scans = new ScanController(context, session, store, transfers, notifier);
  context.subscriptions.push(log, session, store);

  registerSessionCommands(context, session);
  registerAccountFeatures(context, session);
  registerScanCommands(context, scans);
  registerDiagnostics(context, store);
  registerFixes(context, store, notifier);
  const issuesTree = registerIssuesTree(context, store, session, () => scans.refresh(), notifier);
  const statusBar = registerStatusBar(context, session, store, scans);

  await session.init();
  if (vscode.workspace.isTrusted) void offerResume(transfers, notifier, log);

  return {
    issues: () => store.all(),
    hasStoredToken: () => session.hasStoredToken(),
    issuesTree,
    statusBar,
    logUri: context.logUri,
    pendingUploads: async () => (await transfers.pending()).map((p) => p.transfer),
    offerResume: (options) => offerResume(transfers, notifier, log, options),
    notifications: () => notifier.shown(),
  };
}

export function deactivate(): void {}

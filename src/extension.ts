import * as vscode from 'vscode';
import * as path from 'node:path';
import { SecretRedactor } from './core/text/redact';
import type { SavedTransfer } from './core/upload/transferStore';
import { TargetPolicies, registerAccountFeatures } from './editor/account';
import type { PoliciesSnapshot } from './editor/account/policiesView';
import { followAccountChanges } from './editor/accountSwitch';
import { Commands } from './editor/commands/manager';
import { registerDiagnostics } from './editor/diagnostics';
import { registerExportFindings } from './editor/exportFindings';
import { registerFixes } from './editor/fixes';
import { registerLanguageModelTools, type AgentTools } from './editor/lmTools';
import { registerReview } from './editor/review';
import { registerIssuesTree, type IssuesTreeProvider } from './editor/issuesTree';
import { Notifier, type ShownNotification } from './editor/notifier';
import { createOutputLog } from './editor/outputLog';
import type { FolderFindings } from './core/results';
import { ResultsStore, type LocatedIssue } from './editor/resultsStore';
import { ProjectNames } from './editor/projectNames';
import { offerResume } from './editor/resumePrompt';
import { EditorNetwork } from './editor/network';
import { registerConnectionCheck } from './editor/connectionCheck';
import { ScanController, registerScanCommands, type ScanOptions, type ScanSummary } from './editor/scanController';
import { Session, registerSessionCommands } from './editor/session';
import { registerStatusBar } from './editor/statusBar';
import { UploadConsent } from './editor/uploadConsent';
import { registerUploadPreview } from './editor/uploadPreview';
import { UploadStorage } from './editor/uploadStorage';

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
  /** The next scan asks before uploading again, as the first scan of a workspace does. */
  forgetUploadConsent(): Thenable<void>;
}

export async function activate(context: vscode.ExtensionContext): Promise<CodeScannerApi> {
  // Everything created here is owned by context.subscriptions and disposed on deactivation.
  const own = <T extends vscode.Disposable>(d: T): T => { context.subscriptions.push(d); return d; };
  const redactor = new SecretRedactor();
  const log = own(createOutputLog(redactor));
  const notifier = new Notifier(log, redactor);
  const commands = own(new Commands(log, notifier));
  const network = own(new EditorNetwork(log, redactor));
  const session = own(new Session(context, log, notifier, redactor, network));
  // Findings go to a file in the workspace's storage (written in slices); the Memento keeps the rest.
  const resultsFile = context.storageUri?.scheme === 'file' ? path.join(context.storageUri.fsPath, 'results.jsonl') : undefined;
  const store = own(new ResultsStore(context.workspaceState, resultsFile, (line) => log.warn(line)));
  const targets = own(new TargetPolicies(context.workspaceState));
  const uploads = new UploadStorage(context);
  const projects = own(new ProjectNames());
  const consent = new UploadConsent(context.workspaceState, notifier, commands);
  const scans = own(new ScanController(targets, session, store, uploads, notifier, commands, consent, projects));
  own(followAccountChanges(session, store, targets, notifier, log));

  registerSessionCommands(commands, session);
  registerConnectionCheck(context, commands, session, notifier);
  const policies = registerAccountFeatures(context, session, commands, targets);
  registerScanCommands(commands, scans);
  registerDiagnostics(context, store);
  const fixes = registerFixes(context, store, notifier, commands);
  const agent = registerLanguageModelTools(store, scans, fixes, log);
  for (const d of agent.disposables) own(d);
  registerExportFindings(context, commands, store, notifier);
  own(registerUploadPreview(commands, notifier));
  const details = registerReview(context, store, commands, notifier, fixes);
  const issuesTree = registerIssuesTree(context, store, session, notifier, commands, projects);
  const statusBar = registerStatusBar(context, session, store, scans);

  await session.init();
  // Scans whose wait a reload cut short are waited for again (they were saved when uploaded).
  if (vscode.workspace.isTrusted) {
    void store.ready.then(() => scans.resumeWaiting());
    void offerResume(uploads, notifier, log, commands);
  } else {
    own(vscode.workspace.onDidGrantWorkspaceTrust(() => void scans.resumeWaiting()));
  }

  return {
    issues: () => store.all(),
    hasStoredToken: () => session.hasStoredToken(),
    issuesTree,
    statusBar,
    logUri: context.logUri,
    pendingUploads: async () => (await uploads.pending()).map((p) => p.transfer),
    offerResume: (options) => offerResume(uploads, notifier, log, commands, options),
    resumeWaiting: (options) => scans.resumeWaiting(options),
    folderState: (folderUri) => store.folder(folderUri),
    notifications: (after) => notifier.shown(after),
    details: () => details.current,
    policies: () => policies.snapshot(),
    forgetUploadConsent: () => consent.forget(),
    agentTools: agent.tools,
  };
}

export function deactivate(): void {}

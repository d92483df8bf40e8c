// The one context every feature is given (as rust-analyzer's editors/code hands its Ctx to
// every command): the services of the extension, built once at activation, each owned by
// the extension's subscriptions. Services only: the controllers that run scans, scans on
// save and fixes are built from it (controllers.ts), never held by it. Features take what
// they need; nothing is passed around feature by feature.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { detectFeatures, type Features } from './features';
import { SecretRedactor } from '../core/text/redact';
import { TargetPolicies } from './account/targetPolicies';
import { Session } from './account/session';
import { Commands } from './commands/manager';
import { ErrorHandler } from './errors';
import { EditorNetwork } from './network';
import { Notifier } from './notifier';
import { createOutputLog } from './outputLog';
import { PolicyViolations } from './results/policyViolations';
import { ResultsStore } from './results/resultsStore';
import { ProjectNames } from './scan/projectNames';
import { UploadConsent } from './scan/uploadConsent';
import { FolderWatch } from './scan/folderWatch';
import { UploadStorage } from './scan/uploadStorage';

export interface Ctx {
  readonly extension: vscode.ExtensionContext;
  /** The "Code Scanner" log; secrets are redacted from every line. */
  readonly log: vscode.LogOutputChannel;
  readonly redactor: SecretRedactor;
  readonly notifier: Notifier;
  /** Turns every failure into what the user reads (errors.ts). */
  readonly errors: ErrorHandler;
  readonly commands: Commands;
  /** The editor's proxy and certificate settings, followed as they change. */
  readonly network: EditorNetwork;
  /** Sign-in, the API key and the service client. */
  readonly session: Session;
  /** The findings of every folder (the one findings model the views read). */
  readonly store: ResultsStore;
  readonly targets: TargetPolicies;
  readonly uploads: UploadStorage;
  readonly projects: ProjectNames;
  readonly consent: UploadConsent;
  /** The company's active policies, matched against every finding. */
  readonly policies: PolicyViolations;
  /** What the running editor offers of the APIs newer than the oldest VS Code supported (features.ts). */
  readonly features: Features;
  /** Makes `d` live as long as the extension. */
  own<T extends vscode.Disposable>(d: T): T;
}

/** What exists before sign-in and findings: the context's first half, which they are built from. */
export type BaseCtx = Pick<Ctx, 'extension' | 'log' | 'redactor' | 'notifier' | 'errors' | 'commands' | 'network' | 'features' | 'own'>;

export function createContext(extension: vscode.ExtensionContext): Ctx {
  const own = <T extends vscode.Disposable>(d: T): T => { extension.subscriptions.push(d); return d; };
  const redactor = new SecretRedactor();
  const log = own(createOutputLog(redactor));
  const notifier = new Notifier(log, redactor);
  const errors = new ErrorHandler(log, notifier, extension.extension.id);
  const features = detectFeatures(vscode, (line) => log.info(line));
  const base: BaseCtx = { extension, log, redactor, notifier, errors, commands: own(new Commands(errors)), network: own(new EditorNetwork(log, redactor)), features, own };
  const session = own(new Session(base));
  // Findings go to a file in the workspace's storage (written in slices); the Memento keeps the rest.
  const resultsFile = extension.storageUri?.scheme === 'file' ? path.join(extension.storageUri.fsPath, 'results.jsonl') : undefined;
  const store = own(new ResultsStore(extension.workspaceState, resultsFile, (line) => log.warn(line), (line) => log.info(line)));
  const projects = own(new ProjectNames());
  return {
    ...base,
    session,
    store,
    targets: own(new TargetPolicies(extension.workspaceState, () => session.account)),
    uploads: new UploadStorage(extension, own(new FolderWatch())),
    projects,
    consent: new UploadConsent(extension.workspaceState, notifier, base.commands),
    policies: own(new PolicyViolations(extension.globalState, session, store, projects, log)),
  };
}

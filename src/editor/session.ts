import * as vscode from 'vscode';
import { ServiceClient, isServiceError, type VerifiedUser } from '../core/api';
import type { EditorDeps } from './deps';
import { requestLogger } from './outputLog';
import { affectsConnection, baseUrl } from './settings';

const TOKEN_KEY = 'codeScanner.apiToken';
const USER_KEY = 'codeScanner.user';

export interface SignedInUser { name: string; email: string; company?: string }

/**
 * Sign-in state: the token lives only in SecretStorage; the user's name, e-mail and company
 * (shown in the view and the status bar) are kept in globalState.
 */
export class Session implements vscode.Disposable, EditorDeps {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeSession = this.changed.event;
  private signedIn = false;
  private disposables: vscode.Disposable[] = [this.changed];
  private promptingSignIn = false;

  constructor(private readonly context: vscode.ExtensionContext, readonly log: vscode.LogOutputChannel) {
    this.disposables.push(
      context.secrets.onDidChange((e) => { if (e.key === TOKEN_KEY) void this.refreshState(); }),
      vscode.workspace.onDidChangeConfiguration((e) => { if (affectsConnection(e)) this.changed.fire(); }),
    );
  }

  async init(): Promise<void> {
    await this.refreshState();
    if (this.signedIn) void this.recheckToken();
  }

  isSignedIn(): boolean {
    return this.signedIn;
  }

  get user(): SignedInUser | undefined {
    return this.signedIn ? this.context.globalState.get<SignedInUser>(USER_KEY) : undefined;
  }

  private async refreshState(): Promise<void> {
    const had = this.signedIn;
    this.signedIn = !!(await this.context.secrets.get(TOKEN_KEY));
    await vscode.commands.executeCommand('setContext', 'codeScanner.signedIn', this.signedIn);
    if (had !== this.signedIn) this.changed.fire();
  }

  private newClient(token: string): ServiceClient {
    return new ServiceClient({
      baseUrl: baseUrl(),
      token,
      logger: requestLogger(this.log),
      userAgent: `code-scanner-vscode/${this.context.extension.packageJSON.version} vscode/${vscode.version}`,
    });
  }

  async getClient(): Promise<ServiceClient | undefined> {
    const token = await this.context.secrets.get(TOKEN_KEY);
    if (!token) {
      void this.offerSignIn('Sign in to the code scanning service first.');
      return undefined;
    }
    try {
      return this.newClient(token);
    } catch (err) {
      await this.reportError(err); // a bad custom URL setting
      return undefined;
    }
  }

  /**
   * Asks for the token (or takes one passed by automation), checks it with the service, and
   * only then stores it. Returns the user, or undefined when cancelled or rejected.
   */
  async signIn(tokenArg?: string): Promise<SignedInUser | undefined> {
    const token = (tokenArg ?? await vscode.window.showInputBox({
      title: 'Code Scanner: Sign In',
      prompt: 'Paste your API token (web app → Settings → API Keys). It is kept in the editor\'s secret storage.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'Enter the API token.'),
    }))?.trim();
    if (!token) return undefined;
    let user: SignedInUser | undefined;
    try {
      const client = this.newClient(token);
      const res = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Code Scanner: checking the API token…' },
        () => client.verify({ userInfo: true }),
      );
      user = toUser(res.user);
    } catch (err) {
      if (isServiceError(err) && err.kind === 'unauthorized') {
        void vscode.window.showErrorMessage('The service rejected this API token. Check that you copied the whole key and that it is still active, then sign in again.', 'Sign In')
          .then((a) => { if (a) void this.signIn(); });
        return undefined;
      }
      await this.reportError(err);
      return undefined;
    }
    await this.context.secrets.store(TOKEN_KEY, token);
    await this.context.globalState.update(USER_KEY, user);
    this.log.info(`Signed in${user ? ` as ${user.name} <${user.email}>${user.company ? ` (${user.company})` : ''}` : ''}.`);
    await this.refreshState();
    this.changed.fire();
    void vscode.window.showInformationMessage(`Code Scanner: signed in${user ? ` as ${user.name}${user.company ? ` (${user.company})` : ''}` : ''}.`);
    return user ?? { name: 'unknown', email: '' };
  }

  async signOut(): Promise<void> {
    await this.context.secrets.delete(TOKEN_KEY);
    await this.context.globalState.update(USER_KEY, undefined);
    this.log.info('Signed out.');
    await this.refreshState();
    this.changed.fire();
  }

  /** At start-up: refresh the user's details and notice a revoked token early. Offline is fine. */
  private async recheckToken(): Promise<void> {
    const client = await this.getClient();
    if (!client) return;
    try {
      const res = await client.verify({ userInfo: true });
      const user = toUser(res.user);
      if (user) {
        await this.context.globalState.update(USER_KEY, user);
        this.changed.fire();
      }
    } catch (err) {
      if (isServiceError(err) && err.kind === 'unauthorized') await this.reportError(err);
      else this.log.warn(`Could not check the API token at start-up: ${(err as Error).message}`);
    }
  }

  private async offerSignIn(message: string): Promise<void> {
    if (this.promptingSignIn) return;
    this.promptingSignIn = true;
    try {
      const choice = await vscode.window.showWarningMessage(message, 'Sign In');
      if (choice) await this.signIn();
    } finally {
      this.promptingSignIn = false;
    }
  }

  /** Shows the error without waiting for the user, so callers can clean up (progress, status bar) at once. */
  async reportError(err: unknown): Promise<void> {
    if (isServiceError(err) && err.kind === 'aborted') return;
    const message = err instanceof Error ? err.message : String(err);
    this.log.error(isServiceError(err) ? `${err.operation}: ${message}` : message);
    if (isServiceError(err) && err.kind === 'unauthorized') {
      void this.offerSignIn('Code Scanner: the API token was rejected (expired or revoked). Sign in again to continue.');
      return;
    }
    void vscode.window.showErrorMessage(`Code Scanner: ${message}`, 'Show Log').then((choice) => { if (choice) this.log.show(true); });
  }

  /** For the integration tests: whether SecretStorage holds a token (never the token itself). */
  async hasStoredToken(): Promise<boolean> {
    return !!(await this.context.secrets.get(TOKEN_KEY));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function toUser(u: VerifiedUser | undefined): SignedInUser | undefined {
  return u ? { name: u.name, email: u.email, company: u.company?.name } : undefined;
}

export function describeUser(u: SignedInUser | undefined): string {
  if (!u) return '';
  return `${u.name} <${u.email}>${u.company ? ` · ${u.company}` : ''}`;
}

export function registerSessionCommands(context: vscode.ExtensionContext, session: Session): void {
  context.subscriptions.push(
    // The token argument is for automation (tests, scripts); people get the password box.
    vscode.commands.registerCommand('codeScanner.signIn', (arg?: unknown) =>
      session.signIn(typeof arg === 'object' && arg && typeof (arg as { token?: unknown }).token === 'string' ? (arg as { token: string }).token : undefined)),
    vscode.commands.registerCommand('codeScanner.signOut', () => session.signOut()),
    vscode.commands.registerCommand('codeScanner.showLog', () => session.log.show()),
  );
}

import * as vscode from 'vscode';
import { STATE_KEYS } from '../../core/persist/stateKeys';
import { keyBinding, keyMayGo, type KeyBinding } from '../../core/account/keyBinding';
import { CLIENT_KEY_HEADER, SPEC_KEY_HEADER, ServiceClient, authScheme, isServiceError, type ClientOptions } from '../../core/api';
import { plainObjectArg, tokenArg } from '../commands/args';
import { CONTEXT_KEYS } from '../commands/contextKeys';
import type { SomeCommandHandlers } from '../commands/signatures';
import { setContext } from '../commands/manager';
import { KnownIds } from './knownIds';
import { DisposableObject } from '../disposable';
import type { BaseCtx, Ctx } from '../context';
import { toUser, type ConnectionProbe, type SignedInUser } from './user';
import type { Notifier } from '../notifier';
import { requestLogger } from '../outputLog';
import { affectsConnection, baseUrl } from '../settings';
import { errorMessage } from '../../core/errors';
import { l10n } from '../../core/text/l10n';

const TOKEN_KEY = STATE_KEYS.apiKey.key;
const USER_KEY = STATE_KEYS.user.key;
const ORIGIN_KEY = STATE_KEYS.keyOrigin.key;

/**
 * Sign-in state: the token lives only in SecretStorage; the user's name, e-mail and company
 * (shown in the view and the status bar) are kept in globalState.
 */
export class Session extends DisposableObject {
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  readonly onDidChangeSession = this.changed.event;
  private signedIn = false;
  private stateRead = false;
  private originOffered = false;
  /** The service answered 401 since the last successful check: the stored token is no longer good. */
  private rejected = false;
  private readonly signedInAs = this.own(new vscode.EventEmitter<string | undefined>());
  /** Fires after a successful sign-in (or a token moved to a new address) with the account. */
  readonly onDidSignIn = this.signedInAs.event;
  /** Teams, users and integrations the service has shown this account (offered by name in the wizards). */
  readonly known: KnownIds;
  /** decisions.md: a `Warning: 299` is logged and shown once per session, never more. */
  private serviceWarningShown = false;
  private readonly serviceWarningsLogged = new Set<string>();

  private readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly notifier: Notifier;
  private readonly redactor: BaseCtx['redactor'];
  private readonly network: BaseCtx['network'];
  readonly errors: BaseCtx['errors'];

  constructor(ctx: BaseCtx) {
    super();
    ({ extension: this.context, log: this.log, notifier: this.notifier, redactor: this.redactor, network: this.network, errors: this.errors } = ctx);
    this.known = new KnownIds(this.context.globalState, () => this.account);
    this.own(this.context.secrets.onDidChange((e) => { if (e.key === TOKEN_KEY) void this.refreshState(); }));
    this.own(vscode.workspace.onDidChangeConfiguration((e) => { if (affectsConnection(e)) this.changed.fire(); }));
    // A view that could not reach the service tries again with the new proxy or certificates.
    this.own(this.network.onDidChange(() => this.changed.fire()));
  }

  async init(): Promise<void> {
    await this.refreshState();
    if (this.signedIn) void this.recheckToken();
  }

  isSignedIn(): boolean {
    return this.signedIn;
  }

  /** The stored key has been read since the window opened (seconds, after a reload): until then nothing is said of the session. */
  get stateKnown(): boolean { return this.stateRead; }

  /** The signed-in account as `company:user` (which results belong to whom). */
  get account(): string | undefined {
    const u = this.user;
    return u && (u.companyId || u.id) ? `${u.companyId ?? '?'}:${u.id ?? u.email}` : undefined;
  }

  /** The signed-in user; undefined when signed out or when the service has since rejected the token. */
  get user(): SignedInUser | undefined {
    return this.signedIn && !this.rejected ? this.context.globalState.get<SignedInUser>(USER_KEY) : undefined;
  }

  /** Signed in, but the service rejected the token since (expired or revoked). */
  get tokenRejected(): boolean {
    return this.signedIn && this.rejected;
  }

  private markRejected(): void {
    if (this.rejected) return;
    this.rejected = true;
    this.changed.fire();
  }

  private accepted(): void {
    if (!this.rejected) return;
    this.rejected = false;
    this.changed.fire();
  }

  /** Reads whether a key is stored; says so (fires) when it changed, unless the caller fires itself. */
  private async refreshState(o: { quiet?: boolean } = {}): Promise<void> {
    const had = this.signedIn;
    const wasRead = this.stateRead;
    this.signedIn = !!(await this.context.secrets.get(TOKEN_KEY));
    this.stateRead = true;
    await setContext(CONTEXT_KEYS.signedIn, this.signedIn);
    if ((had !== this.signedIn || !wasRead) && !o.quiet) this.changed.fire();
  }

  /**
   * The one way the extension makes a service client: the editor's network, our user agent,
   * the key redacted from every line; by default any 401 marks the stored key rejected.
   */
  private newClient(token: string, url = baseUrl(), o: Partial<ClientOptions> = {}): ServiceClient {
    this.redactor.add(token);
    return new ServiceClient({
      baseUrl: url,
      token,
      logger: (e) => {
        requestLogger(this.log)(e);
        // Any 401 means the stored token is no good any more, whoever made the request.
        if (e.status === 401) this.markRejected();
      },
      onServiceWarning: (text) => this.onServiceWarning(text),
      network: this.network.current,
      userAgent: `code-scanner-vscode/${this.context.extension.packageJSON.version} vscode/${vscode.version}`,
      ...o,
    });
  }

  /**
   * The service address changed since the key was verified, and the key is not sent there
   * yet: where it was verified and where the settings point now. Undefined otherwise.
   */
  addressChange(): { from: string; to: string } | undefined {
    if (!this.signedIn) return undefined;
    let binding: KeyBinding;
    try {
      binding = keyBinding(this.context.globalState.get<string>(ORIGIN_KEY), baseUrl());
    } catch {
      return undefined;
    }
    return binding.kind === 'moved' ? { from: binding.from, to: binding.to } : undefined;
  }

  /**
   * A client for the service. With `ask` (a scan the person started), a changed service
   * address is asked about at once in a dialog, where the scan shows, rather than only in a
   * notification that may sit unseen in the notification center.
   */
  async getClient(o: { ask?: boolean } = {}): Promise<ServiceClient | undefined> {
    const token = await this.context.secrets.get(TOKEN_KEY);
    if (!token) {
      this.notifier.offerSignIn(l10n.t('Sign in to the code scanning service first.'));
      return undefined;
    }
    let url: string;
    try {
      url = baseUrl();
    } catch (err) {
      await this.reportError(err); // a bad custom URL setting
      return undefined;
    }
    const binding = keyBinding(this.context.globalState.get<string>(ORIGIN_KEY), url);
    if (binding.kind === 'unbound') await this.context.globalState.update(ORIGIN_KEY, binding.origin);
    else if (binding.kind === 'moved') {
      if (!o.ask) {
        this.offerNewOrigin(token, binding.from, url);
        return undefined;
      }
      if (!(await this.askNewOrigin())) return undefined;
    }
    return this.newClient(token, url);
  }

  /**
   * The question about a changed service address, as a dialog (the status bar's button and a
   * scan the person started): true once the key is verified and used at the new address.
   */
  async askNewOrigin(): Promise<boolean> {
    const change = this.addressChange();
    const token = await this.context.secrets.get(TOKEN_KEY);
    if (!change || !token) return !!token && !change;
    const url = baseUrl();
    const use = l10n.t('Use My Key with {0}', new URL(url).host);
    const there = l10n.t('Sign In There');
    const choice = await this.notifier.choose(
      l10n.t('The service address changed to {0}. Send your API key there?', change.to),
      l10n.t('You signed in at {0}. Your API key is not sent to another address unless you allow it: it is checked there first. Sign In There uses another key instead.', change.from),
      [use, there],
    );
    if (choice === use) return this.moveToken(token, url);
    if (choice === there) return !!(await this.signIn());
    return false;
  }

  /**
   * The service address changed since the token was verified. A repository cannot change
   * it (the settings are user-only), but a mistyped or pasted URL can: the token goes to
   * the new address only once the user says so, and is verified there first.
   */
  private offerNewOrigin(token: string, boundTo: string, url: string): void {
    const origin = new URL(url).origin;
    this.log.warn(`The service address is now ${origin}; the API key was verified with ${boundTo} and is not sent elsewhere without asking.`);
    if (this.originOffered) return;
    this.originOffered = true;
    void this.notifier.warn(
      l10n.t('The service address changed to {0} since you signed in at {1}. Your API key is not sent to the new address unless you allow it.', origin, boundTo),
      { title: l10n.t('Use My API Key with {0}', new URL(url).host), run: () => this.moveToken(token, url) },
      { title: l10n.t('Sign In There'), run: () => this.signIn() },
    ).finally(() => { this.originOffered = false; });
  }

  private async moveToken(token: string, url: string): Promise<boolean> {
    try {
      const res = await this.newClient(token, url).verify({ userInfo: true });
      await this.context.globalState.update(ORIGIN_KEY, new URL(url).origin);
      await this.context.globalState.update(USER_KEY, toUser(res.user));
      this.rejected = false;
      this.changed.fire();
      this.signedInAs.fire(this.account);
      void this.notifier.info(l10n.t('Your API key is now used with {0}.', new URL(url).origin));
      return true;
    } catch (err) {
      await this.reportError(err);
      return false;
    }
  }

  /**
   * Asks for the token (or takes one passed by automation), checks it with the service, and
   * only then stores it. Returns the user, or undefined when cancelled or rejected.
   */
  async signIn(tokenArg?: string): Promise<SignedInUser | undefined> {
    let checked: { token: string; user: SignedInUser | undefined; origin: string } | undefined;
    if (tokenArg !== undefined) {
      const token = tokenArg.trim();
      if (!token) return undefined;
      const r = await this.checkKey(token);
      if ('problem' in r) {
        if (r.rejected) {
          void this.notifier.error(l10n.t('The service rejected this API key. Check that you copied the whole key and that it is still active, then sign in again.'),
            { title: l10n.t('Sign In'), run: () => this.signIn() });
        } else {
          await this.reportError(r.error);
        }
        return undefined;
      }
      checked = { token, ...r };
    } else {
      checked = await this.askForKey();
      if (!checked) return undefined;
    }
    const { token, user, origin } = checked;
    const previous = await this.context.secrets.get(TOKEN_KEY);
    if (previous !== token) this.redactor.delete(previous);
    await this.context.secrets.store(TOKEN_KEY, token);
    await this.context.globalState.update(ORIGIN_KEY, origin);
    await this.context.globalState.update(USER_KEY, user);
    this.log.info(`Signed in${user ? ` as ${user.name} <${user.email}>${user.company ? ` (${user.company})` : ''}` : ''}.`);
    this.rejected = false;
    // One change for one sign-in, whatever changed (the key, the user, the address).
    await this.refreshState({ quiet: true });
    this.changed.fire();
    this.signedInAs.fire(this.account);
    void this.notifier.info(!user ? l10n.t('Signed in.') : user.company ? l10n.t('Signed in as {0} ({1}).', user.name, user.company) : l10n.t('Signed in as {0}.', user.name));
    return user ?? { name: 'unknown', email: '' };
  }

  /** Verifies a key with the service: the user it belongs to, or what went wrong. */
  private async checkKey(token: string): Promise<{ user: SignedInUser | undefined; origin: string } | { problem: string; rejected: boolean; error: unknown }> {
    try {
      const url = baseUrl();
      const origin = new URL(url).origin;
      const res = await this.newClient(token, url).verify({ userInfo: true });
      return { user: toUser(res.user), origin };
    } catch (err) {
      const rejected = isServiceError(err) && err.kind === 'unauthorized';
      return { problem: rejected ? l10n.t('The service rejected this API key: check that you copied the whole key and that it is still active.') : errorMessage(err), rejected, error: err };
    }
  }

  /**
   * The password box, as VS Code's own sign-ins behave: the key is checked when Enter is
   * pressed, and a key the service refuses keeps the box open with why, to correct it.
   */
  private askForKey(): Promise<{ token: string; user: SignedInUser | undefined; origin: string } | undefined> {
    const box = vscode.window.createInputBox();
    box.title = l10n.t('Code Scanner: Sign In');
    box.prompt = l10n.t('Paste your API key (web app → Settings → API Keys). It is kept in the editor\'s secret storage.');
    box.placeholder = l10n.t('API key');
    box.password = true;
    box.ignoreFocusOut = true;
    let settled = false;
    return new Promise((resolve) => {
      const done = (v: { token: string; user: SignedInUser | undefined; origin: string } | undefined) => {
        if (settled) return;
        settled = true;
        resolve(v);
        box.dispose();
      };
      box.onDidChangeValue(() => { box.validationMessage = undefined; });
      box.onDidAccept(async () => {
        const token = box.value.trim();
        if (!token) {
          box.validationMessage = l10n.t('Enter the API key.');
          return;
        }
        box.busy = true;
        box.enabled = false;
        box.validationMessage = undefined;
        const r = await this.checkKey(token);
        box.busy = false;
        box.enabled = true;
        if ('problem' in r) {
          box.validationMessage = { message: r.problem, severity: vscode.InputBoxValidationSeverity.Error };
          return;
        }
        done({ token, ...r });
      });
      box.onDidHide(() => done(undefined));
      box.show();
    });
  }

  /** Asks first (a modal dialog); automation passes `{ confirmed: true }`. */
  async signOut(confirmed = false): Promise<void> {
    if (!confirmed) {
      if (!(await this.notifier.confirm(l10n.t('Sign out of Code Scanner?'), l10n.t('The API key is removed from this editor; you need it again to sign in. The findings shown stay, from the scans they came from, until you scan again or clear them; they are not matched against your company\'s policies while you are signed out.'), l10n.t('Sign Out')))) return;
    }
    this.redactor.delete(await this.context.secrets.get(TOKEN_KEY));
    this.rejected = false;
    await this.context.secrets.delete(TOKEN_KEY);
    await this.context.globalState.update(USER_KEY, undefined);
    await this.context.globalState.update(ORIGIN_KEY, undefined);
    this.log.info('Signed out.');
    await this.refreshState({ quiet: true });
    this.changed.fire();
  }

  /** At start-up: refresh the user's details and notice a revoked token early. Offline is fine. */
  private async recheckToken(): Promise<void> {
    const client = await this.getClient();
    if (!client) return;
    try {
      const res = await client.verify({ userInfo: true });
      const user = toUser(res.user);
      if (user) await this.context.globalState.update(USER_KEY, user);
      this.rejected = false;
      this.changed.fire();
    } catch (err) {
      if (isServiceError(err) && err.kind === 'unauthorized') await this.reportError(err);
      else this.log.warn(`Could not check the API key at start-up: ${(err as Error).message}`);
    }
  }

  /**
   * Shows a failure the way the whole extension does (errors.ts; a 401 offers Sign In again),
   * without waiting for the user, so callers can clean up (progress, status bar) at once.
   */
  async reportError(err: unknown): Promise<void> {
    this.errors.report(err);
  }

  private onServiceWarning(text: string): void {
    if (!this.serviceWarningsLogged.has(text)) {
      this.serviceWarningsLogged.add(text);
      this.log.warn(`The service sent a deprecation warning: ${text}`);
    }
    if (this.serviceWarningShown) return;
    this.serviceWarningShown = true;
    void this.notifier.warn(l10n.t('The service says: {0}', text));
  }

  /**
   * For Check Connection: GET /verify at the configured address, timed, with the stored
   * token only when it was verified with this address (otherwise without one: a 401 then
   * still shows the service is reachable).
   */
  async probe(): Promise<ConnectionProbe> {
    const network = this.network.current;
    let url: string;
    try {
      url = baseUrl();
    } catch (err) {
      return { error: errorMessage(err), network, signedIn: this.signedIn, tokenSent: false, warnings: [] };
    }
    const token = await this.context.secrets.get(TOKEN_KEY);
    const tokenSent = !!token && keyMayGo(this.context.globalState.get<string>(ORIGIN_KEY), url);
    const warnings: string[] = [];
    const client = this.newClient(tokenSent ? token! : '', url, {
      network,
      maxRetries: 0,
      logger: (e) => {
        requestLogger(this.log)(e);
        if (tokenSent && e.status === 401) this.markRejected();
      },
      onServiceWarning: (text) => { warnings.push(text); this.onServiceWarning(text); },
    });
    const started = performance.now();
    try {
      const res = await client.verify({ userInfo: tokenSent });
      const ms = Math.round(performance.now() - started);
      const user = toUser(res.user);
      if (tokenSent && user) {
        await this.context.globalState.update(USER_KEY, user);
        this.accepted();
      }
      const webApp = await client.webAppVersion().then((v) => (v === undefined ? l10n.t('unknown (the service has no version route)') : v ?? l10n.t('not given')), (e: unknown) => l10n.t('could not be read ({0})', errorMessage(e)));
      // Which of the two key headers the service reads (decisions.md): asked one at a time.
      let keyHeaders: ConnectionProbe['keyHeaders'];
      if (tokenSent && token && authScheme(token) === 'service-token') {
        const accepts = async (keyHeaders: 'spec' | 'client') => {
          const one = this.newClient(token, url, { network, maxRetries: 0, keyHeaders, logger: requestLogger(this.log) });
          return one.verify().then(() => true, () => false);
        };
        const [client2, spec] = await Promise.all([accepts('client'), accepts('spec')]);
        keyHeaders = { [CLIENT_KEY_HEADER]: client2, [SPEC_KEY_HEADER]: spec };
      }
      return { url, network, ms, status: 200, user, signedIn: this.signedIn, tokenSent, warnings, webApp, keyHeaders };
    } catch (err) {
      const ms = Math.round(performance.now() - started);
      const status = isServiceError(err) ? err.status : undefined;
      return { url, network, ms, status, error: errorMessage(err), signedIn: this.signedIn, tokenSent, warnings };
    }
  }

  /** For the integration tests: whether SecretStorage holds a token (never the token itself). */
  async hasStoredToken(): Promise<boolean> {
    return !!(await this.context.secrets.get(TOKEN_KEY));
  }

}

/** Sign In, Sign Out, Allow the New Service Address and Show Log. */
export function sessionFeature({ session }: Ctx) {
  return {
    commands: {
      // The token argument is for automation (tests, scripts); people get the password box.
      'codeScanner.signIn': (arg) => session.signIn(tokenArg(arg)),
      'codeScanner.signOut': (arg) => session.signOut(plainObjectArg<{ confirmed: boolean }>(arg)?.confirmed === true),
      'codeScanner.allowServiceAddress': () => session.askNewOrigin(),
      'codeScanner.showLog': () => session.log.show(),
    } satisfies SomeCommandHandlers,
  };
}

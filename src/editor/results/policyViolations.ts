// The company's policies on each finding: the active policies are read from the service
// (every page) when findings arrive and none were read for the account within the hour, and
// whenever the Policies view is refreshed, and at every sign-in or switch to an account
// whose policies are not known or old; kept per account (the last few) across reloads, and
// matched against every finding by the core (policyMatch.ts).
// A plan or role without policies (403) leaves the matching out, said once in the log.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import type * as vscode from 'vscode';
import { PolicySchema, type Policy } from '../../core/api';
import { errorMessage, isServiceError } from '../../core/errors';
import { PolicyMatcher } from '../../core/issues';
import type { Session } from '../account/session';
import type { ProjectNames } from '../scan/projectNames';
import { DisposableObject } from '../disposable';
import type { ResultsStore } from './resultsStore';

const CACHE_KEY = STATE_KEYS.policyCache.key;
/** Before policies were kept per account: one account's, under this key (read once, then replaced). */
const OLD_CACHE_KEY = STATE_KEYS.policyCacheBeforeAccounts.key;
/** Policies read longer ago than this are read again when findings arrive. */
const STALE_AFTER_MS = 60 * 60 * 1000;
/** Accounts whose policies are kept: the few a person switches between. */
const KEPT_ACCOUNTS = 5;

interface Cached { account: string; at: number; policies: unknown[]; refused?: boolean }
/** After a failed read, findings arriving do not ask again before this much time (per account). */
const RETRY_AFTER_MS = 5 * 60 * 1000;

export class PolicyViolations extends DisposableObject {
  private matcher: PolicyMatcher | undefined;
  private matcherAccount: string | undefined;
  private reading: Promise<void> | undefined;
  /** Accounts whose refusal (403) was logged: once each. */
  private readonly refusals = new Set<string>();
  /** When a read was last tried, per account (findings arriving do not ask again soon after). */
  private readonly lastTry = new Map<string, number>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly session: Session,
    private readonly store: ResultsStore,
    private readonly projects: ProjectNames,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.fromCache();
    // Every sign-in, sign-out and switch re-derives the matching for the account now signed
    // in: its kept policies at once, read again when there are none or they are old.
    this.own(session.onDidChangeSession(() => {
      if (this.matcherAccount === this.session.account) return;
      this.fromCache();
      if (this.session.account && this.stale()) void this.refresh();
    }));
    this.own(projects.onDidChange(() => this.apply()));
    // Findings came (a scan, or those stored): read the policies when none are known recently.
    this.own(store.onDidChange((e) => { if (!e.uris && store.hasResults() && this.stale()) void this.refresh(); }));
  }

  /** Every account's kept policies (the older single-account record read as one of them). */
  private kept(): Record<string, Cached> {
    const byAccount = this.state.get<Record<string, Cached>>(CACHE_KEY);
    if (byAccount && typeof byAccount === 'object') return byAccount;
    const old = this.state.get<Cached>(OLD_CACHE_KEY);
    return old && typeof old.account === 'string' ? { [old.account]: old } : {};
  }

  private cachedFor(account: string | undefined): Cached | undefined {
    const c = account ? this.kept()[account] : undefined;
    return c && c.account === account && Array.isArray(c.policies) ? c : undefined;
  }

  private async keep(c: Cached): Promise<void> {
    const others = Object.values(this.kept()).filter((x) => x.account !== c.account).sort((a, b) => b.at - a.at).slice(0, KEPT_ACCOUNTS - 1);
    await this.state.update(CACHE_KEY, Object.fromEntries([c, ...others].map((x) => [x.account, x])));
    if (this.state.get(OLD_CACHE_KEY) !== undefined) await this.state.update(OLD_CACHE_KEY, undefined);
  }

  private stale(): boolean {
    const account = this.session.account;
    if (!account) return false;
    if (Date.now() - (this.lastTry.get(account) ?? 0) < RETRY_AFTER_MS) return false;
    const cached = this.cachedFor(account);
    return !cached || Date.now() - cached.at > STALE_AFTER_MS;
  }

  /** When the signed-in account's policies were last read (ms since the epoch; undefined: never). */
  get readAt(): number | undefined {
    return this.cachedFor(this.session.account)?.at;
  }

  /** How many active policies findings are matched against (undefined: none known). */
  get count(): number | undefined {
    return this.matcher?.size;
  }

  private fromCache(): void {
    const account = this.session.account;
    const cached = this.cachedFor(account);
    this.use(cached && !cached.refused ? cached.policies.flatMap((p) => { const r = PolicySchema.safeParse(p); return r.success ? [r.data] : []; }) : undefined, account);
  }

  private use(policies: Policy[] | undefined, account: string | undefined): void {
    this.matcher = policies && new PolicyMatcher(policies);
    this.matcherAccount = account;
    this.apply();
  }

  private apply(): void {
    const matcher = this.matcher;
    this.store.setPolicyLookup(matcher && ((folderUri, issue) => matcher.violations(issue, this.projects.of(folderUri)?.name)));
  }

  /** Reads the active policies again (never asks to sign in: signed out, nothing happens). */
  refresh(): Promise<void> {
    if (!this.session.isSignedIn()) return Promise.resolve();
    // A read already under way began before this ask: one more follows it (however many ask meanwhile).
    if (this.reading) {
      this.again ??= this.reading.then(() => { this.again = undefined; return this.refresh(); });
      return this.again;
    }
    this.reading = this.read().finally(() => { this.reading = undefined; });
    return this.reading;
  }

  private again: Promise<void> | undefined;

  private async read(): Promise<void> {
    const account = this.session.account;
    if (account) this.lastTry.set(account, Date.now());
    const client = await this.session.getClient();
    if (!client || !account) return;
    try {
      const policies = await client.listAllPolicies({ active: true });
      // Only what matching reads is kept.
      const kept = policies.map((p) => ({ id: p.id, name: p.name, active: p.active, archived: p.archived, approved: p.approved, cwes: p.cwes, projects: p.projects, glob_pattern: p.glob_pattern, excludes: p.excludes, guidance_text: p.guidance_text }));
      await this.keep({ account, at: Date.now(), policies: kept });
      if (this.session.account === account) this.use(policies, account);
      this.log.info(`Findings are matched against ${policies.length} active ${policies.length === 1 ? 'policy' : 'policies'} of the company.`);
    } catch (err) {
      if (isServiceError(err) && err.status === 403) {
        if (!this.refusals.has(account)) this.log.info(`Findings are not matched against the company's policies: the service does not let this account read them (${errorMessage(err)}).`);
        this.refusals.add(account);
        // Remembered like a reading of no policies: not asked again within the hour.
        await this.keep({ account, at: Date.now(), policies: [], refused: true });
        if (this.session.account === account) this.use(undefined, account);
        return;
      }
      // Unreachable or failing: the policies known stay in use.
      this.log.warn(`The company's policies could not be read again; the last ones read stay in use: ${errorMessage(err)}`);
    }
  }
}

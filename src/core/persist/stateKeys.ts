// Everything the extension keeps between sessions, in one table: the key, where VS Code keeps
// it (the workspace's state, the user's across workspaces, or SecretStorage), what it holds
// and, where its shape changed, how an older one is read. Each module takes its key from
// here; test/unit/persist/stateKeys.test.ts fails on a key written anywhere else, or one
// listed here that nothing uses.

export type StateScope = 'workspace' | 'global' | 'secret';

/** Each row's comment says what it holds and, where its shape changed, how an older one is read. */
export interface StateKey {
  readonly key: string;
  readonly scope: StateScope;
}

export const STATE_KEYS = {
  /** The API key (SecretStorage only; never in a setting, a log or an argument). */
  apiKey: { key: 'codeScanner.apiToken', scope: 'secret' },
  /** Who signed in, for the view and the status bar. */
  user: { key: 'codeScanner.user', scope: 'global' },
  /** The service origin the key was checked with; it is sent nowhere else unasked. */
  keyOrigin: { key: 'codeScanner.tokenOrigin', scope: 'global' },
  /** Names of users and teams seen, per account, to show names for ids. */
  knownIds: { key: 'codeScanner.knownIds', scope: 'global' },
  /** The findings' small state (version 1: findings here; 2: findings in the results file beside it, core/results/storage.ts). */
  results: { key: 'codeScanner.results', scope: 'workspace' },
  /** Each folder's last verdict before a push, read back record by record. */
  pushChecks: { key: 'codeScanner.pushChecks', scope: 'workspace' },
  /** The findings were cleared at a sign-in to another account, until this one's scan completes. */
  otherAccountCleared: { key: 'codeScanner.otherAccountCleared', scope: 'workspace' },
  /** The target policy ids per account (an older list without accounts goes to the first account signed in). */
  targetPolicies: { key: 'codeScanner.targetPolicies', scope: 'workspace' },
  /** The company policies per account, to match findings before the service answers. */
  policyCache: { key: 'codeScanner.policyCacheByAccount', scope: 'global' },
  /** One account's policies from before they were kept per account: read once, then replaced. */
  policyCacheBeforeAccounts: { key: 'codeScanner.policyCache', scope: 'global' },
  /** The Policies view's filter. */
  policiesFilter: { key: 'codeScanner.policies.filter', scope: 'workspace' },
  /** How the Quality Issues view groups. */
  issuesGroupBy: { key: 'codeScanner.issues.groupBy', scope: 'workspace' },
  /** The view's status filter. */
  issuesStatusFilter: { key: 'codeScanner.issues.statusFilter', scope: 'workspace' },
  /** The view's urgency filter. */
  issuesUrgencyFilter: { key: 'codeScanner.issues.urgencyFilter', scope: 'workspace' },
  /** The view shows reachable findings only. */
  issuesReachableOnly: { key: 'codeScanner.issues.reachableOnly', scope: 'workspace' },
  /** The view shows findings assigned to me only. */
  issuesAssignedToMe: { key: 'codeScanner.issues.assignedToMe', scope: 'workspace' },
  /** The view shows new findings only. */
  issuesNewOnly: { key: 'codeScanner.issues.newOnly', scope: 'workspace' },
  /** The view shows policy violations only. */
  issuesPolicyOnly: { key: 'codeScanner.issues.policyOnly', scope: 'workspace' },
  /** The view's kinds (security, code quality, dependencies). */
  issuesKindFilter: { key: 'codeScanner.issues.kindFilter', scope: 'workspace' },
  /** The person allowed this workspace's first upload, and when. */
  uploadConsent: { key: 'codeScanner.uploadConsent', scope: 'workspace' },
  /** The person's answer to a repository whose settings turn scan on save on. */
  repositoryScanOnSave: { key: 'codeScanner.repositoryScanOnSave', scope: 'workspace' },
  /** The finding the details page showed last, for the page VS Code brings back after a reload. */
  detailsShown: { key: 'codeScanner.detailsShown', scope: 'workspace' },
  /** A prefix: an interrupted upload of one folder, under its folder's key, to resume after a reload. */
  transfer: { key: 'codeScanner.transfer:', scope: 'workspace' },
} as const satisfies Record<string, StateKey>;

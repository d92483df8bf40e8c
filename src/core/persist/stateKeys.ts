// Everything the extension keeps between sessions, in one table: the key, where VS Code keeps
// it (the workspace's state, the user's across workspaces, or SecretStorage), what it holds
// and, where its shape changed, how an older one is read. Each module takes its key from
// here; test/unit/persist/stateKeys.test.ts fails on a key written anywhere else, or one
// listed here that nothing uses.

export type StateScope = 'workspace' | 'global' | 'secret';

export interface StateKey {
  readonly key: string;
  readonly scope: StateScope;
  /** What it holds, and how an older shape is read, if it ever changed. */
  readonly holds: string;
}

export const STATE_KEYS = {
  apiKey: { key: 'codeScanner.apiToken', scope: 'secret', holds: 'the API key (SecretStorage only; never in a setting, a log or an argument)' },
  user: { key: 'codeScanner.user', scope: 'global', holds: 'who signed in, for the view and the status bar' },
  keyOrigin: { key: 'codeScanner.tokenOrigin', scope: 'global', holds: 'the service origin the key was checked with; it is sent nowhere else unasked' },
  knownIds: { key: 'codeScanner.knownIds', scope: 'global', holds: 'names of users and teams seen, per account, to show names for ids' },
  results: { key: 'codeScanner.results', scope: 'workspace', holds: 'the findings\' small state (version 1: findings here; 2: findings in the results file beside it, core/results/storage.ts)' },
  pushChecks: { key: 'codeScanner.pushChecks', scope: 'workspace', holds: 'each folder\'s last verdict before a push, read back record by record' },
  otherAccountCleared: { key: 'codeScanner.otherAccountCleared', scope: 'workspace', holds: 'the findings were cleared at a sign-in to another account, until this one\'s scan completes' },
  targetPolicies: { key: 'codeScanner.targetPolicies', scope: 'workspace', holds: 'the target policy ids per account (an older list without accounts goes to the first account signed in)' },
  policyCache: { key: 'codeScanner.policyCacheByAccount', scope: 'global', holds: 'the company policies per account, to match findings before the service answers' },
  policyCacheBeforeAccounts: { key: 'codeScanner.policyCache', scope: 'global', holds: 'one account\'s policies from before they were kept per account: read once, then replaced' },
  policiesFilter: { key: 'codeScanner.policies.filter', scope: 'workspace', holds: 'the Policies view\'s filter' },
  issuesGroupBy: { key: 'codeScanner.issues.groupBy', scope: 'workspace', holds: 'how the Quality Issues view groups' },
  issuesStatusFilter: { key: 'codeScanner.issues.statusFilter', scope: 'workspace', holds: 'the view\'s status filter' },
  issuesUrgencyFilter: { key: 'codeScanner.issues.urgencyFilter', scope: 'workspace', holds: 'the view\'s urgency filter' },
  issuesReachableOnly: { key: 'codeScanner.issues.reachableOnly', scope: 'workspace', holds: 'the view shows reachable findings only' },
  issuesAssignedToMe: { key: 'codeScanner.issues.assignedToMe', scope: 'workspace', holds: 'the view shows findings assigned to me only' },
  issuesNewOnly: { key: 'codeScanner.issues.newOnly', scope: 'workspace', holds: 'the view shows new findings only' },
  issuesPolicyOnly: { key: 'codeScanner.issues.policyOnly', scope: 'workspace', holds: 'the view shows policy violations only' },
  issuesKindFilter: { key: 'codeScanner.issues.kindFilter', scope: 'workspace', holds: 'the view\'s kinds (security, code quality, dependencies)' },
  uploadConsent: { key: 'codeScanner.uploadConsent', scope: 'workspace', holds: 'the person allowed this workspace\'s first upload, and when' },
  repositoryScanOnSave: { key: 'codeScanner.repositoryScanOnSave', scope: 'workspace', holds: 'the person\'s answer to a repository whose settings turn scan on save on' },
  detailsShown: { key: 'codeScanner.detailsShown', scope: 'workspace', holds: 'the finding the details page showed last, for the page VS Code brings back after a reload' },
  transfer: { key: 'codeScanner.transfer:', scope: 'workspace', holds: 'a prefix: an interrupted upload of one folder, under its folder\'s key, to resume after a reload' },
} as const satisfies Record<string, StateKey>;

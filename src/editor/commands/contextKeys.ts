// Every context key the extension sets, for `when` clauses in package.json. A unit test
// checks this list against the manifest both ways.

export const CONTEXT_KEYS = {
  /** A token is in SecretStorage. */
  signedIn: 'codeScanner.signedIn',
  /** A scan (or resume) is running. */
  scanning: 'codeScanner.scanning',
  /** Some folder has stored scan results. */
  hasResults: 'codeScanner.hasResults',
  /** The findings were cleared at a sign-in to another account, and no scan of this one has completed since. */
  otherAccountCleared: 'codeScanner.otherAccountCleared',
  /** Some folder has a scan uploaded whose findings are not read yet (still on the service). */
  hasPendingScan: 'codeScanner.hasPendingScan',
  /** Preview Upload has been run: its view is shown. */
  uploadPreviewShown: 'codeScanner.uploadPreviewShown',
  /** The Policies view has a filter set. */
  policiesFiltered: 'codeScanner.policiesFiltered',
  /** The active editor is a fix preview (Apply Fix and Discard Fix are in the palette and on keys). */
  fixPreviewActive: 'codeScanner.fixPreviewActive',
} as const;

export type ContextKey = (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS];

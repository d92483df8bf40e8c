import type * as vscode from 'vscode';
import type { ServiceClient } from '../core/api';
import type { Notifier } from './notifier';

/**
 * What the editor layer hands to other feature modules (e.g. `registerAccountFeatures`).
 * Kept small so features stay independent of how sign-in and logging are built.
 */
export interface EditorDeps {
  /** A client for the signed-in user; undefined (after offering Sign In) when signed out. */
  getClient(): Promise<ServiceClient | undefined>;
  /** Shows a service error the way the whole extension does; a 401 offers Sign In again. */
  reportError(err: unknown): Promise<void>;
  /** Fires on sign-in, sign-out and base URL changes. */
  onDidChangeSession: vscode.Event<void>;
  isSignedIn(): boolean;
  log: vscode.LogOutputChannel;
  notifier: Notifier;
}

/** workspaceState key holding the target policy ids the next scan sends (`(number|string)[]`). */
export const TARGET_POLICIES_KEY = 'codeScanner.targetPolicies';

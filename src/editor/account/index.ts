// Account features: the Policies view, target policies for scans, company roles, team
// membership and pipeline-provider integrations. Every command also takes an argument
// object (so tests and other extensions can run it without input boxes) and returns an
// Outcome describing what happened; both paths run the same code.
import * as vscode from 'vscode';
import type { AccountDeps } from './common';
import { PoliciesView } from './policiesView';
import { chooseTargetPolicies } from './targetPolicies';
import { showCompanyRoles } from './roles';
import { addTeamMembers } from './teamMembers';
import { updateIntegration } from './integrationUpdate';

export type { AccountDeps, Outcome } from './common';
export { getTargetPolicies, onDidChangeTargetPolicies } from './targetPolicies';

export const ACCOUNT_COMMANDS = {
  chooseTargetPolicies: 'codeScanner.chooseTargetPolicies',
  showCompanyRoles: 'codeScanner.showCompanyRoles',
  addTeamMembers: 'codeScanner.addTeamMembers',
  updateIntegration: 'codeScanner.updateIntegration',
  refreshPolicies: 'codeScanner.policies.refresh',
  filterPolicies: 'codeScanner.policies.filter',
  clearPolicyFilter: 'codeScanner.policies.clearFilter',
  loadMorePolicies: 'codeScanner.policies.loadMore',
  addTargetPolicy: 'codeScanner.policies.addTarget',
  removeTargetPolicy: 'codeScanner.policies.removeTarget',
} as const;

export function registerAccountFeatures(context: vscode.ExtensionContext, deps: AccountDeps): void {
  const view = new PoliciesView(context, deps);
  const c = ACCOUNT_COMMANDS;
  context.subscriptions.push(
    view,
    vscode.commands.registerCommand(c.chooseTargetPolicies, (arg?: { policyIds?: unknown }) => chooseTargetPolicies(context, deps, arg)),
    vscode.commands.registerCommand(c.showCompanyRoles, () => showCompanyRoles(deps)),
    vscode.commands.registerCommand(c.addTeamMembers, (arg?: { teamId?: unknown; memberIds?: unknown }) => addTeamMembers(deps, plainArg(arg))),
    vscode.commands.registerCommand(c.updateIntegration, (arg?: Record<string, unknown>) => updateIntegration(deps, plainArg(arg))),
    vscode.commands.registerCommand(c.refreshPolicies, () => view.refresh()),
    vscode.commands.registerCommand(c.filterPolicies, (arg?: unknown) => view.chooseFilter(plainArg(arg))),
    vscode.commands.registerCommand(c.clearPolicyFilter, () => view.clearFilter()),
    vscode.commands.registerCommand(c.loadMorePolicies, (arg?: { all?: boolean }) => view.loadMore(plainArg(arg))),
    vscode.commands.registerCommand(c.addTargetPolicy, (node?: unknown) => view.setTarget(node, true)),
    vscode.commands.registerCommand(c.removeTargetPolicy, (node?: unknown) => view.setTarget(node, false)),
  );
}

/**
 * Commands run from a keybinding or a menu may receive a URI or a tree node as their
 * first argument; only a plain object counts as an automation argument.
 */
function plainArg<T>(arg: T): T | undefined {
  if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return undefined;
  const proto = Object.getPrototypeOf(arg);
  return proto === Object.prototype || proto === null ? arg : undefined;
}

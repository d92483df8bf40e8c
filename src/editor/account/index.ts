// Account features: the Policies view, target policies for scans, company roles, team
// membership and pipeline-provider integrations. Every command also takes an argument
// object (so tests and other extensions can run it without input boxes) and returns an
// Outcome describing what happened; both paths run the same code.
import type * as vscode from 'vscode';
import { plainObjectArg } from '../commands/args';
import type { Commands } from '../commands/manager';
import type { AccountDeps } from './common';
import { PoliciesView } from './policiesView';
import { chooseTargetPolicies, type TargetPolicies } from './targetPolicies';
import { showCompanyRoles } from './roles';
import { addTeamMembers } from './teamMembers';
import { updateIntegration, type UpdateIntegrationArgs } from './integrationUpdate';

export type { AccountDeps, Outcome } from './common';
export { TargetPolicies } from './targetPolicies';

/** Registers the account commands and the Policies view; everything created is owned by `context`. */
export function registerAccountFeatures(context: vscode.ExtensionContext, deps: AccountDeps, commands: Commands, targets: TargetPolicies): PoliciesView {
  const view = new PoliciesView(context, deps, targets);
  context.subscriptions.push(view);
  commands.register('codeScanner.chooseTargetPolicies', (arg) => chooseTargetPolicies(targets, deps, plainObjectArg<{ policyIds: unknown }>(arg)));
  commands.register('codeScanner.showCompanyRoles', () => showCompanyRoles(deps));
  commands.register('codeScanner.addTeamMembers', (arg) => addTeamMembers(deps, plainObjectArg<{ teamId: unknown; memberIds: unknown }>(arg)));
  commands.register('codeScanner.updateIntegration', (arg) => updateIntegration(deps, plainObjectArg<UpdateIntegrationArgs>(arg)));
  commands.register('codeScanner.policies.refresh', () => view.refresh());
  commands.register('codeScanner.policies.filter', (arg) => view.chooseFilter(plainObjectArg(arg)));
  commands.register('codeScanner.policies.clearFilter', () => view.clearFilter());
  commands.register('codeScanner.policies.loadMore', (arg) => view.loadMore(plainObjectArg<{ all: boolean }>(arg)));
  commands.register('codeScanner.policies.addTarget', (node) => view.setTarget(node, true));
  commands.register('codeScanner.policies.removeTarget', (node) => view.setTarget(node, false));
  return view;
}

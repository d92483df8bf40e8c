// Account features: the Policies view, target policies for scans, company roles, team
// membership and pipeline-provider integrations. Every command also takes an argument
// object (so tests and other extensions can run it without input boxes) and returns an
// Outcome describing what happened; both paths run the same code.
import { plainObjectArg } from '../commands/args';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { Ctx } from '../context';
import { PoliciesView } from './policiesView';
import { chooseTargetPolicies } from './targetPolicies';
import { showCompanyRoles } from './roles';
import { addTeamMembers } from './teamMembers';
import { updateIntegration, type UpdateIntegrationArgs } from './integrationUpdate';

export type { AccountDeps, Outcome } from './common';
export { TargetPolicies } from './targetPolicies';

/** The account commands and the Policies view (target policies, roles, teams, integrations). */
export function accountFeature(ctx: Ctx) {
  const { targets, session } = ctx;
  const deps = session;
  const view = ctx.own(new PoliciesView(ctx.extension, deps, targets));
  return {
    policies: view,
    commands: {
      'codeScanner.chooseTargetPolicies': (arg) => chooseTargetPolicies(targets, deps, plainObjectArg<{ policyIds: unknown }>(arg)),
      'codeScanner.showCompanyRoles': () => showCompanyRoles(deps),
      'codeScanner.addTeamMembers': (arg) => addTeamMembers(deps, plainObjectArg<{ teamId: unknown; memberIds: unknown }>(arg)),
      'codeScanner.updateIntegration': (arg) => updateIntegration(deps, plainObjectArg<UpdateIntegrationArgs>(arg)),
      // The findings' policy matches follow what the view shows (after it: one request at a time).
      'codeScanner.policies.refresh': async () => {
        const snapshot = await view.refresh();
        if (snapshot.message === undefined) void ctx.policies.refresh();
        return snapshot;
      },
      'codeScanner.policies.filter': (arg) => view.chooseFilter(plainObjectArg(arg)),
      'codeScanner.policies.clearFilter': () => view.clearFilter(),
      'codeScanner.policies.loadMore': (arg) => view.loadMore(plainObjectArg<{ all: boolean }>(arg)),
      'codeScanner.policies.addTarget': (node) => view.setTarget(node, true),
      'codeScanner.policies.removeTarget': (node) => view.setTarget(node, false),
    } satisfies SomeCommandHandlers,
  };
}

// "Choose Target Policies": which policies the next scans of this workspace check. The
// choice lives in workspaceState (per workspace and per account, never in a settings file a
// repository could ship: a switch to another company and back finds each one's own); the
// scan flow reads it through TargetPolicies.ids.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import * as vscode from 'vscode';
import type { Policy, ServiceClient } from '../../core/api';
import { parsePolicyIds } from '../../core/account/ids';
import { plural } from '../../core/account/format';
import { DisposableObject } from '../disposable';
import { cancelled, invalid, reportFailure, requireClient, type AccountDeps, type Outcome } from './common';
import { l10n } from '../../core/text/l10n';

/**
 * workspaceState key holding the target policy ids the next scan sends, by account
 * (`{[account]: number[]}`); a list kept before accounts were told apart is the account's
 * that is signed in when it is next read.
 */
const TARGET_POLICIES_KEY = STATE_KEYS.targetPolicies.key;

/** The target policies of this workspace for the signed-in account, and an event when they change (the Policies view marks them). */
export class TargetPolicies extends DisposableObject {
  private readonly changed = this.own(new vscode.EventEmitter<number[]>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento, private readonly account: () => string | undefined = () => undefined) {
    super();
  }

  private byAccount(): Record<string, unknown> {
    const v = this.state.get<unknown>(TARGET_POLICIES_KEY);
    if (Array.isArray(v)) {
      const mine = { [this.account() ?? '']: v };
      // Kept before accounts were told apart: the first account signed in when it is read has it, once.
      if (this.account()) void Promise.resolve(this.state.update(TARGET_POLICIES_KEY, mine)).catch(() => undefined);
      return mine;
    }
    return v && typeof v === 'object' ? { ...(v as Record<string, unknown>) } : {};
  }

  /** The policy ids the next scan sends as target_policies; [] = the service's defaults. */
  get ids(): number[] {
    const parsed = parsePolicyIds(this.byAccount()[this.account() ?? ''] ?? []);
    return parsed.ok ? parsed.value : [];
  }

  async set(ids: number[]): Promise<void> {
    const all = this.byAccount();
    const key = this.account() ?? '';
    if (ids.length) all[key] = ids;
    else delete all[key];
    await this.state.update(TARGET_POLICIES_KEY, Object.keys(all).length ? all : undefined);
    this.changed.fire(ids);
  }
}

/** Policies a scan may target: active and not archived. */
async function targetablePolicies(client: ServiceClient): Promise<Policy[]> {
  const all = await client.listAllPolicies({ active: true });
  // Asked for active ones; a policy that says nothing about it is taken as the service answered.
  return all.filter((p) => p.active !== false && !p.archived);
}

export interface TargetPoliciesResult {
  policyIds: number[];
  /** What the notification said. */
  message: string;
}

function confirmation(chosen: Policy[], dropped: number): string {
  const names = chosen.map((p) => p.name);
  const shown = names.length > 3 ? l10n.t('{0} and {1} more', names.slice(0, 3).join(', '), names.length - 3) : names.join(', ');
  let message = chosen.length
    ? l10n.t('Scans of this workspace will check {0}: {1}.', plural(chosen.length, l10n.t('{0} target policy'), l10n.t('{0} target policies')), shown)
    : l10n.t('Scans of this workspace will use your company\'s default policies.');
  if (dropped) message += plural(dropped, l10n.t(' {0} previously chosen policy no longer active or available was removed.'), l10n.t(' {0} previously chosen policies no longer active or available were removed.'));
  return message;
}

async function save(targets: TargetPolicies, deps: AccountDeps, chosen: Policy[], dropped: number): Promise<Outcome<TargetPoliciesResult>> {
  const policyIds = chosen.map((p) => p.id);
  await targets.set(policyIds);
  const message = confirmation(chosen, dropped);
  void deps.notifier.info(message);
  return { ok: true, value: { policyIds, message } };
}

/**
 * The command. `arg.policyIds` (for tests and automation) replaces the choice without a
 * quick pick; the ids are checked against the company's active policies either way.
 */
export async function chooseTargetPolicies(
  targets: TargetPolicies,
  deps: AccountDeps,
  arg?: { policyIds?: unknown },
): Promise<Outcome<TargetPoliciesResult>> {
  const action = l10n.t('load the policies to target');
  let requested: number[] | undefined;
  if (arg && arg.policyIds !== undefined) {
    const parsed = parsePolicyIds(arg.policyIds);
    if (!parsed.ok) return invalid(deps, parsed.message);
    requested = parsed.value;
  }
  const got = await requireClient(deps, l10n.t('choose target policies'));
  if ('failure' in got) return got.failure;

  if (requested) {
    if (requested.length === 0) return save(targets, deps, [], 0);
    let policies: Policy[];
    try {
      policies = await targetablePolicies(got.client);
    } catch (err) {
      return reportFailure(err, action, deps);
    }
    const byId = new Map(policies.map((p) => [p.id, p]));
    const unknown = requested.filter((id) => !byId.has(id));
    if (unknown.length) {
      return invalid(deps, l10n.t('Not an active policy of your company: {0}. Choose from the Policies view.', unknown.map((id) => `#${id}`).join(', ')));
    }
    return save(targets, deps, requested.map((id) => byId.get(id)!), 0);
  }
  return pickInteractively(targets, deps, got.client, action);
}

interface PolicyItem extends vscode.QuickPickItem { policy: Policy }

async function pickInteractively(targets: TargetPolicies, deps: AccountDeps, client: ServiceClient, action: string): Promise<Outcome<TargetPoliciesResult>> {
  const current = targets.ids;
  const pick = vscode.window.createQuickPick<PolicyItem>();
  pick.title = l10n.t('Target Policies for This Workspace');
  pick.placeholder = l10n.t('Loading policies…');
  pick.canSelectMany = true;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.ignoreFocusOut = true;
  pick.busy = true;
  pick.enabled = false;
  // Listen before loading, so closing the list while it loads cancels cleanly.
  let loaded = false;
  const chosen = new Promise<Policy[] | undefined>((resolve) => {
    pick.onDidAccept(() => {
      if (!loaded) return;
      resolve(pick.selectedItems.map((i) => i.policy));
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
  });
  pick.show();

  let policies: Policy[] | undefined;
  try {
    // Closing the list while it loads settles `chosen` (with nothing) first: stop there.
    policies = await Promise.race([targetablePolicies(client), chosen.then(() => undefined)]);
  } catch (err) {
    pick.dispose();
    return reportFailure(err, action, deps);
  }
  if (!policies) {
    pick.dispose();
    return cancelled();
  }
  if (policies.length === 0) {
    pick.dispose();
    const message = l10n.t('Your company has no active policies to target. Scans use the default policies.');
    void deps.notifier.info(message);
    return { ok: false, kind: 'cancelled', message };
  }

  const items: PolicyItem[] = policies.map((p) => ({
    policy: p,
    label: p.name,
    description: [`#${p.id}`, p.source_type, p.projects?.length ? p.projects.join(', ') : 'company-wide'].filter(Boolean).join(' · '),
    detail: p.description || undefined,
  }));
  pick.items = items;
  pick.selectedItems = items.filter((i) => current.includes(i.policy.id));
  pick.placeholder = l10n.t('Select the policies scans should check (select none to use the defaults), then press Enter');
  pick.busy = false;
  pick.enabled = true;
  const dropped = current.filter((id) => !policies.some((p) => p.id === id)).length;
  loaded = true;

  const picked = await chosen;
  pick.dispose();
  if (!picked) return cancelled();
  return save(targets, deps, picked, dropped);
}

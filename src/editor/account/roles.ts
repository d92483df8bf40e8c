// "Show Company Roles": every role of the company (all pages) with its count of active
// users, in a quick pick a user can filter by typing. Nothing happens on selection, so the
// list opens at once with a busy indicator and fills in when the pages are loaded.
import * as vscode from 'vscode';
import type { Role } from '../../core/api';
import { roleLine, rolesSummary, userCount } from '../../core/account/format';
import { reportFailure, requireClient, type AccountDeps, type Outcome } from './common';
import { displayLanguage, l10n } from '../../core/text/l10n';

export interface ShownRoles {
  roles: Role[];
  /** The lines as shown: "name — N users". */
  lines: string[];
}

const PAGE_SIZE = 50; // the largest page the service allows: fewest requests

/**
 * Resolves once the roles are shown (not when the list is closed), so callers such as
 * tests get the roles without having to dismiss the quick pick first.
 */
export async function showCompanyRoles(deps: AccountDeps): Promise<Outcome<ShownRoles>> {
  const got = await requireClient(deps, l10n.t('see the company roles'));
  if ('failure' in got) return got.failure;

  const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  pick.title = l10n.t('Company Roles');
  pick.placeholder = l10n.t('Loading roles…');
  pick.busy = true;
  pick.matchOnDescription = true;
  // Closing the list while it loads is fine: the roles are still returned.
  let closed = false;
  pick.onDidAccept(() => pick.hide());
  pick.onDidHide(() => { closed = true; pick.dispose(); });
  pick.show();

  let roles: Role[];
  try {
    roles = await got.client.listAllRoles({ pageSize: PAGE_SIZE });
  } catch (err) {
    pick.dispose();
    return reportFailure(err, l10n.t('list the company roles'), deps);
  }
  deps.log.info(`Listed ${roles.length} company role(s).`);
  const lines = roles.map(roleLine);
  if (closed) return { ok: true, value: { roles, lines } };

  pick.items = roles.map((r) => ({
    label: r.name,
    description: userCount(r.user_count),
    detail: createdOn(r.created_at),
  }));
  pick.title = l10n.t('Company Roles ({0})', rolesSummary(roles));
  pick.placeholder = roles.length
    ? l10n.t('Type to filter roles by name')
    : l10n.t('Your company has no roles yet (roles managed through SAML are not listed).');
  pick.busy = false;
  return { ok: true, value: { roles, lines } };
}

function createdOn(iso: string | undefined): string | undefined {
  const t = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(t) ? undefined : l10n.t('Created {0}', new Date(t).toLocaleDateString(displayLanguage()));
}

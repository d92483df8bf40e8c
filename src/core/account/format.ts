// Text for roles, teams and policies as the account commands and the Policies view show
// them. Plain strings and rows only: the VS Code layer decides on icons and markdown (and
// escapes server text there), so all of this is testable without an editor.
import type { Member, Policy, Role, Team } from '../api/schemas';

export { plural } from '../text/l10n';
import { l10n, plural } from '../text/l10n';

/** "12 users", or "users not known" when the service did not count them. */
export function userCount(n: number | undefined): string {
  return n === undefined ? l10n.t('users not known') : plural(n, l10n.t('{0} user'), l10n.t('{0} users'));
}

/** "Developers — 12 users" */
export function roleLine(role: Pick<Role, 'name' | 'user_count'>): string {
  return `${role.name} — ${userCount(role.user_count)}`;
}

/** "12 roles, 40 users in all" for a title. Users may hold one role each, so the sum is meaningful. */
export function rolesSummary(roles: readonly Pick<Role, 'user_count'>[]): string {
  if (roles.some((r) => r.user_count === undefined)) return plural(roles.length, l10n.t('{0} role'), l10n.t('{0} roles'));
  const users = roles.reduce((s, r) => s + (r.user_count ?? 0), 0);
  return l10n.t('{0}, {1} in all', plural(roles.length, l10n.t('{0} role'), l10n.t('{0} roles')), plural(users, l10n.t('{0} user'), l10n.t('{0} users')));
}

/** "Ada Lovelace", the email when the service has no name for the user, else "user #id". */
export function memberName(m: Pick<Member, 'first_name' | 'last_name' | 'email'> & { id?: number }): string {
  const name = `${m.first_name ?? ''} ${m.last_name ?? ''}`.trim();
  return name || m.email || (m.id !== undefined ? l10n.t('user #{0}', m.id) : l10n.t('unnamed user'));
}

/** "Ada Lovelace <ada@example.com>" */
export function memberLine(m: Pick<Member, 'first_name' | 'last_name' | 'email'> & { id?: number }): string {
  const name = memberName(m);
  return !m.email || name === m.email ? name : `${name} <${m.email}>`;
}

export interface TeamSummary {
  /** One sentence for a notification. */
  message: string;
  /** Requested ids that are now members. */
  added: Member[];
  /** Requested ids the returned team does not list (the service did not add them). */
  missing: number[];
}

/** What happened to a team after adding members, in the words a notification uses. */
export function summarizeTeam(team: Team, requestedIds: readonly number[]): TeamSummary {
  const name = teamName(team);
  if (!team.members) {
    // The service did not list the members: say what was asked, not what cannot be checked.
    return { message: l10n.t('{0}: asked the service to add {1}; it did not list the team\'s members.', name, plural(requestedIds.length, l10n.t('{0} member'), l10n.t('{0} members'))), added: [], missing: [] };
  }
  const byId = new Map(team.members.map((m) => [m.id, m]));
  const added = requestedIds.map((id) => byId.get(id)).filter((m): m is Member => m !== undefined);
  const missing = requestedIds.filter((id) => !byId.has(id));
  const names = added.map(memberName);
  const shown = names.length > 3 ? l10n.t('{0} and {1} more', names.slice(0, 3).join(', '), names.length - 3) : names.join(', ');
  const projects = team.project_count === undefined ? '' : plural(team.project_count, l10n.t(' and {0} project'), l10n.t(' and {0} projects'));
  let message = l10n.t('{0} now has {1}{2}.', name, plural(team.members.length, l10n.t('{0} member'), l10n.t('{0} members')), projects);
  if (added.length) message += l10n.t(' Members: {0}.', shown);
  if (missing.length) message += l10n.t(' Not in the team: {0}.', missing.map((id) => `#${id}`).join(', '));
  if (team.active === false) message += l10n.t(' The team is inactive.');
  return { message, added, missing };
}

/** `Team "Platform"`, or `Team #3` when the service sent no name. */
export function teamName(team: Pick<Team, 'id' | 'name'>): string {
  return team.name ? l10n.t('Team "{0}"', team.name) : l10n.t('Team #{0}', team.id);
}

/** Members sorted by name for a list. */
export function sortedMembers(team: Team): Member[] {
  return [...(team.members ?? [])].sort((a, b) => memberName(a).localeCompare(memberName(b)) || a.id - b.id);
}

export interface DetailRow {
  label: string;
  value: string;
}

export function policyDescription(p: Policy, opts: { isTarget?: boolean } = {}): string {
  const parts: string[] = [];
  if (opts.isTarget) parts.push('target');
  if (p.source_type) parts.push(p.source_type);
  if (p.version !== undefined) parts.push(`v${p.version}`);
  if (p.archived) parts.push('archived');
  else if (p.active === false) parts.push('inactive');
  if (p.approved === false) parts.push(l10n.t('not approved'));
  return parts.join(' · ');
}

/**
 * The state a policy's icon shows, most important first. A flag the service did not send
 * is not held against the policy (absent `active` is not "inactive").
 */
export function policyState(p: Policy): 'archived' | 'inactive' | 'unapproved' | 'active' {
  if (p.archived) return 'archived';
  if (p.active === false) return 'inactive';
  if (p.approved === false) return 'unapproved';
  return 'active';
}

function list(values: readonly string[] | undefined, none: string): string {
  return values && values.length ? values.join(', ') : none;
}

/** Rows shown under an expanded policy in the Policies view. */
export function policyDetailRows(p: Policy): DetailRow[] {
  const rows: DetailRow[] = [];
  if (p.description) rows.push({ label: l10n.t('Description'), value: p.description });
  rows.push({ label: 'CWEs', value: list(p.cwes, l10n.t('none')) });
  rows.push({ label: l10n.t('Projects'), value: list(p.projects, l10n.t('all projects (company-wide)')) });
  if (p.glob_pattern) rows.push({ label: l10n.t('Files'), value: p.glob_pattern });
  if (p.excludes?.length) rows.push({ label: l10n.t('Excludes'), value: p.excludes.join(', ') });
  const status = [p.archived ? l10n.t('archived') : p.active === false ? l10n.t('inactive') : p.active ? l10n.t('active') : l10n.t('status not given')];
  if (p.approved !== undefined) status.push(p.approved ? l10n.t('approved') : l10n.t('not approved'));
  if (p.read_only) status.push(l10n.t('read-only'));
  if (p.created_by_corgea) status.push(l10n.t('created by the service'));
  rows.push({ label: l10n.t('Status'), value: status.join(', ') });
  rows.push({ label: l10n.t('Id'), value: `#${p.id}${p.version !== undefined ? ` · ${l10n.t('version {0}', p.version)}` : ''}` });
  return rows;
}

/** Distinct source types, sorted, for the type filter's suggestions. */
export function policyTypes(policies: readonly Policy[]): string[] {
  const seen = new Map<string, string>();
  for (const p of policies) {
    if (p.source_type && !seen.has(p.source_type.toLowerCase())) seen.set(p.source_type.toLowerCase(), p.source_type);
  }
  return [...seen.values()].sort((a, b) => a.localeCompare(b));
}

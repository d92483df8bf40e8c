// "Add Members to Team": two validated input boxes (team, then user ids), one request,
// and the resulting team in a notification with its members one click away.
import * as vscode from 'vscode';
import type { Member, Team } from '../../core/api';
import { parseMemberIds, parseTeamId } from '../../core/account/ids';
import { memberName, plural, sortedMembers, summarizeTeam, teamName } from '../../core/account/format';
import { askParsed, cancelled, invalid, mayTry, pickOrType, requireClient, runWithProgress, type AccountDeps, type Outcome } from './common';
import { l10n } from '../../core/text/l10n';

export interface AddMembersResult {
  team: Team;
  added: Member[];
  /** Requested ids the returned team does not list. */
  missing: number[];
  message: string;
}

async function askTeamId(deps: AccountDeps, value?: number): Promise<number | undefined> {
  // Teams the service has shown this account are offered by name; any id may be typed.
  const known = (deps.known?.teams() ?? []).map((t) => ({ label: t.name ?? l10n.t('Team #{0}', t.id), description: `#${t.id}`, detail: plural(t.members, l10n.t('{0} member'), l10n.t('{0} members')), value: t.id }));
  return (await pickOrType({
    title: l10n.t('Add Members to Team (1/2)'), prompt: l10n.t('The team to add members to'), placeHolder: l10n.t('a team id, e.g. 42'),
    value: value === undefined ? undefined : String(value), typedLabel: (t) => l10n.t('Team id {0}', t),
  }, known, parseTeamId))?.value;
}

async function askMemberIds(deps: AccountDeps, teamId: number, value?: number[]): Promise<number[] | undefined> {
  const known = deps.known?.users() ?? [];
  if (!known.length) {
    return (await askParsed({
      title: l10n.t('Add Members to Team (2/2)'),
      prompt: l10n.t('User ids to add to team #{0}, separated by commas', teamId),
      placeHolder: 'e.g. 7, 12, 15',
      value: value?.join(', '),
    }, parseMemberIds))?.value;
  }
  // Users the service has shown in teams' answers, ticked by name; more ids may be typed.
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { id: number }>();
  pick.title = l10n.t('Add Members to Team (2/2)');
  pick.placeholder = l10n.t('Users to add to team #{0}: tick them, or type user ids separated by commas', teamId);
  pick.canSelectMany = true;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  pick.items = known.map((u) => ({ label: u.label, description: `#${u.id}${u.email ? ` · ${u.email}` : ''}`, id: u.id }));
  pick.selectedItems = pick.items.filter((i) => value?.includes(i.id));
  try {
    return await new Promise<number[] | undefined>((resolve) => {
      pick.onDidAccept(() => {
        const ticked = pick.selectedItems.map((i) => i.id);
        const typed = pick.value.trim();
        const parsed = typed ? parseMemberIds(typed) : undefined;
        if (parsed && !parsed.ok) {
          pick.placeholder = parsed.message;
          return;
        }
        const ids = [...new Set([...ticked, ...(parsed?.value ?? [])])];
        if (ids.length) resolve(ids);
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
  } finally {
    pick.dispose();
  }
}

/** The team's members in a quick pick; the ones just added are marked. */
function showMembers(team: Team, added: readonly Member[]): void {
  const addedIds = new Set(added.map((m) => m.id));
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  const projects = team.project_count === undefined ? '' : `, ${plural(team.project_count, l10n.t('{0} project'), l10n.t('{0} projects'))}`;
  pick.title = `${teamName(team)} (#${team.id}) — ${plural(team.members?.length ?? 0, l10n.t('{0} member'), l10n.t('{0} members'))}${projects}`;
  pick.placeholder = l10n.t('Type to filter members by name or email');
  pick.matchOnDescription = true;
  pick.items = sortedMembers(team).map((m) => ({
    label: memberName(m),
    description: m.email,
    detail: addedIds.has(m.id) ? l10n.t('#{0} · just added', m.id) : `#${m.id}`,
  }));
  pick.onDidAccept(() => pick.hide());
  pick.onDidHide(() => pick.dispose());
  pick.show();
}

/**
 * The command; `arg` ({teamId, memberIds}) skips the input boxes and is validated the same
 * way. `previous` prefills the input boxes (Edit and Retry after the service refused a value).
 */
export async function addTeamMembers(deps: AccountDeps, arg?: { teamId?: unknown; memberIds?: unknown }, previous?: { teamId: number; memberIds: number[] }): Promise<Outcome<AddMembersResult>> {
  let teamId: number | undefined;
  let memberIds: number[] | undefined;
  if (arg && (arg.teamId !== undefined || arg.memberIds !== undefined)) {
    const t = parseTeamId(arg.teamId);
    if (!t.ok) return invalid(deps, t.message);
    const m = parseMemberIds(arg.memberIds);
    if (!m.ok) return invalid(deps, m.message);
    teamId = t.value;
    memberIds = m.value;
  }
  const got = await requireClient(deps, l10n.t('add members to a team'));
  if ('failure' in got) return got.failure;
  const interactive = teamId === undefined;
  if (interactive && !previous && !(await mayTry(deps, 'addTeamMembers'))) return cancelled();
  if (teamId === undefined) {
    teamId = await askTeamId(deps, previous?.teamId);
    if (teamId === undefined) return cancelled();
  }
  if (memberIds === undefined) {
    memberIds = await askMemberIds(deps, teamId, previous?.memberIds);
    if (memberIds === undefined) return cancelled();
  }

  const id = teamId;
  const ids = memberIds;
  const retry = interactive ? { title: l10n.t('Edit and Retry'), run: () => addTeamMembers(deps, undefined, { teamId: id, memberIds: ids }) } : undefined;
  const result = await runWithProgress(l10n.t('Adding {0} to team #{1}…', plural(ids.length, l10n.t('{0} member'), l10n.t('{0} members')), id), l10n.t('add members to team #{0}', id), deps, () =>
    got.client.addTeamMembers(id, ids), retry);
  if (!result.ok) return result;
  const team = result.value;
  await deps.known?.rememberTeam(team);
  const summary = summarizeTeam(team, ids);
  deps.log.info(`Added members ${ids.join(', ')} to team #${team.id}; it now lists ${team.members?.length ?? 'no'} members.`);
  const showMembersAction = { title: l10n.t('Show Members'), run: () => showMembers(team, summary.added) };
  void (summary.missing.length ? deps.notifier.warn(summary.message, showMembersAction) : deps.notifier.info(summary.message, showMembersAction));
  return { ok: true, value: { team, added: summary.added, missing: summary.missing, message: summary.message } };
}

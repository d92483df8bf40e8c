// POST /teams/{team_id}/members: adds users of the caller's company to a team.
import { HttpError, readJson, sendJson } from '../http';
import { teamView } from '../views';
import type { Ctx } from './context';

export async function addTeamMembers(ctx: Ctx): Promise<void> {
  const body = await readJson(ctx.body);
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'request body must be a JSON object {"member_ids": [user ids]}');
  }
  const ids = (body as { member_ids?: unknown }).member_ids;
  if (!Array.isArray(ids) || !ids.every((x) => Number.isSafeInteger(x))) {
    throw new HttpError(400, 'member_ids must be an array of integer user ids');
  }
  const teamId = /^\d+$/.test(ctx.params.team_id) ? Number(ctx.params.team_id) : NaN;
  const company = ctx.principal.company.id;
  const team = Number.isSafeInteger(teamId) ? ctx.core.team(teamId) : undefined;
  if (!team || team.company !== company) throw new HttpError(404, `team ${ctx.params.team_id} not found`);
  const unknown = (ids as number[]).filter((id) => ctx.core.dir.user(id)?.company !== company);
  if (unknown.length) {
    throw new HttpError(400, `unknown member ids (not users of your company): ${[...new Set(unknown)].join(', ')}`);
  }
  const before = team.members.length;
  for (const id of ids as number[]) if (!team.members.includes(id)) team.members.push(id);
  if (team.members.length !== before) {
    team.updated_at = new Date().toISOString();
    await ctx.core.saveTeam(team);
  }
  sendJson(ctx.res, 200, { team: teamView(team, ctx.core.dir) });
}

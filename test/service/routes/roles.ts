// GET /roles: company roles with active user counts; the SAML-managed role is left out.
import { requireFeature } from '../auth';
import { clamp, paginate, parseIntStrict, sendJson } from '../http';
import { roleView } from '../views';
import type { Ctx } from './context';

export async function listRoles(ctx: Ctx): Promise<void> {
  requireFeature(ctx.principal, 'roles');
  const q = ctx.url.searchParams;
  // decisions.md: out-of-range paging is clamped, the operation lists no 400.
  const page = Math.max(1, parseIntStrict(q.get('page')) ?? 1);
  const pageSize = clamp(parseIntStrict(q.get('page_size')) ?? 20, 1, 50);
  const company = ctx.principal.company.id;
  const users = ctx.core.usersOf(company);
  const roles = ctx.core.rolesOf(company)
    .filter((r) => !r.saml_managed)
    .sort((a, b) => a.id - b.id)
    .map((r) => roleView(r, users));
  const { slice, totalPages } = paginate(roles, page, pageSize);
  sendJson(ctx.res, 200, { status: 'ok', roles: slice, page, total_pages: totalPages, total_roles: roles.length });
}

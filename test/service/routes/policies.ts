// GET /policies: the company's policies, newest first, with the filters of decisions.md.
import { HttpError, clamp, paginate, parseIntStrict, readJson, sendJson } from '../http';
import { policyView } from '../views';
import type { Ctx } from './context';
import { parseBool } from './verify';

const PARAMS = ['project', 'policy_type', 'active', 'page', 'page_size'] as const;

/** Query parameters; a JSON body (the spec lists a 400 for an invalid one) may carry the same keys. */
async function readParams(ctx: Ctx): Promise<Record<string, string | null>> {
  const body = await readJson(ctx.body);
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new HttpError(400, 'request body must be a JSON object');
  }
  const out: Record<string, string | null> = {};
  for (const k of PARAMS) {
    const fromBody = body ? (body as Record<string, unknown>)[k] : undefined;
    out[k] = ctx.url.searchParams.get(k) ?? (fromBody === undefined || fromBody === null ? null : String(fromBody));
  }
  return out;
}

export async function listPolicies(ctx: Ctx): Promise<void> {
  const p = await readParams(ctx);
  const active = parseBool(p.active, 'active');
  const types = (p.policy_type ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const project = p.project?.trim() || undefined;
  const page = Math.max(1, parseIntStrict(p.page) ?? 1);
  const pageSize = clamp(parseIntStrict(p.page_size) ?? 30, 1, 30);
  const list = ctx.core.policiesOf(ctx.principal.company.id)
    .filter((x) => active === undefined || x.active === active)
    .filter((x) => types.length === 0 || types.includes(x.source_type.toLowerCase()))
    .filter((x) => !project || x.projects.length === 0 || x.projects.includes(project))
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
  const { slice, totalPages } = paginate(list, page, pageSize);
  if (list.length > 0 && page > totalPages) throw new HttpError(404, 'policy not found');
  sendJson(ctx.res, 200, {
    policies: slice.map(policyView),
    pagination: { total_count: list.length, total_pages: totalPages, current_page: page, page_size: pageSize },
  });
}

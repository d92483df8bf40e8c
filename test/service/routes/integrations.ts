// PATCH /integrations/pipelineprovider/{uuid}: only the fields sent change; a new token,
// base_url or gateway_prefix is verified again against the (simulated) provider.
import { HttpError, readJson, sendJson } from '../http';
import type { SeedIntegration } from '../types';
import { integrationView } from '../views';
import type { Ctx } from './context';

const STRING_FIELDS = ['secure_token', 'name', 'base_url', 'gateway_prefix'] as const;
const FIELDS = new Set<string>([...STRING_FIELDS, 'org_allowlist']);

type Update = Partial<Pick<SeedIntegration, 'secure_token' | 'name' | 'org_allowlist' | 'base_url' | 'gateway_prefix'>>;

function parseUpdate(body: unknown): Update {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'request body must be a JSON object of the fields to update');
  }
  const extra = Object.keys(body).filter((k) => !FIELDS.has(k));
  if (extra.length) {
    throw new HttpError(400, `unknown field(s): ${extra.join(', ')}; updatable fields are ${[...FIELDS].join(', ')}`);
  }
  const b = body as Record<string, unknown>;
  for (const f of STRING_FIELDS) {
    if (f in b && typeof b[f] !== 'string') throw new HttpError(400, `${f} must be a string`);
  }
  if ('secure_token' in b && (b.secure_token as string).trim() === '') throw new HttpError(400, 'secure_token must not be empty');
  if ('name' in b && (b.name as string).trim() === '') throw new HttpError(400, 'name must not be empty');
  if ('org_allowlist' in b && !(Array.isArray(b.org_allowlist) && b.org_allowlist.every((x) => typeof x === 'string'))) {
    throw new HttpError(400, 'org_allowlist must be an array of strings');
  }
  if ('base_url' in b) {
    let u: URL | undefined;
    try { u = new URL(b.base_url as string); } catch { /* reported below */ }
    if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:')) throw new HttpError(400, 'base_url must be an http(s) URL');
  }
  return b as Update;
}

export async function updateIntegration(ctx: Ctx): Promise<void> {
  const current = ctx.core.integration(ctx.params.integration_uuid);
  if (!current || current.company !== ctx.principal.company.id) {
    throw new HttpError(404, `pipeline-provider integration ${ctx.params.integration_uuid} not found`);
  }
  const upd = parseUpdate(await readJson(ctx.body));
  const next: SeedIntegration = { ...current, ...upd };
  const changed = (Object.keys(upd) as (keyof Update)[]).filter((k) => JSON.stringify(upd[k]) !== JSON.stringify(current[k]));
  const reverify = changed.some((k) => k === 'secure_token' || k === 'base_url' || k === 'gateway_prefix');
  if (reverify) {
    const account = ctx.core.seed.provider_tokens[next.secure_token];
    if (account !== undefined && account !== current.account_id) {
      throw new HttpError(400, `the token belongs to another ${current.type} account; a replacement token must belong to account ${current.account_id}`);
    }
    if (account === undefined) {
      throw new HttpError(422, `credential verification failed: ${current.type} rejected the token`);
    }
    if (new URL(next.base_url).hostname.endsWith('.invalid')) {
      throw new HttpError(422, `credential verification failed: could not reach ${current.type} at ${next.base_url}`);
    }
    next.expired = false;
  }
  if (changed.length) {
    next.updated_at = new Date().toISOString();
    await ctx.core.saveIntegration(next);
  }
  sendJson(ctx.res, 200, { status: 'ok', integration: integrationView(next), credentials_verified: reverify });
}

// GET /verify: token check, optionally with the calling user.
import { HttpError, sendJson } from '../http';
import type { Ctx } from './context';

export function parseBool(v: string | null, name: string): boolean | undefined {
  if (v === null || v === '') return undefined;
  const t = v.trim().toLowerCase();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  throw new HttpError(400, `${name} must be true or false`);
}

export async function verify(ctx: Ctx): Promise<void> {
  const withUser = parseBool(ctx.url.searchParams.get('user_info'), 'user_info') ?? false;
  const { user, company } = ctx.principal;
  sendJson(ctx.res, 200, withUser
    ? {
        status: 'ok',
        user: { id: user.id, email: user.email, name: `${user.first_name} ${user.last_name}`, company: { id: company.id, name: company.name } },
      }
    : { status: 'ok' });
}

// Authentication (an API key, HS256 JWT in Authorization: Bearer) and per-endpoint
// permission/plan checks. Where the API key goes depends on the answer mode: the spec's
// `SERVICE-TOKEN` (seed), or, as the real service reads it, only `CORGEA-TOKEN` (real:
// decisions.md, the auth header; its docs call a wrong header the most common 401).
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http';
import { verifyJwt } from './jwt';
import type { Permission, Seed, SeedCompany, SeedUser } from './types';

export interface Principal {
  user: SeedUser;
  company: SeedCompany;
  scheme: 'api-key' | 'jwt';
}

export class Directory {
  private readonly byToken = new Map<string, SeedUser>();
  private readonly byId = new Map<number, SeedUser>();
  private readonly companies = new Map<number, SeedCompany>();

  constructor(private readonly seed: Seed) {
    for (const u of seed.users) {
      this.byId.set(u.id, u);
      if (u.api_token) this.byToken.set(u.api_token, u);
    }
    for (const c of seed.companies) this.companies.set(c.id, c);
  }

  user(id: number): SeedUser | undefined {
    return this.byId.get(id);
  }

  company(id: number): SeedCompany | undefined {
    return this.companies.get(id);
  }

  /** Resolves the caller; throws 401 with a message that never echoes the credential. */
  authenticate(req: IncomingMessage, keyHeader: 'service-token' | 'corgea-token' = 'service-token'): Principal {
    const authz = req.headers.authorization;
    const apiKey = req.headers[keyHeader];
    let user: SeedUser | undefined;
    let scheme: Principal['scheme'];
    if (typeof authz === 'string' && authz.trim() !== '') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
      if (!m) throw new HttpError(401, 'Authorization header must be "Bearer <token>"');
      const r = verifyJwt(m[1], this.seed.jwt_secret);
      if (!r.ok) {
        throw new HttpError(401, r.reason === 'expired' ? 'token has expired' : 'invalid bearer token');
      }
      user = this.byId.get(Number(r.claims.sub));
      if (!user) throw new HttpError(401, 'invalid bearer token');
      scheme = 'jwt';
    } else if (typeof apiKey === 'string' && apiKey.trim() !== '') {
      user = this.byToken.get(apiKey.trim());
      if (!user) throw new HttpError(401, 'invalid API token');
      scheme = 'api-key';
    } else {
      throw new HttpError(401, keyHeader === 'corgea-token' && typeof req.headers['service-token'] === 'string'
        ? 'authentication credentials were not provided (this service reads the API key from CORGEA-TOKEN)'
        : 'authentication credentials were not provided');
    }
    if (!user.active) throw new HttpError(401, 'user account is inactive');
    const company = this.companies.get(user.company);
    if (!company) throw new HttpError(401, 'user has no company');
    return { user, company, scheme };
  }
}

export function requirePermission(p: Principal, perm: Permission): void {
  if (!p.user.permissions.includes(perm)) {
    throw new HttpError(403, `permission denied: requires ${perm}`);
  }
}

export function requireFeature(p: Principal, feature: 'roles' | 'blast'): void {
  if (!p.company.features[feature]) {
    const what = feature === 'roles' ? 'Roles are' : 'Blast scans are';
    throw new HttpError(403, `${what} not available on the plan of company "${p.company.name}"`);
  }
}

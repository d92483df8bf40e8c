// HS256 JSON Web Tokens with node:crypto (sign for tests, verify signature and expiry).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtClaims {
  sub: string;
  exp: number;
  iat: number;
  [k: string]: unknown;
}

const b64url = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

function sign(data: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export function signJwt(claims: JwtClaims, secret: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(claims));
  return `${head}.${body}.${b64url(sign(`${head}.${body}`, secret))}`;
}

export type JwtResult = { ok: true; claims: JwtClaims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/** Same test the client uses to choose the header: three base64url parts. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

export function verifyJwt(token: string, secret: string, nowSec = Math.floor(Date.now() / 1000)): JwtResult {
  if (!looksLikeJwt(token)) return { ok: false, reason: 'malformed' };
  const [head, body, sig] = token.split('.');
  let header: unknown;
  let claims: unknown;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  // Only HS256: refusing "none" and asymmetric algorithms closes the classic confusion attacks.
  if (!header || typeof header !== 'object' || (header as { alg?: unknown }).alg !== 'HS256') {
    return { ok: false, reason: 'malformed' };
  }
  const expected = sign(`${head}.${body}`, secret);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  if (!claims || typeof claims !== 'object') return { ok: false, reason: 'malformed' };
  const c = claims as Partial<JwtClaims>;
  if (typeof c.exp !== 'number' || (typeof c.sub !== 'string' && typeof c.sub !== 'number')) {
    return { ok: false, reason: 'malformed' };
  }
  if (c.exp <= nowSec) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { ...c, sub: String(c.sub) } as JwtClaims };
}

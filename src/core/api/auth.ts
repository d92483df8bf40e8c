// Which header carries the token (decisions.md): JWT-shaped tokens are OAuth access
// tokens and go in `Authorization: Bearer`, everything else is an API key, sent both as
// `SERVICE-TOKEN` (the spec's name) and as `CORGEA-TOKEN` (the name every public client of
// the service sends; its docs call a wrong header the most common cause of 401).
// CORGEA-SOURCE identifies this client on every request.

export const CLIENT_SOURCE_HEADER = 'CORGEA-SOURCE';
export const CLIENT_SOURCE = 'vscode';
/** The API key's header as the spec names it, and as the service's own clients send it. */
export const SPEC_KEY_HEADER = 'SERVICE-TOKEN';
export const CLIENT_KEY_HEADER = 'CORGEA-TOKEN';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

export type AuthScheme = 'bearer' | 'service-token' | 'none';

export function authScheme(token: string): AuthScheme {
  if (token === '') return 'none';
  return looksLikeJwt(token) ? 'bearer' : 'service-token';
}

/** Which of the two headers carries an API key: both (the default), or one alone (Check Connection asks which the service accepts). */
export type KeyHeaders = 'both' | 'spec' | 'client';

/** Headers for the token; none at all for an empty token (the server then answers 401). */
export function authHeaders(token: string, keyHeaders: KeyHeaders = 'both'): Record<string, string> {
  switch (authScheme(token)) {
    case 'bearer':
      return { authorization: `Bearer ${token}` };
    case 'service-token':
      return {
        ...(keyHeaders !== 'client' ? { [SPEC_KEY_HEADER]: token } : {}),
        ...(keyHeaders !== 'spec' ? { [CLIENT_KEY_HEADER]: token } : {}),
      };
    default:
      return {};
  }
}

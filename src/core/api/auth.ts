// Which header carries the token (decisions.md): JWT-shaped tokens are OAuth access
// tokens and go in `Authorization: Bearer`, everything else is an API key for
// `SERVICE-TOKEN`. CORGEA-SOURCE identifies this client on every request.

export const CLIENT_SOURCE_HEADER = 'CORGEA-SOURCE';
export const CLIENT_SOURCE = 'vscode';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

export type AuthScheme = 'bearer' | 'service-token' | 'none';

export function authScheme(token: string): AuthScheme {
  if (token === '') return 'none';
  return looksLikeJwt(token) ? 'bearer' : 'service-token';
}

/** Headers for the token; none at all for an empty token (the server then answers 401). */
export function authHeaders(token: string): Record<string, string> {
  switch (authScheme(token)) {
    case 'bearer':
      return { authorization: `Bearer ${token}` };
    case 'service-token':
      return { 'SERVICE-TOKEN': token };
    default:
      return {};
  }
}

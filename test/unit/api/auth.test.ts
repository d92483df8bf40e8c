import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authHeaders, authScheme, looksLikeJwt } from '../../../src/core/api/auth';

test('auth header choice follows the token shape', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl_-';
  const cases: [string, 'bearer' | 'service-token' | 'none'][] = [
    [jwt, 'bearer'],
    ['a.b.c', 'bearer'],
    ['0123456789abcdef0123456789abcdef', 'service-token'],
    ['a.b', 'service-token'],
    ['a.b.c.d', 'service-token'],
    ['a..c', 'service-token'],
    ['a.b.c=', 'service-token'],
    ['a+b.c.d', 'service-token'],
    ['', 'none'],
  ];
  for (const [token, want] of cases) assert.equal(authScheme(token), want, token);
  assert.equal(looksLikeJwt(jwt), true);
  assert.deepEqual(authHeaders(jwt), { authorization: `Bearer ${jwt}` });
  // An API key goes in both headers (decisions.md): the spec's, and the one the service's own clients send.
  assert.deepEqual(authHeaders('plain-api-key'), { 'SERVICE-TOKEN': 'plain-api-key', 'CORGEA-TOKEN': 'plain-api-key' });
  assert.deepEqual(authHeaders('plain-api-key', 'client'), { 'CORGEA-TOKEN': 'plain-api-key' });
  assert.deepEqual(authHeaders('plain-api-key', 'spec'), { 'SERVICE-TOKEN': 'plain-api-key' });
  assert.deepEqual(authHeaders(jwt, 'client'), { authorization: `Bearer ${jwt}` }, 'a JWT stays a bearer token');
  assert.deepEqual(authHeaders(''), {});
});

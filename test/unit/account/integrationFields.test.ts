import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  changedFieldLabels, changesReverify, integrationUpdateSummary, parseField, parseIntegrationChanges,
  INTEGRATION_FIELDS,
} from '../../../src/core/account/integrationFields';

test('each field validates its input', () => {
  const cases: [Parameters<typeof parseField>[0], unknown, unknown][] = [
    ['name', ' Build pipelines ', 'Build pipelines'],
    ['name', '', /Enter a name/],
    ['name', 'x'.repeat(256), /too long/],
    ['orgAllowlist', 'acme, acme-labs,acme', ['acme', 'acme-labs']],
    ['orgAllowlist', '', []],
    ['orgAllowlist', 'acme labs', /contains a space/],
    ['orgAllowlist', ['a', ' b '], ['a', 'b']],
    ['baseUrl', ' https://ci.example.com/ ', 'https://ci.example.com/'],
    ['baseUrl', 'http://10.0.0.5:8080', 'http://10.0.0.5:8080'],
    ['baseUrl', 'ci.example.com', /is not a URL/],
    ['baseUrl', 'ftp://ci.example.com', /must start with https/],
    ['baseUrl', 'https://user:pw@ci.example.com', /credentials in the URL/],
    ['gatewayPrefix', ' /gw ', '/gw'],
    ['gatewayPrefix', '', ''],
    ['gatewayPrefix', '/a b', /spaces/],
    ['token', ' tok-123 ', 'tok-123'],
    ['token', '', /Enter the new access token/],
    ['token', 'tok 123', /cannot contain spaces/],
  ];
  for (const [field, input, want] of cases) {
    const r = parseField(field, input);
    if (want instanceof RegExp) {
      assert.equal(r.ok, false, `${field} ${JSON.stringify(input)}`);
      if (!r.ok) assert.match(r.message, want);
    } else {
      assert.deepEqual(r, { ok: true, value: want }, `${field} ${JSON.stringify(input)}`);
    }
  }
});

test('parseIntegrationChanges keeps only given fields and rejects unknown ones', () => {
  assert.deepEqual(parseIntegrationChanges({ uuid: 'x', name: 'N', token: undefined }), { ok: true, value: { name: 'N' } });
  assert.deepEqual(parseIntegrationChanges({ orgAllowlist: 'a,b', token: 't' }), { ok: true, value: { orgAllowlist: ['a', 'b'], token: 't' } });
  const unknown = parseIntegrationChanges({ secure_token: 't' });
  assert.equal(unknown.ok, false);
  if (!unknown.ok) assert.match(unknown.message, /"secure_token" is not a field/);
  const none = parseIntegrationChanges({ uuid: 'x' });
  assert.equal(none.ok, false);
  if (!none.ok) assert.match(none.message, /at least one field/);
  const bad = parseIntegrationChanges({ baseUrl: 'nope' });
  assert.equal(bad.ok, false);
});

test('summaries name the changed fields, never the token value', () => {
  const changes = { name: 'New', token: 'super-secret-token' };
  assert.deepEqual(changedFieldLabels(changes), ['Name', 'Access token']);
  assert.equal(changesReverify(changes), true);
  assert.equal(changesReverify({ name: 'x', orgAllowlist: [] }), false);
  const s = integrationUpdateSummary('New', changes, true);
  assert.equal(s, 'Integration "New" updated (Name, Access token). The credentials were verified.');
  assert.doesNotMatch(s, /super-secret-token/);
  assert.match(integrationUpdateSummary('N', { name: 'N' }, false), /not re-checked/);
  assert.match(integrationUpdateSummary('N', { baseUrl: 'https://x' }, false), /not re-verified/);
});

test('only the token is asked for in a password box, and it re-verifies', () => {
  assert.deepEqual(INTEGRATION_FIELDS.filter((f) => f.secret).map((f) => f.field), ['token']);
  assert.deepEqual(INTEGRATION_FIELDS.filter((f) => f.reverifies).map((f) => f.field), ['baseUrl', 'gatewayPrefix', 'token']);
});

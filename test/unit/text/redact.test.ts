// The token in every form a server or library might echo it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SecretRedactor, redactSecrets } from '../../../src/core/text/redact';

const TOKEN = 'csk_Live_9f8E7d6C5b4A3z2Y1x0W';

test('the token is redacted as sent, in any letter case and percent-encoded', () => {
  for (const form of [TOKEN, TOKEN.toLowerCase(), TOKEN.toUpperCase(), encodeURIComponent(`${TOKEN}/+=`)]) {
    const out = redactSecrets(`error: bad token ${form} given`, [TOKEN, `${TOKEN}/+=`]);
    assert.equal(out, 'error: bad token *** given', form);
  }
});

test('the token inside base64 is redacted whatever precedes it (echoed Basic auth headers)', () => {
  for (const prefix of ['', 'u:', 'us:', 'user:', 'longer-user-name:']) {
    for (const enc of ['base64', 'base64url'] as const) {
      const blob = Buffer.from(`${prefix}${TOKEN}`).toString(enc);
      const out = redactSecrets(`Authorization: Basic ${blob}`, [TOKEN]);
      assert.ok(out.includes('***'), `${enc} with prefix "${prefix}": ${out}`);
      // What remains cannot be decoded back into the token.
      assert.ok(!Buffer.from(out.split(' ').pop()!.replace(/\*/g, ''), enc).toString().includes(TOKEN.slice(4, -4)), out);
    }
  }
});

test('short secrets are left alone and text without a secret is unchanged', () => {
  assert.equal(redactSecrets('abc appears in abcdef', ['abc']), 'abc appears in abcdef');
  assert.equal(redactSecrets('nothing secret here', [TOKEN]), 'nothing secret here');
});

test('SecretRedactor forgets a secret once it is deleted', () => {
  const r = new SecretRedactor();
  r.add(TOKEN);
  assert.equal(r.apply(`x ${TOKEN}`), 'x ***');
  r.delete(TOKEN);
  assert.equal(r.apply(`x ${TOKEN}`), `x ${TOKEN}`);
});

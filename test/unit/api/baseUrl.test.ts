import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeBaseUrl, resolveBaseUrl, isLoopbackHost, REGION_BASE_URLS } from '../../../src/core/api/baseUrl';
import { ClientValidationError } from '../../../src/core/api/errors';

test('normalizeBaseUrl: trailing slashes trimmed, /api/v1 appended once', () => {
  const cases: [string, string][] = [
    ['https://scanner.example.com', 'https://scanner.example.com/api/v1'],
    ['https://scanner.example.com/', 'https://scanner.example.com/api/v1'],
    ['https://scanner.example.com///', 'https://scanner.example.com/api/v1'],
    ['https://scanner.example.com/api/v1', 'https://scanner.example.com/api/v1'],
    ['https://scanner.example.com/api/v1/', 'https://scanner.example.com/api/v1'],
    ['https://scanner.example.com/api/v1//', 'https://scanner.example.com/api/v1'],
    ['  https://Scanner.Example.com/tenant/  ', 'https://scanner.example.com/tenant/api/v1'],
    ['https://scanner.example.com:8443/api/v1', 'https://scanner.example.com:8443/api/v1'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/api/v1'],
    ['http://127.8.9.10:4010/api/v1/', 'http://127.8.9.10:4010/api/v1'],
    ['http://localhost:4010/', 'http://localhost:4010/api/v1'],
    ['http://[::1]:4010', 'http://[::1]:4010/api/v1'],
  ];
  for (const [input, want] of cases) assert.equal(normalizeBaseUrl(input), want, input);
});

test('normalizeBaseUrl: rejects unusable URLs with a clear validation error', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['scanner.example.com', /The service URL is not a valid address/],
    ['https://exa mple.com', /The service URL for exa is not a valid address/],
    ['ftp://scanner.example.com', /must start with https/],
    ['http://scanner.example.com', /plain http/],
    ['http://10.0.0.5:8000', /plain http/],
    ['http://128.0.0.1', /plain http/],
    ['http://localhost.example.com', /plain http/],
    ['https://user:secret@scanner.example.com', /user name or password/],
    ['https://scanner.example.com/api/v1?x=1', /query/],
    ['https://scanner.example.com/#frag', /fragment/],
  ];
  for (const [input, re] of cases) {
    assert.throws(
      () => normalizeBaseUrl(input),
      (e: unknown) => e instanceof ClientValidationError && e.kind === 'validation' && re.test(e.message),
      input,
    );
  }
});

test('normalizeBaseUrl never echoes credentials it rejects', () => {
  try {
    normalizeBaseUrl('https://user:hunter2secret@scanner.example.com');
    assert.fail('should throw');
  } catch (e) {
    assert.ok(!(e as Error).message.includes('hunter2secret'));
  }
});

test('isLoopbackHost', () => {
  const cases: [string, boolean][] = [
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['[::1]', true],
    ['::1', true],
    ['127.0.0.256', false],
    ['10.0.0.1', false],
    ['example.com', false],
    ['127.0.0.1.nip.io', false],
  ];
  for (const [h, want] of cases) assert.equal(isLoopbackHost(h), want, h);
});

test('resolveBaseUrl: regions and custom URL', () => {
  assert.equal(resolveBaseUrl({}), REGION_BASE_URLS.production);
  assert.equal(resolveBaseUrl({ region: 'production' }), REGION_BASE_URLS.production);
  assert.equal(resolveBaseUrl({ region: 'eu' }), REGION_BASE_URLS.eu);
  assert.equal(resolveBaseUrl({ region: 'eu', customUrl: '   ' }), REGION_BASE_URLS.eu);
  assert.equal(resolveBaseUrl({ region: 'eu', customUrl: 'https://tenant.example.com/' }), 'https://tenant.example.com/api/v1');
  for (const url of Object.values(REGION_BASE_URLS)) {
    assert.match(url, /^https:\/\/[^/]+\/api\/v1$/);
    assert.equal(normalizeBaseUrl(url), url);
  }
  assert.notEqual(REGION_BASE_URLS.production, REGION_BASE_URLS.eu);
});

test('a URL that does not parse is named by its host only: a password in it is never echoed', () => {
  for (const input of ['https://alice:hunter2 secret@scanner.example.com/api', 'https://alice:hunter2secret@scan ner.example.com', 'https://:hunter2secret@[bad']) {
    assert.throws(() => normalizeBaseUrl(input), (e: unknown) => {
      assert.ok(e instanceof ClientValidationError);
      assert.ok(!e.message.includes('hunter2'), e.message);
      assert.ok(!e.message.includes('alice'), e.message);
      assert.match(e.message, /user name or password/);
      return true;
    }, input);
  }
});

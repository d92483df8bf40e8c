// Which way a request goes, from the editor's settings and the environment (pure).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Network, bypassesProxy, chooseProxy, proxyLabel, type ProxySettings } from '../../../src/core/network';
import { ClientValidationError } from '../../../src/core/api';

const none: ProxySettings = { proxy: '', proxyAuthorization: '', noProxy: [], support: 'override' };
const target = new URL('https://scanner.example.com/api/v1/verify');

test('the setting wins over the environment; without either the request is direct', () => {
  const env = { HTTPS_PROXY: 'http://env-proxy:3128' };
  const fromSetting = chooseProxy(target, { ...none, proxy: 'http://corp-proxy:8080' }, env);
  assert.equal(fromSetting.kind, 'proxy');
  assert.ok(fromSetting.kind === 'proxy' && fromSetting.url.host === 'corp-proxy:8080' && /http\.proxy/.test(fromSetting.from));
  const fromEnv = chooseProxy(target, none, env);
  assert.ok(fromEnv.kind === 'proxy' && fromEnv.url.host === 'env-proxy:3128' && /HTTPS_PROXY/.test(fromEnv.from));
  assert.deepEqual(chooseProxy(target, none, {}), { kind: 'direct', why: 'none' });
  // An https target falls back to HTTP_PROXY, like curl's and undici's environment agents.
  assert.equal(chooseProxy(target, none, { http_proxy: 'proxy:3128' }).kind, 'proxy');
});

test('loopback is always direct; http.proxySupport off turns proxies off', () => {
  const s = { ...none, proxy: 'http://corp-proxy:8080' };
  for (const u of ['http://localhost:8080/', 'http://127.0.0.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/']) {
    assert.deepEqual(chooseProxy(new URL(u), s, {}), { kind: 'direct', why: 'loopback' }, u);
  }
  assert.deepEqual(chooseProxy(target, { ...s, support: 'off' }, { HTTPS_PROXY: 'http://p:1' }), { kind: 'direct', why: 'support-off' });
});

test('no-proxy entries from the setting and NO_PROXY: hosts, domains, wildcards, ports and ranges', () => {
  const at = (u: string) => new URL(u);
  assert.ok(bypassesProxy(at('https://scanner.example.com/'), ['example.com']));
  assert.ok(bypassesProxy(at('https://example.com/'), ['.example.com']));
  assert.ok(bypassesProxy(at('https://a.b.example.com/'), ['*.example.com']));
  assert.ok(!bypassesProxy(at('https://notexample.com/'), ['example.com']));
  assert.ok(bypassesProxy(at('https://scanner.example.com/'), ['scanner.example.com:443']));
  assert.ok(!bypassesProxy(at('https://scanner.example.com:8443/'), ['scanner.example.com:443']));
  assert.ok(bypassesProxy(at('https://10.1.2.3/'), ['10.0.0.0/8']));
  assert.ok(!bypassesProxy(at('https://11.1.2.3/'), ['10.0.0.0/8']));
  assert.ok(bypassesProxy(at('https://[fd00::5]/'), ['fd00::/8']));
  assert.ok(bypassesProxy(at('https://anything/'), ['*']));
  const s = { ...none, proxy: 'http://corp-proxy:8080', noProxy: ['intranet.local'] };
  assert.deepEqual(chooseProxy(new URL('https://scan.intranet.local/'), s, {}), { kind: 'direct', why: 'no-proxy' });
  assert.deepEqual(chooseProxy(target, s, { NO_PROXY: 'foo.org, example.com' }), { kind: 'direct', why: 'no-proxy' });
  assert.equal(chooseProxy(target, s, {}).kind, 'proxy');
});

test('credentials: from http.proxyAuthorization or the URL, sent as a header and never part of the label', () => {
  const withUrl = chooseProxy(target, { ...none, proxy: 'http://alice:s%40cret@corp-proxy:8080' }, {});
  assert.ok(withUrl.kind === 'proxy');
  assert.equal(withUrl.authorization, `Basic ${Buffer.from('alice:s@cret').toString('base64')}`);
  assert.equal(withUrl.url.username, '');
  assert.equal(withUrl.url.password, '');
  assert.equal(proxyLabel(withUrl.url), 'corp-proxy:8080');
  assert.ok(!withUrl.url.href.includes('cret'));
  const withSetting = chooseProxy(target, { ...none, proxy: 'http://alice:x@corp-proxy:8080', proxyAuthorization: 'Negotiate abc' }, {});
  assert.ok(withSetting.kind === 'proxy' && withSetting.authorization === 'Negotiate abc');
  const bare = chooseProxy(target, { ...none, proxy: 'corp-proxy:3128' }, {});
  assert.ok(bare.kind === 'proxy' && bare.url.protocol === 'http:' && proxyLabel(bare.url) === 'corp-proxy:3128');
});

test('an unusable proxy address says which setting or variable holds it', () => {
  assert.throws(() => chooseProxy(target, { ...none, proxy: 'socks5://p:1080' }, {}), (e: unknown) => e instanceof ClientValidationError && /http\.proxy/.test(e.message) && /socks5/.test(e.message));
  assert.throws(() => chooseProxy(target, none, { HTTPS_PROXY: 'http://' }), (e: unknown) => e instanceof ClientValidationError && /HTTPS_PROXY/.test(e.message));
});

test('the secrets to redact: proxy passwords from the setting and the environment, the authorization value', async () => {
  const n = new Network({ proxy: { ...none, proxy: 'http://alice:s%40cret-1@p:1', proxyAuthorization: 'Bearer tok-123456' }, trust: { systemCertificates: false, strictSSL: true } }, { HTTPS_PROXY: 'http://bob:env-pass@q:2' });
  const secrets = n.secrets();
  for (const s of ['s%40cret-1', 's@cret-1', Buffer.from('alice:s@cret-1').toString('base64'), 'env-pass', 'Bearer tok-123456', 'tok-123456']) {
    assert.ok(secrets.includes(s), s);
  }
  await n.close();
});

// The Check Connection report (pure): every line a support ticket needs, nothing secret.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectionReport, type ConnectionFacts } from '../../../src/core/network';

const base: ConnectionFacts = {
  at: '2026-11-23T10:00:00.000Z',
  service: { url: 'https://scanner.example.com/api/v1', from: 'from "codeScanner.customBaseUrl"' },
  route: { direct: false, proxy: 'corp-proxy:8080', from: 'the setting "http.proxy"', authenticates: true },
  trust: { sources: ["the system's trusted certificates (140)"], problems: [], strict: true },
  verify: { ok: true, ms: 84, status: 200 },
  signedIn: true,
  tokenSent: true,
  user: 'Dana <dana@example.com>, Acme',
  warnings: ['API v1 is deprecated'],
  client: 'code-scanner-vscode 0.1.0, Code 1.139.1, local',
};

test('a working connection: route, certificates, TLS, latency, account, warnings', () => {
  const r = connectionReport(base);
  assert.equal(r.ok, true);
  assert.equal(r.summary, 'Reached the service in 84 ms through the proxy corp-proxy:8080, signed in as Dana <dana@example.com>, Acme.');
  for (const line of [
    /Service:\s+https:\/\/scanner\.example\.com\/api\/v1 \(from "codeScanner\.customBaseUrl"\)/,
    /Route:\s+through the proxy corp-proxy:8080 \(from the setting "http\.proxy"\), with credentials/,
    /Certificates:\s+Node's bundled roots \+ the system's trusted certificates \(140\)/,
    /TLS:\s+verified/,
    /GET \/verify:\s+HTTP 200 in 84 ms/,
    /Service says:\s+API v1 is deprecated/,
  ]) assert.match(r.text, line);
});

test('failures say where it stopped', () => {
  const tls = connectionReport({ ...base, verify: { ok: false, ms: 12, error: 'the TLS certificate of scanner.example.com was not accepted', tlsFailed: true }, user: undefined });
  assert.equal(tls.ok, false);
  assert.match(tls.text, /TLS:\s+the certificate was not accepted/);
  assert.match(tls.summary, /^Cannot reach the service: the TLS certificate/);
  const rejected = connectionReport({ ...base, verify: { ok: false, ms: 30, status: 401, error: 'rejected' }, user: undefined });
  assert.equal(rejected.ok, false);
  assert.match(rejected.summary, /but the stored API key was not accepted/);
  const noToken = connectionReport({ ...base, signedIn: false, tokenSent: false, user: undefined, verify: { ok: false, ms: 30, status: 401, error: 'rejected' } });
  assert.equal(noToken.ok, true, 'a 401 without a token still shows the service is reachable');
  assert.match(noToken.text, /Account:\s+not signed in/);
  const unchecked = connectionReport({ ...base, trust: { ...base.trust, strict: false } });
  assert.match(unchecked.text, /checking is OFF/);
  assert.match(unchecked.text, /TLS:\s+connected, certificate NOT checked/);
  const badUrl = connectionReport({ ...base, service: { error: 'The service URL must start with https://' }, route: undefined, verify: undefined });
  assert.match(badUrl.text, /Service:\s+not usable: The service URL must start with https:\/\//);
  assert.equal(badUrl.ok, false);
  // The one-line summary says why too (a plain-http remote address is refused), not just "cannot reach".
  const plainHttp = connectionReport({ ...base, service: { error: 'The service URL http://scanner.example.com uses plain http, which would send your API key unencrypted.' }, route: undefined, verify: undefined });
  assert.match(plainHttp.summary, /^The service address cannot be used: .*uses plain http/);
});

test('the web app version and which header carries the API key', () => {
  const r = connectionReport({ ...base, webApp: 'v1.71.3', keyHeaders: { 'CORGEA-TOKEN': true, 'SERVICE-TOKEN': false } });
  assert.match(r.text, /API key header:\s+the service accepts it in CORGEA-TOKEN, not in SERVICE-TOKEN alone \(both are sent\)/);
  assert.match(r.text, /Web app:\s+v1\.71\.3/);
  const both = connectionReport({ ...base, keyHeaders: { 'CORGEA-TOKEN': true, 'SERVICE-TOKEN': true } });
  assert.match(both.text, /accepts it in CORGEA-TOKEN and SERVICE-TOKEN \(both are sent\)/);
  assert.doesNotMatch(connectionReport(base).text, /API key header|Web app/, 'nothing said when not asked (a JWT, not signed in)');
});

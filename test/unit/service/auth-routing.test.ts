// Reference service: authentication schemes, 401 bodies, permissions and plan denials,
// unknown routes and methods, the trailing slash of upload paths.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signJwt } from '../../service/jwt';
import { startReferenceService, type ReferenceService } from '../../service';
import { call } from './wire';

let svc: ReferenceService;
before(async () => { svc = await startReferenceService(); });
after(() => svc.close());

describe('reference service authentication', () => {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const cases: { name: string; creds: () => { token?: string | null; jwt?: string; headers?: Record<string, string> }; status: number }[] = [
    { name: 'API key of an active user', creds: () => ({ token: svc.seed.tokens.demo }), status: 200 },
    { name: 'valid JWT', creds: () => ({ jwt: svc.issueJwt(svc.seed.user_ids.demo) }), status: 200 },
    { name: 'no credentials', creds: () => ({ token: null }), status: 401 },
    { name: 'unknown API key', creds: () => ({ token: 'csk_not_a_real_token' }), status: 401 },
    { name: 'API key of an inactive user', creds: () => ({ token: svc.seed.tokens.inactive }), status: 401 },
    { name: 'expired JWT', creds: () => ({ jwt: svc.issueJwt(svc.seed.user_ids.demo, { expiresInSec: -5 }) }), status: 401 },
    { name: 'JWT of an inactive user', creds: () => ({ jwt: svc.issueJwt(svc.seed.user_ids.inactive) }), status: 401 },
    { name: 'JWT signed with another secret', creds: () => ({ jwt: signJwt({ sub: '1', iat: 0, exp: 4102444800 }, 'wrong-secret') }), status: 401 },
    { name: 'unsigned JWT (alg none)', creds: () => ({ jwt: `${b64({ alg: 'none' })}.${b64({ sub: '1', exp: 4102444800 })}.x` }), status: 401 },
    { name: 'JWT without exp', creds: () => ({ jwt: signJwt({ sub: '1' } as never, svc.seed.jwt_secret) }), status: 401 },
    { name: 'API key sent as Bearer', creds: () => ({ token: null, headers: { Authorization: `Bearer ${svc.seed.tokens.demo}` } }), status: 401 },
  ];
  for (const c of cases) {
    it(`${c.name}: /verify ${c.status}, /policies ${c.status}`, async () => {
      const v = await call(svc, 'GET', '/verify', c.creds());
      assert.equal(v.status, c.status);
      assert.deepEqual(v.json, c.status === 200 ? { status: 'ok' } : { status: 'error' });
      const p = await call(svc, 'GET', '/policies', c.creds());
      assert.equal(p.status, c.status);
      if (c.status === 401) {
        assert.deepEqual(Object.keys(p.json), ['error']);
        assert.ok(!p.text.includes(svc.seed.tokens.demo), 'the credential is never echoed');
      }
    });
  }

  it('user_info returns the verified user', async () => {
    const r = await call(svc, 'GET', '/verify?user_info=true');
    assert.deepEqual(r.json, { status: 'ok', user: { id: 1, email: 'dana.demo@acme.example', name: 'Dana Demo', company: { id: 1, name: 'Acme Corp' } } });
  });

  it('records the CORGEA-SOURCE header, "api" when absent', async () => {
    await call(svc, 'GET', '/verify', { headers: { 'CORGEA-SOURCE': 'vscode' } });
    await call(svc, 'GET', '/verify');
    const last = svc.requests().slice(-2);
    assert.deepEqual(last.map((e) => e.source), ['vscode', null]);
  });
});

describe('reference service permissions and plans', () => {
  const routes: { name: string; method: string; path: string; body?: string }[] = [
    { name: 'roles', method: 'GET', path: '/roles' },
    { name: 'team members', method: 'POST', path: '/teams/1/members', body: '{"member_ids":[5]}' },
    { name: 'integration update', method: 'PATCH', path: '/integrations/pipelineprovider/7b0e5c1a-2f4d-4e8b-9a6c-1d2e3f4a5b6c', body: '{"name":"x"}' },
    { name: 'policies', method: 'GET', path: '/policies' },
    { name: 'quality issues', method: 'GET', path: '/scan/whatever/issues/quality' },
    { name: 'start scan', method: 'POST', path: '/start-scan?scan_type=blast', body: '{}' },
    { name: 'chunk', method: 'PATCH', path: '/start-scan/x/', body: '{}' },
  ];
  for (const r of routes) {
    it(`${r.name}: a user without permissions gets 403 {error}`, async () => {
      const a = await call(svc, r.method, r.path, { token: svc.seed.tokens.noPermissions, body: r.body });
      assert.equal(a.status, 403);
      assert.match(a.json.error, /permission/);
    });
  }

  it('a read-only user may list but not manage', async () => {
    const t = svc.seed.tokens.readOnly;
    assert.equal((await call(svc, 'GET', '/roles', { token: t })).status, 200);
    assert.equal((await call(svc, 'GET', '/policies', { token: t })).status, 200);
    assert.equal((await call(svc, 'POST', '/teams/1/members', { token: t, body: '{"member_ids":[]}' })).status, 403);
  });

  it('a company without the roles feature gets 403 on /roles', async () => {
    const r = await call(svc, 'GET', '/roles', { token: svc.seed.tokens.noRolesFeature });
    assert.equal(r.status, 403);
    assert.match(r.json.error, /not available on the plan/);
  });

  it('a company without blast scans gets 403 on /start-scan', async () => {
    const form = new FormData();
    form.append('scan_type', 'blast');
    form.append('files', new Blob([]), 'p.zip');
    const r = await call(svc, 'POST', '/start-scan', { token: svc.seed.tokens.noBlast, body: form });
    assert.equal(r.status, 403);
    assert.match(r.json.error, /Blast scans are not available/);
  });
});

describe('reference service routing', () => {
  const cases: { name: string; method: string; path: string; status: number }[] = [
    { name: 'unknown path', method: 'GET', path: '/nothing-here', status: 404 },
    { name: 'outside /api/v1', method: 'GET', path: '/../verify', status: 404 },
    { name: 'wrong method', method: 'DELETE', path: '/roles', status: 405 },
    { name: 'POST on verify', method: 'POST', path: '/verify', status: 405 },
    { name: 'HEAD without the trailing slash', method: 'HEAD', path: '/start-scan/abc', status: 404 },
    { name: 'PATCH without the trailing slash', method: 'PATCH', path: '/start-scan/abc', status: 404 },
    { name: 'roles with a trailing slash', method: 'GET', path: '/roles/', status: 404 },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.status}`, async () => {
      const r = await call(svc, c.method, c.path);
      assert.equal(r.status, c.status);
      if (c.method !== 'HEAD') assert.equal(typeof r.json.error, 'string');
      if (c.status === 405) assert.ok(r.headers.get('allow'));
    });
  }
});

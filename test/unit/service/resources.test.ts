// Reference service: roles, team members, integration updates and policies, per the spec
// and decisions.md (paging clamps, filters, 4xx rows).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startReferenceService, type ReferenceService } from '../../service';
import { request } from 'node:http';
import { call } from './wire';

/** fetch cannot send a GET body; the spec lists a 400 for an invalid one on /policies. */
function getWithBody(url: string, body: string, token: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { 'SERVICE-TOKEN': token, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let svc: ReferenceService;
before(async () => { svc = await startReferenceService(); });
after(() => svc.close());

describe('reference service roles', () => {
  it('lists the company roles without the SAML-managed one, counting active users', async () => {
    const r = await call(svc, 'GET', '/roles');
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'ok');
    const names = r.json.roles.map((x: { name: string }) => x.name);
    assert.ok(!names.includes('SAML Users'));
    assert.equal(r.json.total_roles, 6);
    const dev = r.json.roles.find((x: { name: string }) => x.name === 'Developer');
    assert.equal(dev.user_count, 3, 'Ivy is inactive and not counted');
    assert.deepEqual(Object.keys(dev).sort(), ['created_at', 'id', 'name', 'user_count']);
  });

  const paging: { q: string; page: number; size: number; count: number; totalPages: number }[] = [
    { q: '', page: 1, size: 20, count: 6, totalPages: 1 },
    { q: '?page_size=4&page=2', page: 2, size: 4, count: 2, totalPages: 2 },
    { q: '?page=0&page_size=0', page: 1, size: 1, count: 1, totalPages: 6 },
    { q: '?page_size=500', page: 1, size: 50, count: 6, totalPages: 1 },
    { q: '?page=9', page: 9, size: 20, count: 0, totalPages: 1 },
  ];
  for (const p of paging) {
    it(`paging ${p.q || '(defaults)'} is clamped, never a 400`, async () => {
      const r = await call(svc, 'GET', `/roles${p.q}`);
      assert.equal(r.status, 200);
      assert.equal(r.json.page, p.page);
      assert.equal(r.json.roles.length, p.count);
      assert.equal(r.json.total_pages, p.totalPages);
    });
  }
});

describe('reference service team members', () => {
  const cases: { name: string; team: string; body: string; status: number; error?: RegExp }[] = [
    { name: 'invalid JSON', team: '1', body: '{"member_ids": [', status: 400, error: /not valid JSON/ },
    { name: 'member_ids missing', team: '1', body: '{}', status: 400, error: /member_ids/ },
    { name: 'member_ids of strings', team: '1', body: '{"member_ids":["5"]}', status: 400, error: /integer/ },
    { name: 'member_ids not an array', team: '1', body: '{"member_ids":5}', status: 400 },
    { name: 'unknown team', team: '999', body: '{"member_ids":[5]}', status: 404 },
    { name: "another company's team", team: '20', body: '{"member_ids":[5]}', status: 404 },
    { name: 'non-numeric team id', team: 'abc', body: '{"member_ids":[5]}', status: 404 },
    { name: 'unknown and foreign user ids', team: '1', body: '{"member_ids":[5,999,11]}', status: 400, error: /999, 11/ },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.status}`, async () => {
      const r = await call(svc, 'POST', `/teams/${c.team}/members`, { body: c.body });
      assert.equal(r.status, c.status);
      assert.equal(typeof r.json.error, 'string');
      if (c.error) assert.match(r.json.error, c.error);
    });
  }

  it('adds members and returns the whole team (200)', async () => {
    const r = await call(svc, 'POST', '/teams/3/members', { body: '{"member_ids":[6,7,6]}' });
    assert.equal(r.status, 200);
    const t = r.json.team;
    assert.deepEqual(t.members.map((m: { id: number }) => m.id), [6, 7]);
    assert.deepEqual(Object.keys(t.members[0]).sort(), ['email', 'first_name', 'id', 'last_name']);
    for (const k of ['id', 'name', 'active', 'members', 'project_ids', 'project_tags', 'repo_url_patterns', 'project_count', 'created_at', 'updated_at']) {
      assert.ok(k in t, k);
    }
  });
});

describe('reference service integration update', () => {
  const GH = '7b0e5c1a-2f4d-4e8b-9a6c-1d2e3f4a5b6c';
  const cases: { name: string; uuid?: string; body: string; status: number; verified?: boolean; error?: RegExp }[] = [
    { name: 'token of another account', body: '{"secure_token":"ghs_globex_token"}', status: 400, error: /another github account/ },
    { name: 'token the provider rejects', body: '{"secure_token":"ghs_revoked"}', status: 422, error: /verification failed/ },
    { name: 'base_url the provider cannot be reached at', body: '{"base_url":"https://nowhere.invalid"}', status: 422 },
    { name: 'base_url that is not a URL', body: '{"base_url":"not a url"}', status: 400 },
    { name: 'invalid JSON', body: '{"name":', status: 400 },
    { name: 'unknown field', body: '{"orgAllowlist":["a"]}', status: 400, error: /unknown field/ },
    { name: 'org_allowlist of numbers', body: '{"org_allowlist":[1]}', status: 400 },
    { name: 'unknown uuid', uuid: '00000000-0000-4000-8000-000000000000', body: '{"name":"x"}', status: 404 },
    { name: "another company's integration", uuid: '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f', body: '{"name":"x"}', status: 404 },
    { name: 'name only: no re-verification', body: '{"name":"Acme GH"}', status: 200, verified: false },
    { name: 'replacement token of the same account', body: '{"secure_token":"ghs_acme_rotated_2"}', status: 200, verified: true },
    { name: 'gateway_prefix change re-verifies the stored token', body: '{"gateway_prefix":"/gw"}', status: 200, verified: true },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.status}`, async () => {
      const before = await call(svc, 'PATCH', `/integrations/pipelineprovider/${GH}`, { body: '{}' });
      const r = await call(svc, 'PATCH', `/integrations/pipelineprovider/${c.uuid ?? GH}`, { body: c.body });
      assert.equal(r.status, c.status, r.text);
      assert.ok(!/ghs_acme_stored|ghs_acme_rotated/.test(r.text), 'the stored token is never returned');
      if (r.json.integration) assert.ok(!('secure_token' in r.json.integration));
      if (c.error) assert.match(r.json.error, c.error);
      if (c.status === 200) {
        assert.equal(r.json.status, 'ok');
        assert.equal(r.json.credentials_verified, c.verified);
        const sent = JSON.parse(c.body) as Record<string, unknown>;
        for (const [k, v] of Object.entries(r.json.integration)) {
          if (k === 'updated_at' || k === 'expired') continue;
          assert.deepEqual(v, k in sent ? sent[k] : before.json.integration[k], `field ${k}`);
        }
      } else {
        const afterwards = await call(svc, 'PATCH', `/integrations/pipelineprovider/${GH}`, { body: '{}' });
        assert.deepEqual(afterwards.json.integration, before.json.integration, 'nothing changed');
      }
    });
  }
});

describe('reference service policies', () => {
  it('lists the company policies newest first with the default page size of 30', async () => {
    const r = await call(svc, 'GET', '/policies');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.pagination, { total_count: 40, total_pages: 2, current_page: 1, page_size: 30 });
    const dates = r.json.policies.map((p: { created_at: string }) => p.created_at);
    assert.deepEqual(dates, [...dates].sort().reverse());
    assert.ok(r.json.policies.every((p: { company: number }) => p.company === 1));
    assert.equal(Object.keys(r.json.policies[0]).length, 20);
  });

  const filters: { q: string; check: (p: { projects: string[]; source_type: string; active: boolean }) => boolean; min: number }[] = [
    { q: 'project=acme-api', check: (p) => p.projects.length === 0 || p.projects.includes('acme-api'), min: 10 },
    { q: 'policy_type=web,MOBILE', check: (p) => ['web', 'mobile'].includes(p.source_type.toLowerCase()), min: 5 },
    { q: 'active=false', check: (p) => !p.active, min: 3 },
    { q: 'active=true&policy_type=API&project=acme-web', check: (p) => p.active && p.source_type === 'API' && (p.projects.length === 0 || p.projects.includes('acme-web')), min: 1 },
  ];
  for (const f of filters) {
    it(`filter ${f.q}`, async () => {
      const r = await call(svc, 'GET', `/policies?${f.q}&page_size=30`);
      assert.equal(r.status, 200);
      assert.ok(r.json.pagination.total_count >= f.min, `${r.json.pagination.total_count} policies`);
      assert.ok(r.json.pagination.total_count < 40);
      assert.ok(r.json.policies.every(f.check));
    });
  }

  it('page_size above 30 is clamped; a page past the end is a 404; a bad active is a 400', async () => {
    assert.equal((await call(svc, 'GET', '/policies?page_size=100')).json.pagination.page_size, 30);
    const p2 = await call(svc, 'GET', '/policies?page=2');
    assert.equal(p2.json.policies.length, 10);
    const p3 = await call(svc, 'GET', '/policies?page=3');
    assert.equal(p3.status, 404);
    assert.deepEqual(p3.json, { error: 'policy not found' });
    assert.equal((await call(svc, 'GET', '/policies?active=maybe')).status, 400);
  });

  it('an invalid JSON body is a 400; a JSON body may carry the filters; no match is an empty 200', async () => {
    const bad = await getWithBody(`${svc.baseUrl}/policies`, '{"page": ', svc.demoToken);
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.text).error, /not valid JSON/);
    const viaBody = await getWithBody(`${svc.baseUrl}/policies`, '{"page_size": 5}', svc.demoToken);
    assert.equal(JSON.parse(viaBody.text).pagination.page_size, 5);
    const none = await call(svc, 'GET', '/policies?policy_type=nonexistent&page=4');
    assert.equal(none.status, 200);
    assert.deepEqual(none.json.pagination, { total_count: 0, total_pages: 0, current_page: 4, page_size: 30 });
  });
});

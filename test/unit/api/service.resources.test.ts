// The client against the reference service over real HTTP: verify and authentication,
// roles, teams, integrations and policies, with every error row of the spec.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rawServiceRequest } from '../../../src/core/api/client';
import { startReferenceService, clientFor, expectError, type ReferenceService } from './harness';

let svc: ReferenceService;
before(async () => {
  svc = await startReferenceService();
});
after(async () => {
  await svc.close();
});

const t = () => svc.seed.tokens;
const UNAUTHORIZED = 'The API key was rejected (missing, invalid or expired). Sign in again.';

test('verify with an API key and with a JWT, with and without user info', async () => {
  const demoUser = svc.seed.users.find((u) => u.id === svc.seed.user_ids.demo)!;
  const company = svc.seed.companies.find((c) => c.id === demoUser.company)!;
  for (const token of [svc.demoToken, svc.issueJwt(demoUser.id)]) {
    const c = clientFor(svc, token);
    assert.deepEqual(await c.verify(), { status: 'ok' });
    const r = await c.verify({ userInfo: true });
    assert.equal(r.status, 'ok');
    assert.equal(r.user?.id, demoUser.id);
    assert.equal(r.user?.email, demoUser.email);
    assert.equal(typeof r.user?.name, 'string');
    assert.deepEqual({ id: r.user?.company?.id, name: r.user?.company?.name }, { id: company.id, name: company.name });
  }
  assert.equal(svc.demoToken, t().demo);
});

test('missing, invalid, expired and inactive credentials give 401 on every kind of endpoint', async () => {
  const validJwt = svc.issueJwt(svc.seed.user_ids.demo);
  const [h, p, s] = validJwt.split('.');
  const credentials: [string, string][] = [
    ['missing', ''],
    ['unknown API key', 'csk_not_a_real_key_000000'],
    ['expired JWT', svc.issueJwt(svc.seed.user_ids.demo, { expiresInSec: -60 })],
    ['JWT with a wrong signature', `${h}.${p}.${s.slice(0, -4)}AAAA`],
    ['inactive user API key', t().inactive],
    ['inactive user JWT', svc.issueJwt(svc.seed.user_ids.inactive)],
  ];
  const calls: [string, (c: ReturnType<typeof clientFor>) => Promise<unknown>][] = [
    ['verify', (c) => c.verify()],
    ['roles', (c) => c.listRoles()],
    ['policies', (c) => c.listPolicies()],
    ['team members', (c) => c.addTeamMembers(1, [5])],
  ];
  for (const [label, token] of credentials) {
    for (const [name, call] of calls) {
      const c = clientFor(svc, token);
      const e = await expectError(call(c), 'unauthorized', 401);
      assert.equal(e.message, UNAUTHORIZED, `${label} / ${name}`);
      if (token) assert.ok(!JSON.stringify({ m: e.message, s: e.stack, l: c.log }).includes(token));
    }
  }
});

test('roles: one page, every page, SAML role excluded, active user counts', async () => {
  const c = clientFor(svc, svc.demoToken);
  const companyId = svc.seed.users.find((u) => u.id === svc.seed.user_ids.demo)!.company;
  const expected = svc.seed.roles.filter((r) => r.company === companyId && !r.saml_managed);
  const activeCount = (roleId: number) => svc.seed.users.filter((u) => u.role === roleId && u.active).length;

  const first = await c.listRoles();
  assert.equal(first.page, 1);
  assert.equal(first.total_roles, expected.length);
  assert.equal(first.total_pages, Math.ceil(expected.length / 20));

  const page2 = await c.listRoles({ page: 2, pageSize: 2 });
  assert.equal(page2.page, 2);
  assert.equal(page2.roles.length, 2);
  assert.equal(page2.total_pages, Math.ceil(expected.length / 2));

  const all = await c.listAllRoles({ pageSize: 2 });
  assert.deepEqual(all.map((r) => r.id!).sort((a, b) => a - b), expected.map((r) => r.id).sort((a, b) => a - b));
  assert.ok(!all.some((r) => svc.seed.roles.find((s) => s.id === r.id)!.saml_managed), 'the SAML-managed role is excluded');
  for (const r of all) assert.equal(r.user_count, activeCount(r.id!), `user_count of role ${r.name}`);
  assert.deepEqual((await c.listAllRoles()).map((r) => r.id), all.map((r) => r.id), 'the same order whatever the page size');
});

test('roles: permission and plan denials are 403 with the server text', async () => {
  const noPerm = await expectError(clientFor(svc, t().noPermissions).listRoles(), 'forbidden', 403);
  assert.ok(noPerm.serverMessage && noPerm.message.includes(noPerm.serverMessage));
  const noPlan = await expectError(clientFor(svc, t().noRolesFeature).listRoles(), 'forbidden', 403);
  assert.ok(noPlan.serverMessage);
  assert.notEqual(noPlan.serverMessage, noPerm.serverMessage, 'plan and permission denials say different things');
});

test('teams: add members, unknown team, other company, permission denial', async () => {
  const c = clientFor(svc, svc.demoToken);
  const seedTeam = svc.seed.teams.find((x) => x.company === 1 && x.members.length === 0)!;
  const users = svc.seed.users.filter((u) => u.company === 1 && u.active && !seedTeam.members.includes(u.id)).slice(0, 2);
  const team = await c.addTeamMembers(seedTeam.id, users.map((u) => u.id));
  assert.equal(team.id, seedTeam.id);
  assert.equal(team.name, seedTeam.name);
  for (const u of users) {
    const m = team.members!.find((x) => x.id === u.id);
    assert.ok(m, `member ${u.id} added`);
    assert.deepEqual({ email: m.email, first_name: m.first_name, last_name: m.last_name }, { email: u.email, first_name: u.first_name, last_name: u.last_name });
  }
  // Adding the same members again keeps one entry each.
  const again = await c.addTeamMembers(seedTeam.id, users.map((u) => u.id));
  assert.equal(again.members!.length, team.members!.length);

  await expectError(c.addTeamMembers(987654, [users[0].id]), 'not-found', 404);
  const otherTeam = svc.seed.teams.find((x) => x.company !== 1)!;
  await expectError(c.addTeamMembers(otherTeam.id, [users[0].id]), 'not-found', 404);
  for (const token of [t().noPermissions, t().readOnly]) {
    const e = await expectError(clientFor(svc, token).addTeamMembers(seedTeam.id, [users[0].id]), 'forbidden', 403);
    assert.ok(e.serverMessage);
  }
});

test('JSON endpoints: a body that is not valid JSON or has the wrong shape is a 400', async () => {
  const opts = { baseUrl: svc.baseUrl, token: svc.demoToken };
  const team = svc.seed.teams.find((x) => x.company === 1)!;
  const integration = svc.seed.integrations.find((i) => i.company === 1)!;
  const cases: [string, string, string][] = [
    ['POST', `/teams/${team.id}/members`, '{"member_ids": [1,'],
    ['POST', `/teams/${team.id}/members`, '{"member_ids": "1"}'],
    ['POST', `/teams/${team.id}/members`, '{"member_ids": [1.5]}'],
    ['PATCH', `/integrations/pipelineprovider/${integration.uuid}`, '{"name": '],
  ];
  for (const [method, path, data] of cases) {
    const e = await expectError(
      rawServiceRequest(opts, { operation: 'raw', method: method as 'POST', path, rawBody: { contentType: 'application/json', data } }),
      'bad-request',
      400,
    );
    assert.ok(e.serverMessage, `${method} ${path} ${data}: server says why`);
  }
});

test('integrations: only the given fields change, token rules, re-verification, denials', async () => {
  const c = clientFor(svc, svc.demoToken);
  const gh = svc.seed.integrations.find((i) => i.company === 1 && i.type === 'github')!;
  const sameAccount = Object.entries(svc.seed.provider_tokens).find(([tok, acct]) => acct === gh.account_id && tok !== gh.secure_token)![0];
  const otherAccount = Object.entries(svc.seed.provider_tokens).find(([, acct]) => acct !== gh.account_id)![0];

  const renamed = await c.updateIntegration(gh.uuid, { name: 'Renamed GitHub' });
  assert.equal(renamed.integration!.name, 'Renamed GitHub');
  assert.equal(renamed.integration!.uuid, gh.uuid);
  assert.deepEqual(renamed.integration!.org_allowlist, gh.org_allowlist, 'fields not sent are unchanged');
  assert.equal(renamed.integration!.base_url, gh.base_url);
  assert.equal(renamed.credentialsVerified, false, 'a rename does not re-verify credentials');
  assert.ok(!('secure_token' in renamed.integration!), 'secure_token is never returned');

  const allow = await c.updateIntegration(gh.uuid, { orgAllowlist: ['acme', 'acme-labs'] });
  assert.deepEqual(allow.integration!.org_allowlist, ['acme', 'acme-labs']);
  assert.equal(allow.integration!.name, 'Renamed GitHub');

  const rotated = await c.updateIntegration(gh.uuid, { secureToken: sameAccount });
  assert.equal(rotated.credentialsVerified, true);
  assert.ok(!JSON.stringify(rotated).includes(sameAccount));

  const other = await expectError(c.updateIntegration(gh.uuid, { secureToken: otherAccount }), 'bad-request', 400);
  assert.ok(other.serverMessage);
  assert.ok(!other.message.includes(otherAccount));
  await expectError(c.updateIntegration(gh.uuid, { secureToken: 'ghs_unknown_to_provider' }), 'unprocessable', 422);
  await expectError(c.updateIntegration(gh.uuid, { baseUrl: 'https://git.broken.invalid' }), 'unprocessable', 422);
  // Nothing changed by the refused updates.
  const unchanged = await c.updateIntegration(gh.uuid, { gatewayPrefix: gh.gateway_prefix });
  assert.equal(unchanged.integration!.base_url, gh.base_url);
  assert.equal(unchanged.credentialsVerified, false, 'sending an unchanged value is not a change');
  const newPrefix = `${gh.gateway_prefix}/gw-2`;
  const prefixed = await c.updateIntegration(gh.uuid, { gatewayPrefix: newPrefix });
  assert.equal(prefixed.integration!.gateway_prefix, newPrefix);
  assert.equal(prefixed.credentialsVerified, true, 'a gateway_prefix change re-verifies');

  await expectError(c.updateIntegration('00000000-0000-4000-8000-000000000000', { name: 'x' }), 'not-found', 404);
  const foreign = svc.seed.integrations.find((i) => i.company !== 1)!;
  await expectError(c.updateIntegration(foreign.uuid, { name: 'x' }), 'not-found', 404);
  await expectError(clientFor(svc, t().noPermissions).updateIntegration(gh.uuid, { name: 'x' }), 'forbidden', 403);
  await expectError(clientFor(svc, t().readOnly).updateIntegration(gh.uuid, { name: 'x' }), 'forbidden', 403);
});

test('policies: newest first, every filter, paging, 404 past the end, denials', async () => {
  const c = clientFor(svc, svc.demoToken);
  const mine = svc.seed.policies.filter((p) => p.company === 1);
  const first = await c.listPolicies();
  assert.equal(first.pagination!.page_size, 30);
  assert.equal(first.pagination!.current_page, 1);
  assert.equal(first.pagination!.total_count, mine.length);
  assert.equal(first.pagination!.total_pages, Math.ceil(mine.length / 30));
  const times = first.policies.map((p) => Date.parse(p.created_at!));
  assert.deepEqual(times, times.slice().sort((a, b) => b - a), 'newest first');

  const all = await c.listAllPolicies({ pageSize: 7 });
  assert.deepEqual(all.map((p) => p.id).sort(), mine.map((p) => p.id).sort());
  assert.equal(new Set(all.map((p) => p.id)).size, all.length, 'no policy twice across pages');

  const byProject = await c.listAllPolicies({ project: 'acme-web' });
  assert.ok(byProject.length > 0);
  assert.ok(byProject.every((p) => p.projects!.length === 0 || p.projects!.includes('acme-web')));
  assert.equal(byProject.length, mine.filter((p) => p.projects.length === 0 || p.projects.includes('acme-web')).length);

  const byType = await c.listAllPolicies({ policyTypes: ['web', 'MOBILE'] });
  assert.equal(byType.length, mine.filter((p) => ['web', 'mobile'].includes(p.source_type.toLowerCase())).length);
  assert.ok(byType.every((p) => ['web', 'mobile'].includes(String(p.source_type).toLowerCase())));

  for (const active of [true, false]) {
    const r = await c.listAllPolicies({ active });
    assert.equal(r.length, mine.filter((p) => p.active === active).length);
    assert.ok(r.every((p) => p.active === active));
  }

  const combined = await c.listPolicies({ project: 'acme-api', policyTypes: ['api'], active: true, page: 1, pageSize: 2 });
  assert.ok(combined.policies.length <= 2);
  assert.ok(combined.policies.every((p) => p.active && String(p.source_type).toLowerCase() === 'api' && (p.projects!.length === 0 || p.projects!.includes('acme-api'))));

  const past = await expectError(c.listPolicies({ page: first.pagination!.total_pages + 1 }), 'not-found', 404);
  assert.equal(past.serverMessage, 'policy not found');

  const theirs = await clientFor(svc, t().otherCompany).listAllPolicies();
  assert.ok(theirs.length > 0 && theirs.every((p) => p.company !== 1));

  await expectError(clientFor(svc, t().noPermissions).listPolicies(), 'forbidden', 403);
});

test('the service saw CORGEA-SOURCE: vscode on every request and the scheme matching each token', async () => {
  const before = svc.requests().length;
  const jwt = svc.issueJwt(svc.seed.user_ids.demo);
  await clientFor(svc, svc.demoToken).verify();
  await clientFor(svc, jwt).listRoles();
  await clientFor(svc, jwt).readOffset('unknown-transfer');
  const mine = svc.requests().slice(before);
  assert.deepEqual(mine.map((r) => [r.method, r.auth, r.status]), [
    ['GET', 'api-key', 200],
    ['GET', 'jwt', 200],
    ['HEAD', 'jwt', 200],
  ]);
  const all = svc.requests();
  assert.ok(all.length > 50);
  assert.deepEqual([...new Set(all.map((r) => r.source))], ['vscode']);
});

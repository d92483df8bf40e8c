// The account helpers against the reference service over real HTTP: paging the policies
// the way the Policies view does, the filters it sends, the past-the-end 404, the team
// summary of a real response and an integration update that sends only the given fields.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startReferenceService, type ReferenceService } from '../../service';
import { ServiceClient, type Policy } from '../../../src/core/api';
import { Pager, isPageBeyondEnd } from '../../../src/core/account/pager';
import { filterToQuery, type PolicyFilter } from '../../../src/core/account/policyFilter';
import { roleLine, summarizeTeam } from '../../../src/core/account/format';
import { parseIntegrationChanges, toIntegrationUpdate } from '../../../src/core/account/integrationFields';

let service: ReferenceService;
let client: ServiceClient;
const demoCompany = () => service.seed.users.find((u) => u.id === service.seed.user_ids.demo)!.company;

before(async () => {
  service = await startReferenceService();
  client = new ServiceClient({ baseUrl: service.baseUrl, token: service.demoToken });
});
after(async () => { await service.close(); });

function policyPager(filter: PolicyFilter, pageSize: number): Pager<Policy> {
  const q = filterToQuery(filter);
  return new Pager<Policy>({
    fetchPage: async (page) => {
      const r = await client.listPolicies({ ...q, page, pageSize });
      return { items: r.policies, totalCount: r.pagination!.total_count, totalPages: r.pagination!.total_pages };
    },
    keyOf: (p) => p.id,
    isPastEnd: isPageBeyondEnd,
  });
}

test('the pager reads every policy, newest first, one page per call', async () => {
  const seedPolicies = service.seed.policies.filter((p) => p.company === demoCompany());
  const pager = policyPager({}, 7);
  await pager.loadNext();
  assert.equal(pager.items.length, 7);
  assert.equal(pager.total, seedPolicies.length);
  assert.equal(pager.hasMore, true);
  await pager.loadAll();
  assert.equal(pager.hasMore, false);
  const want = [...seedPolicies].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id).map((p) => p.id);
  assert.deepEqual(pager.items.map((p) => p.id), want);
});

test('each filter sends what the service filters by', async () => {
  const mine = service.seed.policies.filter((p) => p.company === demoCompany());
  const cases: { filter: PolicyFilter; want: (p: (typeof mine)[number]) => boolean }[] = [
    { filter: { active: true }, want: (p) => p.active },
    { filter: { active: false }, want: (p) => !p.active },
    { filter: { types: ['web', 'API'] }, want: (p) => ['web', 'api'].includes(p.source_type.toLowerCase()) },
    { filter: { project: 'acme-web' }, want: (p) => p.projects.length === 0 || p.projects.includes('acme-web') },
    { filter: { active: true, types: ['Mobile'], project: 'acme-api' }, want: (p) => p.active && p.source_type === 'Mobile' && (p.projects.length === 0 || p.projects.includes('acme-api')) },
    { filter: { types: ['none-such'] }, want: () => false },
  ];
  for (const c of cases) {
    const pager = policyPager(c.filter, 30);
    await pager.loadAll();
    assert.deepEqual(pager.items.map((p) => p.id).sort(), mine.filter(c.want).map((p) => p.id).sort(), JSON.stringify(c.filter));
    assert.equal(pager.total, mine.filter(c.want).length);
  }
});

test('a page past the end is recognised as the end of the list', async () => {
  const err = await client.listPolicies({ page: 99, pageSize: 30 }).then(() => undefined, (e: unknown) => e);
  assert.ok(err, 'page 99 should fail');
  assert.equal(isPageBeyondEnd(err), true);
  assert.equal(isPageBeyondEnd(new Error('x')), false);
});

test('role lines come from the real counts', async () => {
  const roles = await client.listAllRoles({ pageSize: 2 });
  const company = demoCompany();
  const want = service.seed.roles.filter((r) => r.company === company && !r.saml_managed).map((r) => {
    const n = service.seed.users.filter((u) => u.company === company && u.active && u.role === r.id).length;
    return `${r.name} — ${n} ${n === 1 ? 'user' : 'users'}`;
  });
  assert.deepEqual(roles.map(roleLine), want);
});

test('the team summary names the members the service added', async () => {
  const team = service.seed.teams.find((t) => t.company === demoCompany() && t.members.length === 0)!;
  const users = service.seed.users.filter((u) => u.company === demoCompany() && u.active).slice(0, 2);
  const result = await client.addTeamMembers(team.id, users.map((u) => u.id));
  const s = summarizeTeam(result, users.map((u) => u.id));
  assert.deepEqual(s.missing, []);
  assert.equal(s.message, `Team "${team.name}" now has 2 members and ${team.project_count} projects. Members: ${users.map((u) => `${u.first_name} ${u.last_name}`).join(', ')}.${team.active ? '' : ' The team is inactive.'}`);
});

test('an integration update sends only the fields given', async () => {
  const integ = service.seed.integrations.find((i) => i.company === demoCompany() && !i.expired)!;
  const parsed = parseIntegrationChanges({ uuid: integ.uuid, name: 'Renamed', orgAllowlist: '' });
  assert.ok(parsed.ok);
  const r = await client.updateIntegration(integ.uuid, toIntegrationUpdate(parsed.value));
  assert.equal(r.integration!.name, 'Renamed');
  assert.deepEqual(r.integration!.org_allowlist, []);
  assert.equal(r.integration!.base_url, integ.base_url, 'fields not given are unchanged');
  assert.equal(r.credentialsVerified, false);

  const rotated = Object.keys(service.seed.provider_tokens).find((t) => t !== integ.secure_token && service.seed.provider_tokens[t] === integ.account_id)!;
  const withToken = parseIntegrationChanges({ token: rotated });
  assert.ok(withToken.ok);
  assert.deepEqual(Object.keys(toIntegrationUpdate(withToken.value)), ['secureToken']);
  const r2 = await client.updateIntegration(integ.uuid, toIntegrationUpdate(withToken.value));
  assert.equal(r2.credentialsVerified, true);
  assert.equal(r2.integration!.name, 'Renamed');
});

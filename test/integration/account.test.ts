// Account features in a real VS Code against the reference service: the Policies view
// (paging, filters, target policies), Choose Target Policies, Show Company Roles, Add
// Members to Team and Update Pipeline-Provider Integration, including the service's own
// message on a 403, a 401, unknown ids and bad input. Commands run with their automation
// argument, which goes through the same code as the input boxes.
import * as assert from 'assert';
import * as vscode from 'vscode';

import { EXTENSION_ID, env, quickInput, signIn, waitFor } from './helpers';

type Outcome<T> = { ok: true; value: T } | { ok: false; kind: string; message: string; status?: number };

interface Snapshot {
  filter: { active?: boolean; types?: string[]; project?: string };
  policies: { id: number; name: string; active: boolean; sourceType: string | null; isTarget: boolean }[];
  total: number | undefined;
  hasMore: boolean;
  message: string | undefined;
}

interface SeedPolicy { id: number; name: string; company: number; active: boolean; archived: boolean; source_type: string; projects: string[] }
interface Seed {
  tokens: Record<string, string>;
  user_ids: Record<string, number>;
  users: { id: number; company: number; active: boolean; role: number | null; first_name: string; last_name: string; email: string }[];
  roles: { id: number; company: number; name: string; saml_managed: boolean }[];
  teams: { id: number; company: number; name: string; members: number[] }[];
  integrations: { uuid: string; company: number; name: string; type: string; secure_token: string; expired: boolean }[];
  provider_tokens: Record<string, string>;
  policies: SeedPolicy[];
}

async function run<T>(command: string, arg?: unknown): Promise<T> {
  return (arg === undefined ? vscode.commands.executeCommand(command) : vscode.commands.executeCommand(command, arg)) as Promise<T>;
}

function expectOk<T>(o: Outcome<T> | undefined, what: string): T {
  assert.ok(o, `${what}: the command returned nothing`);
  assert.ok(o.ok, `${what} failed: ${!o.ok ? `${o.kind}: ${o.message}` : ''}`);
  return o.value;
}

function expectFailure(o: Outcome<unknown> | undefined, kind: string, message: RegExp | string, what: string): void {
  assert.ok(o, `${what}: the command returned nothing`);
  assert.strictEqual(o.ok, false, `${what} should fail`);
  if (o.ok) return;
  assert.strictEqual(o.kind, kind, `${what}: ${o.message}`);
  if (typeof message === 'string') assert.ok(o.message.includes(message), `${what}: "${o.message}" should include "${message}"`);
  else assert.match(o.message, message, what);
}

/** The service's own answer, to compare the message the extension shows with it. */
async function serviceError(pathAndQuery: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; error: string }> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_BASE_URL')}${pathAndQuery}`, {
    method: init.method ?? 'GET',
    headers: { 'SERVICE-TOKEN': token, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await res.json()) as { error?: string };
  return { status: res.status, error: body.error ?? '' };
}

/** Arms a fault of the reference service (see its admin interface). */
async function admin(body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL').replace(/\/$/, '')}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `admin faults: HTTP ${res.status} ${await res.text()}`);
}

suite('account features', function () {
  let seed: Seed;
  let acmePolicies: SeedPolicy[];

  suiteSetup(async function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    // The seed the running service was started with, from its admin interface.
    const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL').replace(/\/$/, '')}/seed`);
    assert.ok(res.ok, `GET /__admin/seed: HTTP ${res.status}`);
    seed = (await res.json()) as Seed;
    const demo = seed.users.find((u) => u.id === seed.user_ids.demo)!;
    acmePolicies = seed.policies.filter((p) => p.company === demo.company);
    await vscode.workspace.getConfiguration('codeScanner').update('customBaseUrl', env('CODE_SCANNER_TEST_BASE_URL'), vscode.ConfigurationTarget.Global);
    await ext.activate();
    await signIn(env('CODE_SCANNER_TEST_TOKEN'));
    await run('codeScanner.policies.clearFilter');
    await run('codeScanner.chooseTargetPolicies', { policyIds: [] });
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  suiteTeardown(async () => {
    // Leave the demo user signed in and nothing filtered for the suites that follow.
    await signIn(env('CODE_SCANNER_TEST_TOKEN'));
    await run('codeScanner.policies.clearFilter');
    await run('codeScanner.chooseTargetPolicies', { policyIds: [] });
  });

  test('every account command is registered', async () => {
    const registered = await vscode.commands.getCommands(true);
    for (const id of ['codeScanner.chooseTargetPolicies', 'codeScanner.showCompanyRoles', 'codeScanner.addTeamMembers', 'codeScanner.updateIntegration',
      'codeScanner.policies.refresh', 'codeScanner.policies.filter', 'codeScanner.policies.clearFilter', 'codeScanner.policies.loadMore',
      'codeScanner.policies.addTarget', 'codeScanner.policies.removeTarget']) {
      assert.ok(registered.includes(id), `${id} is not registered`);
    }
  });

  test('the Policies view shows the first page, then loads the rest with "Load more"', async () => {
    await vscode.commands.executeCommand('codeScanner.policies.focus');
    const first = await run<Snapshot>('codeScanner.policies.refresh');
    assert.strictEqual(first.total, acmePolicies.length);
    assert.strictEqual(first.policies.length, Math.min(30, acmePolicies.length));
    assert.strictEqual(first.hasMore, acmePolicies.length > 30);
    // Newest first, as the service lists them.
    const ids = new Set(first.policies.map((p) => p.id));
    assert.strictEqual(ids.size, first.policies.length, 'no policy is listed twice');
    const all = await run<Snapshot>('codeScanner.policies.loadMore');
    assert.strictEqual(all.policies.length, acmePolicies.length);
    assert.strictEqual(all.hasMore, false);
    assert.deepStrictEqual(new Set(all.policies.map((p) => p.id)), new Set(acmePolicies.map((p) => p.id)));
    assert.strictEqual(all.message, undefined);
  });

  test('filters by status, type and project and remembers nothing stale after clearing', async () => {
    const active = expectOk(await run<Outcome<Snapshot>>('codeScanner.policies.filter', { active: true }), 'active filter');
    assert.strictEqual(active.total, acmePolicies.filter((p) => p.active).length);
    assert.ok(active.policies.every((p) => p.active));

    const web = expectOk(await run<Outcome<Snapshot>>('codeScanner.policies.filter', { active: false, types: ['WEB'] }), 'type filter');
    const wantWeb = acmePolicies.filter((p) => !p.active && p.source_type.toLowerCase() === 'web');
    assert.ok(wantWeb.length > 0, 'the seed has inactive Web policies');
    assert.strictEqual(web.total, wantWeb.length);
    assert.deepStrictEqual(web.policies.map((p) => p.id).sort(), wantWeb.map((p) => p.id).sort());
    assert.deepStrictEqual(web.filter, { active: false, types: ['WEB'] });

    const project = expectOk(await run<Outcome<Snapshot>>('codeScanner.policies.filter', { project: 'acme-mobile' }), 'project filter');
    const wantProject = acmePolicies.filter((p) => p.projects.length === 0 || p.projects.includes('acme-mobile'));
    assert.strictEqual(project.total, wantProject.length, 'company-wide policies are included');

    const none = expectOk(await run<Outcome<Snapshot>>('codeScanner.policies.filter', { types: ['no-such-type'] }), 'empty result');
    assert.strictEqual(none.total, 0);
    assert.match(none.message ?? '', /No policies match the filter/);

    expectFailure(await run<Outcome<Snapshot>>('codeScanner.policies.filter', { active: 'yes' }), 'validation', /"active" must be true, false or null/, 'bad filter');

    const cleared = await run<Snapshot>('codeScanner.policies.clearFilter');
    assert.deepStrictEqual(cleared.filter, {});
    assert.strictEqual(cleared.total, acmePolicies.length);
  });

  test('Choose Target Policies stores active policies per workspace and the view marks them', async () => {
    const [a, b] = acmePolicies.filter((p) => p.active && !p.archived);
    const chosen = expectOk(await run<Outcome<{ policyIds: number[]; message: string }>>('codeScanner.chooseTargetPolicies', { policyIds: [a.id, String(b.id)] }), 'choose');
    assert.deepStrictEqual(chosen.policyIds, [a.id, b.id]);
    assert.ok(chosen.message.includes(a.name) && chosen.message.includes(b.name), chosen.message);

    let view = await run<Snapshot>('codeScanner.policies.loadMore', { all: true });
    assert.deepStrictEqual(view.policies.filter((p) => p.isTarget).map((p) => p.id).sort(), [a.id, b.id].sort());

    // The context-menu actions add and remove one policy.
    const c = acmePolicies.filter((p) => p.active && !p.archived)[2];
    assert.deepStrictEqual(expectOk(await run<Outcome<number[]>>('codeScanner.policies.addTarget', { policyId: c.id }), 'add'), [a.id, b.id, c.id]);
    assert.deepStrictEqual(expectOk(await run<Outcome<number[]>>('codeScanner.policies.removeTarget', { policyId: a.id }), 'remove'), [b.id, c.id]);
    view = await run<Snapshot>('codeScanner.policies.loadMore', { all: true });
    assert.deepStrictEqual(view.policies.filter((p) => p.isTarget).map((p) => p.id).sort(), [b.id, c.id].sort());

    const inactive = acmePolicies.find((p) => !p.active)!;
    expectFailure(await run('codeScanner.policies.addTarget', { policyId: inactive.id }), 'validation', `#${inactive.id}`, 'inactive policy from the view');
    expectFailure(await run('codeScanner.chooseTargetPolicies', { policyIds: [inactive.id] }), 'validation', `#${inactive.id}`, 'inactive policy');
    expectFailure(await run('codeScanner.chooseTargetPolicies', { policyIds: [999999] }), 'validation', '#999999', 'unknown policy');
    expectFailure(await run('codeScanner.chooseTargetPolicies', { policyIds: ['x'] }), 'validation', /not a policy id/, 'bad id');

    const cleared = expectOk(await run<Outcome<{ policyIds: number[]; message: string }>>('codeScanner.chooseTargetPolicies', { policyIds: [] }), 'clear');
    assert.deepStrictEqual(cleared.policyIds, []);
    assert.match(cleared.message, /default policies/);
  });

  test('the interactive quick pick starts from the saved choice, and Escape changes nothing', async () => {
    const [a, b] = acmePolicies.filter((p) => p.active && !p.archived).slice(5);
    expectOk(await run('codeScanner.chooseTargetPolicies', { policyIds: [a.id, b.id] }), 'choose');
    // Accept the list as it opens: the saved policies are preselected, so they are kept.
    const accepted = Promise.resolve(vscode.commands.executeCommand<Outcome<{ policyIds: number[] }>>('codeScanner.chooseTargetPolicies'));
    let settled = false;
    void accepted.finally(() => { settled = true; });
    // Enter once the list shows its policies and the workbench has the preselection: the
    // extension host sets both at once, and the workbench takes them a moment later (an
    // Enter in between accepts the workbench's selection, still empty, on a loaded machine).
    if (await quickInput() !== undefined) {
      await waitFor('the list of policies', async () => ((await quickInput())?.rows.length ?? 0) > 1, 20_000);
      await new Promise((r) => setTimeout(r, 500));
    }
    for (let i = 0; i < 100 && !settled; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    assert.deepStrictEqual(expectOk(await accepted, 'accept').policyIds.sort(), [a.id, b.id].sort());

    const escaped = Promise.resolve(vscode.commands.executeCommand<Outcome<unknown>>('codeScanner.chooseTargetPolicies'));
    await new Promise((r) => setTimeout(r, 300));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    expectFailure(await escaped, 'cancelled', /Cancelled/, 'escape');
    const view = await run<Snapshot>('codeScanner.policies.loadMore', { all: true });
    assert.deepStrictEqual(view.policies.filter((p) => p.isTarget).map((p) => p.id).sort(), [a.id, b.id].sort());
    await run('codeScanner.chooseTargetPolicies', { policyIds: [] });
  });

  test('Escape in the input boxes of Add Members and Update Integration sends nothing', async () => {
    for (const command of ['codeScanner.addTeamMembers', 'codeScanner.updateIntegration']) {
      const pending = Promise.resolve(vscode.commands.executeCommand<Outcome<unknown>>(command));
      await new Promise((r) => setTimeout(r, 300));
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      expectFailure(await pending, 'cancelled', /Cancelled/, command);
    }
  });

  test('a scan of the workspace sends the chosen target policies', async () => {
    const [a, b] = acmePolicies.filter((p) => p.active && !p.archived).slice(3);
    expectOk(await run('codeScanner.chooseTargetPolicies', { policyIds: [b.id, a.id] }), 'choose');
    try {
      const summary = await run<{ folders: { scanId?: string }[] } | undefined>('codeScanner.scanWorkspace', { pollIntervalMs: 150, maxPolls: 60 });
      const scanId = summary?.folders[0]?.scanId;
      assert.ok(scanId, `the scan did not complete: ${JSON.stringify(summary)}`);
      const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL').replace(/\/$/, '')}/scans/${encodeURIComponent(scanId)}`);
      assert.ok(res.ok, `GET /__admin/scans/${scanId}: HTTP ${res.status}`);
      const record = (await res.json()) as { targetPolicies: number[] };
      assert.deepStrictEqual(record.targetPolicies, [b.id, a.id]);
    } finally {
      await run('codeScanner.chooseTargetPolicies', { policyIds: [] });
    }
  });

  test('Show Company Roles lists every role but the SAML one, with its count of active users', async () => {
    const result = expectOk(await run<Outcome<{ roles: { id: number; name: string; user_count: number }[]; lines: string[] }>>('codeScanner.showCompanyRoles'), 'roles');
    const company = seed.users.find((u) => u.id === seed.user_ids.demo)!.company;
    const want = seed.roles.filter((r) => r.company === company && !r.saml_managed).map((r) => {
      const n = seed.users.filter((u) => u.company === company && u.active && u.role === r.id).length;
      return `${r.name} — ${n} ${n === 1 ? 'user' : 'users'}`;
    });
    assert.deepStrictEqual(result.lines, want);
    assert.ok(result.lines.some((l) => / — [2-9]\d* users$/.test(l)), 'some role has several users');
  });

  test('a 403 (plan without roles) shows the service\'s own message', async () => {
    const token = seed.tokens.noRolesFeature;
    const expected = await serviceError('/roles', token);
    assert.strictEqual(expected.status, 403);
    await signIn(token);
    try {
      expectFailure(await run('codeScanner.showCompanyRoles'), 'forbidden', expected.error, 'roles without the feature');
      // Signing in as someone else reloads the Policies view without a manual refresh.
      const globex = seed.users.find((u) => u.id === seed.user_ids.noRolesFeature)!.company;
      const view = await run<Snapshot>('codeScanner.policies.loadMore', { all: true });
      assert.deepStrictEqual(view.policies.map((p) => p.id).sort(), seed.policies.filter((p) => p.company === globex).map((p) => p.id).sort());
    } finally {
      await signIn(env('CODE_SCANNER_TEST_TOKEN'));
    }
  });

  test('a 401 (token revoked meanwhile) asks to sign in again instead of failing silently', async () => {
    await admin({ action: 'failNext', route: 'roles', count: 1, status: 401, body: { error: 'token revoked' } });
    expectFailure(await run('codeScanner.showCompanyRoles'), 'unauthorized', /Sign in again/, 'roles with a revoked token');
    // Revoked until the test says otherwise: a load of the policies the 401 above set off
    // (the view reloads when the session changes) may take a single armed failure first.
    await admin({ action: 'failNext', route: 'policies', count: 1000, status: 401, body: { error: 'token revoked' } });
    const view = await run<Snapshot>('codeScanner.policies.refresh');
    assert.match(view.message ?? '', /Sign in again/, 'the view says why it is empty');
    await admin({ action: 'clear' });
    assert.strictEqual((await run<Snapshot>('codeScanner.policies.refresh')).total, acmePolicies.length, 'a refresh after that works again');
  });

  test('Add Members to Team returns the team with the new members\' names and emails', async () => {
    const company = seed.users.find((u) => u.id === seed.user_ids.demo)!.company;
    const team = seed.teams.find((t) => t.company === company && t.members.length === 1)!;
    const newIds = seed.users.filter((u) => u.company === company && u.active && !team.members.includes(u.id)).slice(0, 2).map((u) => u.id);
    const r = expectOk(await run<Outcome<{ team: { id: number; name: string; members: { id: number; email: string; first_name: string }[]; project_count: number }; added: { id: number }[]; missing: number[]; message: string }>>(
      'codeScanner.addTeamMembers', { teamId: String(team.id), memberIds: newIds.join(', ') }), 'add members');
    assert.strictEqual(r.team.id, team.id);
    assert.deepStrictEqual(r.team.members.map((m) => m.id).sort((x, y) => x - y), [...team.members, ...newIds].sort((x, y) => x - y));
    assert.deepStrictEqual(r.added.map((m) => m.id), newIds);
    assert.deepStrictEqual(r.missing, []);
    for (const id of newIds) {
      const u = seed.users.find((x) => x.id === id)!;
      assert.ok(r.message.includes(`${u.first_name} ${u.last_name}`), r.message);
      assert.strictEqual(r.team.members.find((m) => m.id === id)?.email, u.email);
    }
    assert.ok(r.message.startsWith(`Team "${team.name}" now has ${team.members.length + newIds.length} members`), r.message);
  });

  test('Add Members to Team rejects bad ids before sending and shows the service\'s errors', async () => {
    expectFailure(await run('codeScanner.addTeamMembers', { teamId: 'abc', memberIds: [5] }), 'validation', '"abc" is not a team id', 'bad team id');
    expectFailure(await run('codeScanner.addTeamMembers', { teamId: 1, memberIds: '5, bob' }), 'validation', '"bob" is not a user id', 'bad member id');
    const unknownTeam = await serviceError('/teams/99999/members', env('CODE_SCANNER_TEST_TOKEN'), { method: 'POST', body: { member_ids: [5] } });
    assert.strictEqual(unknownTeam.status, 404);
    expectFailure(await run('codeScanner.addTeamMembers', { teamId: 99999, memberIds: [5] }), 'not-found', unknownTeam.error, 'unknown team');
    const otherCompanyUser = seed.users.find((u) => u.company !== seed.users.find((x) => x.id === seed.user_ids.demo)!.company)!;
    expectFailure(await run('codeScanner.addTeamMembers', { teamId: 1, memberIds: [otherCompanyUser.id] }), 'bad-request', String(otherCompanyUser.id), 'user of another company');
  });

  test('Update Pipeline-Provider Integration sends only the given fields and says whether credentials were verified', async () => {
    const company = seed.users.find((u) => u.id === seed.user_ids.demo)!.company;
    const expired = seed.integrations.find((i) => i.company === company && i.expired)!;
    const account = seed.provider_tokens[expired.secure_token];
    const newToken = Object.keys(seed.provider_tokens).find((t) => t !== expired.secure_token && seed.provider_tokens[t] === account)!;

    type Result = { integration: { uuid: string; name: string; expired: boolean; org_allowlist: string[] }; credentialsVerified: boolean; changed: string[]; message: string };
    const rotated = expectOk(await run<Outcome<Result>>('codeScanner.updateIntegration', { uuid: expired.uuid, token: newToken }), 'rotate token');
    assert.strictEqual(rotated.credentialsVerified, true);
    assert.strictEqual(rotated.integration.expired, false);
    assert.deepStrictEqual(rotated.changed, ['Access token']);
    assert.match(rotated.message, /credentials were verified/);
    assert.ok(!JSON.stringify(rotated).includes(newToken), 'the token is never returned or shown');

    const renamed = expectOk(await run<Outcome<Result>>('codeScanner.updateIntegration', { uuid: expired.uuid, name: 'Renamed by test', orgAllowlist: 'acme, acme-labs' }), 'rename');
    assert.strictEqual(renamed.integration.name, 'Renamed by test');
    assert.deepStrictEqual(renamed.integration.org_allowlist, ['acme', 'acme-labs']);
    assert.strictEqual(renamed.credentialsVerified, false);
    assert.match(renamed.message, /not re-checked/);
  });

  test('Update Pipeline-Provider Integration shows why the service refused', async () => {
    const company = seed.users.find((u) => u.id === seed.user_ids.demo)!.company;
    const integ = seed.integrations.find((i) => i.company === company && !i.expired)!;
    const foreignToken = Object.keys(seed.provider_tokens).find((t) => seed.provider_tokens[t] !== seed.provider_tokens[integ.secure_token])!;
    const o = await run<Outcome<unknown>>('codeScanner.updateIntegration', { uuid: integ.uuid, token: foreignToken });
    expectFailure(o, 'bad-request', /another .* account/, 'token of another account');
    assert.ok(!JSON.stringify(o).includes(foreignToken), 'the token never appears in the error');
    expectFailure(await run('codeScanner.updateIntegration', { uuid: integ.uuid, token: 'not-a-known-token' }), 'unprocessable', /verification failed/, 'unverifiable token');
    expectFailure(await run('codeScanner.updateIntegration', { uuid: '00000000-0000-4000-8000-000000000000', name: 'x' }), 'not-found', /not found/, 'unknown integration');
    expectFailure(await run('codeScanner.updateIntegration', { uuid: 'not-a-uuid', name: 'x' }), 'validation', /is not a UUID/, 'bad uuid');
    expectFailure(await run('codeScanner.updateIntegration', { uuid: integ.uuid }), 'validation', /at least one field/, 'nothing to change');
    expectFailure(await run('codeScanner.updateIntegration', { uuid: integ.uuid, baseUrl: 'https://user:pw@x.example' }), 'validation', /credentials in the URL/, 'credentials in URL');

    const reader = seed.tokens.readOnly;
    const denied = await serviceError(`/integrations/pipelineprovider/${integ.uuid}`, reader, { method: 'PATCH', body: { name: 'x' } });
    assert.strictEqual(denied.status, 403);
    await signIn(reader);
    try {
      expectFailure(await run('codeScanner.updateIntegration', { uuid: integ.uuid, name: 'x' }), 'forbidden', denied.error, 'no permission');
    } finally {
      await signIn(env('CODE_SCANNER_TEST_TOKEN'));
    }
  });

  test('signed out: the view is empty (its welcome asks to sign in) and commands ask to sign in', async () => {
    await run('codeScanner.signOut', { confirmed: true });
    try {
      const view = await run<Snapshot>('codeScanner.policies.refresh');
      assert.deepStrictEqual(view.policies, []);
      assert.strictEqual(view.message, undefined, 'no error message hides the welcome content');
      expectFailure(await run('codeScanner.showCompanyRoles'), 'signed-out', /Sign in/, 'roles when signed out');
      expectFailure(await run('codeScanner.addTeamMembers', { teamId: 1, memberIds: [5] }), 'signed-out', /Sign in/, 'team when signed out');
    } finally {
      await signIn(env('CODE_SCANNER_TEST_TOKEN'));
    }
    const back = await run<Snapshot>('codeScanner.policies.refresh');
    assert.strictEqual(back.total, acmePolicies.length);
  });
});

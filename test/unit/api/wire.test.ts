// Wire-level behaviour of the client against a scriptable stub server: exactly which
// headers, query parameters and bodies go out, and how odd answers are handled.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import busboy from 'busboy';
import { ServiceClient, type ChunkRequest } from '../../../src/core/api/client';
import { ServiceError } from '../../../src/core/api/errors';
import type { RequestLogEntry } from '../../../src/core/api/transport';
import { startStub, type Stub, type Recorded } from './stubServer';
import { sampleIssue, samplePolicy, sampleTeam, sampleIntegration } from './samples';

const API_KEY = 'csk_wire_test_key_5f2a9e';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.wire-sig_Abc';
let stub: Stub;

before(async () => {
  stub = await startStub();
});
after(async () => {
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
});

function client(extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}) {
  const log: RequestLogEntry[] = [];
  const c = new ServiceClient({ baseUrl: stub.baseUrl, token: API_KEY, logger: (e) => log.push(e), retryBaseDelayMs: 1, ...extra });
  return { c, log };
}

function parts(r: Recorded): Promise<{ fields: Record<string, string>; files: Record<string, { filename: string; data: Buffer }> }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Record<string, { filename: string; data: Buffer }> = {};
    const bb = busboy({ headers: r.headers });
    bb.on('field', (n, v) => (fields[n] = v));
    bb.on('file', (n, s, info) => {
      const c: Buffer[] = [];
      s.on('data', (d: Buffer) => c.push(d));
      s.on('end', () => (files[n] = { filename: info.filename ?? '', data: Buffer.concat(c) }));
    });
    bb.on('close', () => resolve({ fields, files }));
    bb.on('error', reject);
    bb.end(r.body);
  });
}

test('auth header and client source on every request, for both token kinds', async () => {
  stub.handle(() => ({ json: { status: 'ok' } }));
  const cases: [string, Record<string, string | undefined>][] = [
    [API_KEY, { 'service-token': API_KEY, 'corgea-token': API_KEY, authorization: undefined }],
    [JWT, { authorization: `Bearer ${JWT}`, 'service-token': undefined, 'corgea-token': undefined }],
    [`  ${API_KEY}\n`, { 'service-token': API_KEY, 'corgea-token': API_KEY, authorization: undefined }],
    ['', { 'service-token': undefined, 'corgea-token': undefined, authorization: undefined }],
  ];
  for (const [token, want] of cases) {
    stub.requests.length = 0;
    await client({ token }).c.verify();
    const h = stub.requests[0].headers;
    for (const [k, v] of Object.entries(want)) assert.equal(h[k], v, `${k} for ${JSON.stringify(token)}`);
    assert.equal(h['corgea-source'], 'vscode');
    assert.equal(h['user-agent'], 'code-scanner-vscode');
  }
});

test('query parameter names and values per operation', async () => {
  const page = (extra: object) => ({ json: extra });
  stub.handle((r) => {
    if (r.path.endsWith('/verify')) return page({ status: 'ok', user: { id: 1, email: 'a@b.c', name: 'A', company: { id: 1, name: 'C' } } });
    if (r.path.endsWith('/roles')) return page({ status: 'ok', roles: [], page: 1, total_pages: 1, total_roles: 0 });
    if (r.path.endsWith('/policies')) return page({ policies: [], pagination: { total_count: 0, total_pages: 1, current_page: 1, page_size: 30 } });
    return page({ status: 'ok', page: 1, total_pages: 1, total_issues: 0, issues: [] });
  });
  const { c } = client();
  const cases: [() => Promise<unknown>, string, Record<string, string>][] = [
    [() => c.verify(), '/api/v1/verify', {}],
    [() => c.verify({ userInfo: true }), '/api/v1/verify', { user_info: 'true' }],
    [() => c.listRoles(), '/api/v1/roles', {}],
    [() => c.listRoles({ page: 2, pageSize: 50 }), '/api/v1/roles', { page: '2', page_size: '50' }],
    [() => c.listPolicies({ project: 'web app', policyTypes: ['Web', 'API'], active: false, page: 3, pageSize: 30 }), '/api/v1/policies', { project: 'web app', policy_type: 'Web,API', active: 'false', page: '3', page_size: '30' }],
    [() => c.listPolicies({ active: true }), '/api/v1/policies', { active: 'true' }],
    [() => c.listQualityIssues('scan/1 x', { classification: 'CWE-95', page: 2, pageSize: 10 }), '/api/v1/scan/scan%2F1%20x/issues/quality', { classification: 'CWE-95', page: '2', page_size: '10' }],
  ];
  for (const [run, path, query] of cases) {
    stub.requests.length = 0;
    await run();
    const r = stub.requests[0];
    assert.equal(r.method, 'GET');
    assert.equal(r.url.split('?')[0], path);
    assert.deepEqual(Object.fromEntries(r.query), query, path);
  }
});

test('POST team members and PATCH integration send exactly the given JSON', async () => {
  stub.handle((r) =>
    r.path.includes('/teams/')
      ? { json: { team: sampleTeam() } }
      : { json: { status: 'ok', integration: sampleIntegration(), credentials_verified: true } },
  );
  const { c } = client();
  const team = await c.addTeamMembers(7, [10, 11]);
  assert.equal(team.name, 'Platform');
  let r = stub.requests.at(-1)!;
  assert.equal(r.method, 'POST');
  assert.equal(r.path, '/api/v1/teams/7/members');
  assert.match(String(r.headers['content-type']), /^application\/json/);
  assert.deepEqual(JSON.parse(r.body.toString()), { member_ids: [10, 11] });

  const uuid = '123e4567-e89b-12d3-a456-426614174000';
  const cases: [Parameters<ServiceClient['updateIntegration']>[1], object][] = [
    [{ name: 'New' }, { name: 'New' }],
    [{ orgAllowlist: ['a', 'b'] }, { org_allowlist: ['a', 'b'] }],
    [{ secureToken: 's3cret', baseUrl: 'https://git.example.com', gatewayPrefix: '' }, { secure_token: 's3cret', base_url: 'https://git.example.com', gateway_prefix: '' }],
    [{ name: 'N', orgAllowlist: [], secureToken: undefined }, { name: 'N', org_allowlist: [] }],
  ];
  for (const [fields, want] of cases) {
    const res = await c.updateIntegration(uuid, fields);
    assert.equal(res.credentialsVerified, true);
    assert.equal(res.integration?.uuid, uuid);
    r = stub.requests.at(-1)!;
    assert.equal(r.method, 'PATCH');
    assert.equal(r.path, `/api/v1/integrations/pipelineprovider/${uuid}`);
    assert.deepEqual(JSON.parse(r.body.toString()), want);
  }
});

const chunkReq = (fields: ChunkRequest['fields'], over: Partial<ChunkRequest> = {}): ChunkRequest => ({
  offset: 0,
  totalLength: 5,
  archiveName: 'project.zip',
  body: Buffer.from('hello'),
  bodyLength: 5,
  fields,
  ...over,
});

test('upload calls: start, HEAD and PATCH put the right headers and parts on the wire', async () => {
  stub.handle((r) => {
    if (r.method === 'POST') return { json: { status: 'ok', transfer_id: 'tr-1' } };
    if (r.method === 'HEAD') return { headers: { 'upload-offset': '3' } };
    return { json: { scan_id: 'scan-9', project_id: 4 } };
  });
  const { c } = client();
  assert.deepEqual(await c.startTransfer('project.zip'), { transferId: 'tr-1' });
  let r = stub.requests.at(-1)!;
  assert.equal(r.url, '/api/v1/start-scan?scan_type=blast');
  assert.equal(Number(r.headers['content-length']), r.body.length);
  let p = await parts(r);
  assert.deepEqual(p.fields, { scan_type: 'blast' });
  assert.equal(p.files.files.filename, 'project.zip');
  assert.equal(p.files.files.data.length, 0);

  assert.equal(await c.readOffset('tr-1'), 3);
  r = stub.requests.at(-1)!;
  assert.equal(r.method, 'HEAD');
  assert.equal(r.path, '/api/v1/start-scan/tr-1/');

  const full = {
    projectName: 'demo',
    branch: 'main',
    repoUrl: 'https://git.example.com/acme/demo.git',
    sha: 'abc',
    dirty: false,
    metadata: { ticket: 'X-1', nested: { n: 1 } },
    scanConfigs: ['base', 'secrets'],
    targetPolicies: [1, '2'],
  };
  const res = await c.sendChunk('tr-1', chunkReq(full));
  assert.deepEqual(res, { kind: 'complete', scanId: 'scan-9', projectId: 4 });
  r = stub.requests.at(-1)!;
  assert.equal(r.method, 'PATCH');
  assert.equal(r.path, '/api/v1/start-scan/tr-1/');
  assert.equal(r.headers['upload-offset'], '0');
  assert.equal(r.headers['upload-length'], '5');
  assert.equal(r.headers['upload-name'], 'project.zip');
  assert.equal(r.headers['corgea-source'], 'vscode');
  assert.equal(Number(r.headers['content-length']), r.body.length);
  p = await parts(r);
  assert.deepEqual(p.fields, {
    project_name: 'demo',
    branch: 'main',
    repo_url: 'https://git.example.com/acme/demo.git',
    sha: 'abc',
    dirty: 'false',
    metadata: '{"ticket":"X-1","nested":{"n":1}}',
    scan_configs: 'base,secrets',
    target_policies: '1,2',
  });
  assert.equal(p.files.chunk_data.data.toString(), 'hello');
  assert.ok(!('partial_scan' in p.fields), 'a full scan sends no partial_scan part at all');

  const fieldCases: [ChunkRequest['fields'], Record<string, string>][] = [
    [{}, {}],
    [{ dirty: true, scanConfigs: [], targetPolicies: [] }, { dirty: 'true' }],
    [{ partial: { files: ['src/a.js', 'lib/b c.py'] } }, { partial_scan: 'true', files_to_scan: 'src/a.js,lib/b c.py' }],
  ];
  for (const [fields, want] of fieldCases) {
    await c.sendChunk('tr-1', chunkReq(fields));
    assert.deepEqual((await parts(stub.requests.at(-1)!)).fields, want);
  }
});

test('chunk answers: continue, complete, in progress, and answers that fit none', async () => {
  const { c } = client();
  const cases: [{ headers?: Record<string, string>; json: unknown }, unknown][] = [
    [{ headers: { 'upload-offset': '5' }, json: { status: 'ok', message: 'Chunk received' } }, { kind: 'continue', nextOffset: 5, message: 'Chunk received' }],
    [{ json: { scan_id: 'abc', project_id: 'p-1' } }, { kind: 'complete', scanId: 'abc', projectId: 'p-1' }],
    [{ json: { status: 'ok', message: 'A scan for this upload is already in progress.' } }, { kind: 'in-progress', message: 'A scan for this upload is already in progress.' }],
    [{ json: { status: 'ok', message: 'thanks' } }, /PATCH \/start-scan\/\{transfer_id\}\/ returned an unexpected response: expected scan_id/],
    [{ headers: { 'upload-offset': 'soon' }, json: { status: 'ok', message: 'x' } }, /Upload-Offset header: expected a whole number/],
    // decisions.md: a completion without project_id is a success.
    [{ json: { scan_id: 'abc' } }, { kind: 'complete', scanId: 'abc' }],
    [{ json: { scan_id: 42, project_id: null } }, { kind: 'complete', scanId: '42' }],
  ];
  for (const [reply, want] of cases) {
    stub.handle(() => reply);
    if (want instanceof RegExp) {
      await assert.rejects(c.sendChunk('t', chunkReq({})), (e: unknown) => e instanceof ServiceError && e.kind === 'bad-response' && want.test(e.message));
    } else {
      assert.deepEqual(await c.sendChunk('t', chunkReq({})), want);
    }
  }
});

test('HEAD without a usable Upload-Offset is a bad response', async () => {
  const { c } = client({ maxRetries: 0 });
  const cases: [Record<string, string>, RegExp][] = [[{}, /Upload-Offset header: missing/], [{ 'upload-offset': '-1' }, /expected a whole number/], [{ 'upload-offset': 'abc' }, /expected a whole number/]];
  for (const [headers, re] of cases) {
    stub.handle(() => ({ headers }));
    await assert.rejects(c.readOffset('t'), (e: unknown) => e instanceof ServiceError && e.kind === 'bad-response' && re.test(e.message) && e.message.startsWith('HEAD /start-scan/{transfer_id}/'));
  }
});

test('verify: 200 with status error is unauthorized; user_info without a user is a bad response', async () => {
  const { c } = client();
  stub.handle(() => ({ json: { status: 'error' } }));
  await assert.rejects(c.verify(), (e: unknown) => e instanceof ServiceError && e.kind === 'unauthorized');
  stub.handle(() => ({ json: { status: 'ok' } }));
  await assert.rejects(c.verify({ userInfo: true }), /GET \/verify returned an unexpected response: user: expected object/);
});

test('listAll* read every page and stop a server that never ends', async () => {
  const issue = (n: number) => ({ ...sampleIssue(), id: `id-${n}` });
  stub.handle((r) => {
    const page = Number(r.query.get('page'));
    if (r.path.endsWith('/roles')) {
      return { json: { status: 'ok', page, total_pages: 3, total_roles: 3, roles: [{ id: page, name: `r${page}`, user_count: 0, created_at: '2026-01-01T00:00:00Z' }] } };
    }
    if (r.path.endsWith('/policies')) {
      return { json: { policies: [{ ...samplePolicy(), id: page }], pagination: { total_count: 2, total_pages: 2, current_page: page, page_size: 1 } } };
    }
    // Quality: page 2 repeats the last issue of page 1 (a new issue pushed it down).
    const issues = page === 1 ? [issue(1), issue(2)] : [issue(2), issue(3)];
    return { json: { status: 'ok', page, total_pages: 2, total_issues: 3, issues } };
  });
  const { c } = client();
  assert.deepEqual((await c.listAllRoles({ pageSize: 1 })).map((r) => r.id), [1, 2, 3]);
  assert.deepEqual(stub.requests.map((r) => r.query.get('page_size')), ['1', '1', '1']);
  assert.deepEqual((await c.listAllPolicies({ pageSize: 1, active: true })).map((p) => p.id), [1, 2]);
  assert.equal(stub.requests.at(-1)!.query.get('active'), 'true');
  const q = await c.listAllQualityIssues('s', { classification: 'eval' });
  assert.deepEqual(q.issues.map((i) => i.id), ['id-1', 'id-2', 'id-3']);
  assert.equal(q.totalIssues, 3);
  assert.equal(stub.requests.at(-1)!.query.get('page_size'), '50');

  stub.handle((r) => ({ json: { status: 'ok', page: Number(r.query.get('page')), total_pages: Number(r.query.get('page')) + 1, total_roles: 999, roles: [{ id: 1, name: 'x', user_count: 0, created_at: '2026-01-01T00:00:00Z' }] } }));
  stub.requests.length = 0;
  await assert.rejects(client({ maxPages: 5 }).c.listAllRoles(), (e: unknown) => e instanceof ServiceError && e.kind === 'bad-response' && /GET \/roles .*after 5 pages/.test(e.message));
  assert.equal(stub.requests.length, 5);
});

test('a classification filter is sent, and applied to the answer too: a service that ignores the parameter still gives only matching findings', async () => {
  const of = (id: string, cls: { id?: string; name?: string } | null) => ({ ...sampleIssue(), id, classification: cls });
  stub.handle(() => ({ json: {
    status: 'ok', page: 1, total_pages: 1, total_issues: 5,
    issues: [of('a', { id: 'CWE-95', name: 'Eval Injection' }), of('b', { id: 'CWE-89', name: 'SQL Injection' }), of('c', { id: 'cwe-95' }), of('d', null), of('e', { name: 'Use of EVAL()' })],
  } }));
  const { c } = client();
  const page = await c.listQualityIssues('s', { classification: 'cwe-95' });
  assert.equal(stub.requests.at(-1)!.query.get('classification'), 'cwe-95');
  assert.deepEqual(page.issues.map((i) => i.id), ['a', 'c']);
  assert.equal(page.received, 5, 'paging counts what the page held');
  assert.deepEqual((await c.listAllQualityIssues('s', { classification: 'eval' })).issues.map((i) => i.id), ['a', 'e']);
  assert.deepEqual((await c.listAllQualityIssues('s')).issues.map((i) => i.id), ['a', 'b', 'c', 'd', 'e']);
});

test('a scan\'s pages are fetched a few at a time once the first page says how many; an unchanged total costs one request', async () => {
  let inFlight = 0;
  let most = 0;
  stub.handle((r) => {
    const page = Number(r.query.get('page'));
    inFlight++;
    most = Math.max(most, inFlight);
    setTimeout(() => inFlight--, 30);
    return { delayMs: 30, json: { status: 'ok', page, total_pages: 12, total_issues: 12, issues: [{ ...sampleIssue(), id: `id-${page}` }] } };
  });
  stub.requests.length = 0;
  const { c } = client();
  const all = await c.listAllQualityIssues('s');
  assert.deepEqual(all.issues.map((i) => i.id), Array.from({ length: 12 }, (_, i) => `id-${i + 1}`), 'in page order');
  assert.ok(most > 1 && most <= 4, `at most 4 requests at a time, and more than one (${most})`);
  stub.requests.length = 0;
  const again = await c.listAllQualityIssues('s', { unchangedIfTotal: 12 });
  assert.equal(again.unchanged, true);
  assert.equal(stub.requests.length, 1);
  stub.requests.length = 0;
  assert.equal((await c.listAllQualityIssues('s', { unchangedIfTotal: 11 })).issues.length, 12);
  assert.equal(stub.requests.length, 12);
});

test('with convert, each page is converted as it arrives; what it leaves out is counted, and duplicates across pages are dropped after it', async () => {
  stub.handle((r) => {
    const page = Number(r.query.get('page'));
    // Page 2 repeats page 1's issue (the list moved while it was read); page 3 has one to leave out.
    const ids = page === 1 ? ['a', 'b'] : page === 2 ? ['b', 'c'] : ['skip', 'd'];
    return { json: { status: 'ok', page, total_pages: 3, total_issues: 6, issues: ids.map((id) => ({ ...sampleIssue(), id })) } };
  });
  // How many requests had gone out when each issue was converted.
  const requestsAtConvert: Record<string, number> = {};
  stub.requests.length = 0;
  const { c } = client();
  const all = await c.listAllQualityIssues('s', {
    convert: (q) => {
      requestsAtConvert[q.id] ??= stub.requests.length;
      return q.id === 'skip' ? undefined : { id: q.id, upper: q.id.toUpperCase() };
    },
  });
  assert.deepEqual(all.issues, [{ id: 'a', upper: 'A' }, { id: 'b', upper: 'B' }, { id: 'c', upper: 'C' }, { id: 'd', upper: 'D' }]);
  assert.equal(all.dropped, 1);
  assert.equal(all.totalIssues, 6);
  assert.equal(requestsAtConvert.a, 1, 'page 1 was converted before the other pages were asked for');
});

test('idempotent requests are retried on 5xx/429/reset; writes are not', async () => {
  let n = 0;
  stub.handle(() => (++n <= 2 ? { status: 503, json: { error: 'busy' } } : { json: { status: 'ok' } }));
  const { c, log } = client({ maxRetries: 2 });
  assert.deepEqual(await c.verify(), { status: 'ok' });
  assert.deepEqual(log.map((l) => l.status), [503, 503, 200]);

  n = 0;
  stub.handle(() => (++n === 1 ? { destroy: true } : { json: { status: 'ok' } }));
  assert.deepEqual(await c.verify(), { status: 'ok' });

  n = 0;
  stub.handle(() => (++n === 1 ? { status: 429, headers: { 'retry-after': '0' }, json: { error: 'slow down' } } : { json: { status: 'ok' } }));
  assert.deepEqual(await c.verify(), { status: 'ok' });

  // A Retry-After longer than maxRetryWaitMs is reported at once, not waited out.
  stub.requests.length = 0;
  stub.handle(() => ({ status: 429, headers: { 'retry-after': '3600' }, json: { error: 'later' } }));
  await assert.rejects(c.verify(), (e: unknown) => e instanceof ServiceError && e.kind === 'rate-limited' && e.retryAfterMs === 3_600_000);
  assert.equal(stub.requests.length, 1);

  stub.requests.length = 0;
  stub.handle(() => ({ status: 503, json: { error: 'busy' } }));
  await assert.rejects(c.sendChunk('t', chunkReq({})), (e: unknown) => e instanceof ServiceError && e.kind === 'server' && e.status === 503);
  await assert.rejects(c.startTransfer('a.zip'), (e: unknown) => e instanceof ServiceError && e.kind === 'server');
  await assert.rejects(c.addTeamMembers(1, [1]), (e: unknown) => e instanceof ServiceError && e.kind === 'server');
  assert.equal(stub.requests.length, 3, 'writes are sent once');

  stub.requests.length = 0;
  await assert.rejects(client({ maxRetries: 0 }).c.verify(), (e: unknown) => e instanceof ServiceError && e.kind === 'server');
  assert.equal(stub.requests.length, 1);
});

test('Retry-After as an HTTP date', async () => {
  const at = new Date(Date.now() + 120_000).toUTCString();
  stub.handle(() => ({ status: 429, headers: { 'retry-after': at }, json: { error: 'later' } }));
  await assert.rejects(client({ maxRetries: 0 }).c.listRoles(), (e: unknown) => {
    assert.ok(e instanceof ServiceError && e.kind === 'rate-limited');
    assert.ok(e.retryAfterMs! > 100_000 && e.retryAfterMs! <= 120_000, String(e.retryAfterMs));
    return true;
  });
});

test('the logger gets method, path without query, status, duration and error', async () => {
  stub.handle((r) => (r.path.endsWith('/roles') ? { status: 403, json: { error: 'Permission denied' } } : { json: { status: 'ok' } }));
  const { c, log } = client({ maxRetries: 0 });
  await c.verify({ userInfo: false });
  await assert.rejects(c.listRoles({ page: 2 }));
  assert.equal(log.length, 2);
  assert.deepEqual({ ...log[0], durationMs: 0 }, { method: 'GET', path: '/api/v1/verify', status: 200, durationMs: 0 });
  assert.equal(log[1].path, '/api/v1/roles');
  assert.equal(log[1].status, 403);
  assert.match(log[1].error!, /^forbidden: .*Permission denied/);
  assert.ok(log.every((l) => typeof l.durationMs === 'number' && l.durationMs >= 0 && !l.path.includes('?')));
});

test('the token never leaks: not in messages, stacks or log entries, even when the server echoes it', async () => {
  const secureToken = 'ghs_new_secret_value_778';
  type Opts = Partial<ConstructorParameters<typeof ServiceClient>[0]>;
  const cases: [string, Opts, (c: ServiceClient) => Promise<unknown>, () => ReturnType<Parameters<Stub['handle']>[0]>][] = [
    ['400', {}, (c) => c.addTeamMembers(1, [1]), () => ({ status: 400, json: { error: `bad token ${API_KEY}` } })],
    ['401', {}, (c) => c.listRoles(), () => ({ status: 401, json: { error: `Invalid token ${API_KEY}` } })],
    ['403', {}, (c) => c.listRoles(), () => ({ status: 403, json: { error: `User with token ${API_KEY} lacks permission` } })],
    ['404', {}, (c) => c.listPolicies(), () => ({ status: 404, json: { error: `policy not found for ${API_KEY}` } })],
    ['409', {}, (c) => c.sendChunk('t', chunkReq({})), () => ({ status: 409, headers: { 'upload-offset': '2' }, json: { error: API_KEY } })],
    ['422', {}, (c) => c.updateIntegration('123e4567-e89b-12d3-a456-426614174000', { secureToken }), () => ({ status: 422, json: { error: `token ${secureToken} failed verification (${API_KEY})` } })],
    ['429', { maxRetries: 0 }, (c) => c.verify(), () => ({ status: 429, headers: { 'retry-after': '1' }, json: { detail: API_KEY } })],
    ['500', { maxRetries: 0 }, (c) => c.verify(), () => ({ status: 500, json: { message: API_KEY } })],
    ['malformed', {}, (c) => c.verify(), () => ({ text: `{"status": "${API_KEY}` })],
    ['schema', {}, (c) => c.listRoles(), () => ({ json: { status: 'ok', roles: API_KEY } })],
    ['410', {}, (c) => c.listRoles(), () => ({ status: 410, json: { error: `gone for ${API_KEY}` } })],
    ['network', { maxRetries: 0 }, (c) => c.verify(), () => ({ destroy: true })],
    ['timeout', { maxRetries: 0, timeoutMs: 50 }, (c) => c.verify(), () => ({ delayMs: 400, json: { status: 'ok' } })],
    ['jwt 401', { token: JWT }, (c) => c.verify(), () => ({ status: 401, json: { status: 'error', echo: JWT } })],
    ['jwt 403', { token: JWT }, (c) => c.listRoles(), () => ({ status: 403, json: { error: `denied for ${JWT}` } })],
    ['aborted', { maxRetries: 0 }, (c) => c.verify({ signal: AbortSignal.timeout(30) }), () => ({ delayMs: 400, json: { status: 'ok' } })],
    ['validation', {}, (c) => c.listRoles({ pageSize: 51 }), () => ({ json: {} })],
  ];
  const kinds = new Set<string>();
  for (const [name, opts, run, reply] of cases) {
    stub.handle(reply);
    const log: RequestLogEntry[] = [];
    const c = new ServiceClient({ baseUrl: stub.baseUrl, token: API_KEY, retryBaseDelayMs: 1, ...opts, logger: (e) => log.push(e) });
    const caught = await run(c).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(caught instanceof ServiceError, `${name}: expected a ServiceError`);
    kinds.add(caught.kind);
    if (caught.kind === 'validation') assert.equal(log.length, 0, 'refused before sending');
    else assert.ok(log.length >= 1 && log.every((l) => l.error), `${name}: the failure is logged`);
    const text = [caught.message, caught.stack ?? '', caught.serverMessage ?? '', JSON.stringify(caught), JSON.stringify(log)].join('\n');
    for (const secret of [API_KEY, JWT, secureToken]) assert.ok(!text.includes(secret), `${name}: leaked ${secret}`);
  }
  const allKinds = ['aborted', 'bad-request', 'bad-response', 'conflict', 'forbidden', 'network', 'not-found', 'rate-limited', 'server', 'timeout', 'unauthorized', 'unprocessable', 'unsupported', 'validation'];
  assert.deepEqual([...kinds].sort(), allKinds, 'every error kind was forced');
});

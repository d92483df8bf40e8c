// Failure handling against the reference service's fault switches: 429 with Retry-After,
// 5xx, malformed JSON, slow answers (timeout), connection resets, cancellation.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { startReferenceService, clientFor, expectError, type ReferenceService } from './harness';
import { buildArchive } from './archiveFixture';

let svc: ReferenceService;
before(async () => {
  svc = await startReferenceService();
});
after(async () => {
  await svc.close();
});
afterEach(() => svc.faults.clear());

test('429: Retry-After becomes retryAfterMs; idempotent reads retry and then succeed', async () => {
  const once = clientFor(svc, svc.demoToken, { maxRetries: 0 });
  svc.faults.failNext('roles', 1, { status: 429, retryAfterSec: 7, body: { error: 'Too many requests' } });
  const e = await expectError(once.listRoles(), 'rate-limited', 429);
  assert.equal(e.retryAfterMs, 7000);
  assert.match(e.message, /Wait 7 s/);

  const retrying = clientFor(svc, svc.demoToken, { maxRetries: 2 });
  svc.faults.failNext('policies', 2, { status: 429, retryAfterSec: 0, body: { error: 'slow down' } });
  const page = await retrying.listPolicies();
  assert.ok(page.policies.length > 0);
  assert.deepEqual(retrying.log.map((l) => l.status), [429, 429, 200]);
});

test('5xx on every route is a server error; retries are bounded', async () => {
  const c = clientFor(svc, svc.demoToken, { maxRetries: 0 });
  const routes: [string, () => Promise<unknown>][] = [
    ['verify', () => c.verify()],
    ['roles', () => c.listRoles()],
    ['policies', () => c.listPolicies()],
    ['teamMembers', () => c.addTeamMembers(svc.seed.teams[0].id, [svc.seed.users[0].id])],
    ['startScan', () => c.startTransfer('project.zip')],
    ['headTransfer', () => c.readOffset('x')],
  ];
  for (const [route, run] of routes) {
    for (const status of [500, 503]) {
      svc.faults.failNext(route, 1, { status, body: { error: 'boom' } });
      const e = await expectError(run(), 'server', status);
      assert.match(e.message, new RegExp(`HTTP ${status}`));
    }
  }
  const bounded = clientFor(svc, svc.demoToken, { maxRetries: 2 });
  svc.faults.failNext('verify', 5, { status: 503 });
  await expectError(bounded.verify(), 'server', 503);
  assert.equal(bounded.log.length, 3, 'one try plus two retries');
});

test('malformed JSON answers are bad responses naming the endpoint', async () => {
  const c = clientFor(svc, svc.demoToken, { maxRetries: 0 });
  const routes: [string, string, () => Promise<unknown>][] = [
    ['verify', 'GET /verify', () => c.verify()],
    ['roles', 'GET /roles', () => c.listRoles()],
    ['policies', 'GET /policies', () => c.listPolicies()],
    ['startScan', 'POST /start-scan', () => c.startTransfer('project.zip')],
    ['teamMembers', 'POST /teams/{team_id}/members', () => c.addTeamMembers(svc.seed.teams[0].id, [svc.seed.users[0].id])],
    ['integrationUpdate', 'PATCH /integrations/pipelineprovider/{integration_uuid}', () => c.updateIntegration(svc.seed.integrations[0].uuid, { name: 'x' })],
    ['qualityIssues', 'GET /scan/{scan_id}/issues/quality', () => c.listQualityIssues('any-scan')],
    ['headTransfer', 'HEAD /start-scan/{transfer_id}/', () => c.readOffset('any-transfer')],
    ['patchChunk', 'PATCH /start-scan/{transfer_id}/', () => c.sendChunk('any-transfer', { offset: 0, totalLength: 1, archiveName: 'project.zip', body: Buffer.from('x'), bodyLength: 1, fields: {} })],
  ];
  for (const [route, endpoint, run] of routes) {
    svc.faults.malformedNext(route, 1);
    const e = await expectError(run(), 'bad-response');
    assert.ok(e.message.startsWith(`${endpoint} returned an unexpected response`), e.message);
  }
});

test('a slow answer times out; a user cancel is told apart from it', async () => {
  const c = clientFor(svc, svc.demoToken, { maxRetries: 0, timeoutMs: 150 });
  svc.faults.delayNext('verify', 1, 1500);
  const e = await expectError(c.verify(), 'timeout');
  assert.match(e.message, /did not answer within/);
  assert.equal(c.log.at(-1)?.error?.startsWith('timeout'), true);

  const patient = clientFor(svc, svc.demoToken, { maxRetries: 0, timeoutMs: 5000 });
  svc.faults.delayNext('roles', 1, 1500);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  await expectError(patient.listRoles({ signal: ac.signal }), 'aborted');

  // A delay shorter than the timeout is just slow.
  svc.faults.delayNext('verify', 1, 50);
  assert.deepEqual(await patient.verify(), { status: 'ok' });
});

test('a connection reset mid-chunk is a network error; nothing is committed and the upload resumes', async () => {
  const c = clientFor(svc, svc.demoToken, { maxRetries: 0 });
  const zip = await buildArchive('zip');
  const { transferId } = await c.startTransfer('project.zip');
  const send = (offset: number, end: number) => {
    const slice = zip.subarray(offset, end);
    return c.sendChunk(transferId, { offset, totalLength: zip.length, archiveName: 'project.zip', body: () => Readable.from([slice]), bodyLength: slice.length, fields: {} });
  };
  svc.faults.resetNext('patchChunk', 1, { afterBodyBytes: 200 });
  const e = await expectError(send(0, zip.length), 'network');
  assert.match(e.message, /Could not reach the service/);
  assert.equal(await c.readOffset(transferId), 0);
  const r = await send(0, zip.length);
  assert.equal(r.kind, 'complete');

  svc.faults.resetNext('verify', 1);
  await expectError(c.verify(), 'network');
  const retrying = clientFor(svc, svc.demoToken, { maxRetries: 1 });
  svc.faults.resetNext('verify', 1);
  assert.deepEqual(await retrying.verify(), { status: 'ok' });
});

test('a chunk upload can be cancelled mid-body', async () => {
  const c = clientFor(svc, svc.demoToken, { maxRetries: 0 });
  const { transferId } = await c.startTransfer('project.zip');
  const ac = new AbortController();
  const size = 4 * 1024 * 1024;
  let destroyed = false;
  // A source that produces 64 KiB pieces slowly; cancelling must stop it.
  const body = () => {
    let sent = 0;
    const r = new Readable({
      read() {
        if (sent >= size) return this.push(null);
        sent += 65536;
        setTimeout(() => this.push(Buffer.alloc(65536)), 5);
      },
      destroy(err, cb) {
        destroyed = true;
        cb(err);
      },
    });
    return r;
  };
  setTimeout(() => ac.abort(), 100);
  await expectError(c.sendChunk(transferId, { offset: 0, totalLength: size, archiveName: 'project.zip', body, bodyLength: size, fields: {}, signal: ac.signal }), 'aborted');
  assert.equal(destroyed, true, 'the source stream is released');
  assert.equal(await c.readOffset(transferId), 0);
});

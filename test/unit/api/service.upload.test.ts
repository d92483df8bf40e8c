// The upload calls against the reference service: the transfer state machine, every
// form part and header as the service records them, the upload error rows, and the
// quality issues of the finished scan.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { rawServiceRequest } from '../../../src/core/api/client';
import { buildMultipart } from '../../../src/core/api/multipart';
import { startReferenceService, clientFor, expectError, uploadAll, type ReferenceService } from './harness';
import { buildArchive, FIXTURE_FILES } from './archiveFixture';

let svc: ReferenceService;
let zip: Buffer;
before(async () => {
  svc = await startReferenceService({ scanDurationMs: 100 });
  zip = await buildArchive('zip');
});
after(async () => {
  await svc.close();
});

const t = () => svc.seed.tokens;
const chunkOf = (buf: Buffer, offset: number, size: number) => {
  const slice = buf.subarray(offset, Math.min(offset + size, buf.length));
  return { body: () => Readable.from([slice]), bodyLength: slice.length };
};

/** A scan once the service's run has read its archive (its file list) and finished. */
async function settledScan(scanId: string) {
  for (let i = 0; i < 200; i++) {
    const scan = svc.scans().find((s) => s.id === scanId);
    if (scan && scan.status !== 'running') return scan;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('scan did not settle');
}

/** Reads every issue of a scan once the service has finished it. */
async function settledIssues(c: ReturnType<typeof clientFor>, scanId: string) {
  let last = -1;
  for (let i = 0; i < 200; i++) {
    const r = await c.listAllQualityIssues(scanId);
    const scan = svc.scans().find((s) => s.id === scanId);
    if (scan?.status !== 'running' && r.totalIssues === last) return r;
    last = r.totalIssues;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('scan did not settle');
}

test('transfer state machine: start, HEAD, intermediate chunk, completing chunk, already in progress', async () => {
  const c = clientFor(svc, svc.demoToken);
  const { transferId } = await c.startTransfer('project.zip');
  assert.ok(transferId.length > 0);
  assert.equal(await c.readOffset(transferId), 0, 'HEAD before any chunk');
  assert.equal(await c.readOffset(transferId), 0, 'HEAD changes nothing');

  const fields = {
    projectName: 'state-machine',
    branch: 'main',
    repoUrl: 'https://git.example.com/acme/state-machine.git',
    sha: '0123456789abcdef0123456789abcdef01234567',
    dirty: true,
    metadata: { ticket: 'SEC-1', nested: { ok: true }, unicode: 'Zoë' },
    scanConfigs: ['base', 'secrets'],
    targetPolicies: svc.seed.policies.filter((p) => p.company === 1).slice(0, 2).map((p) => p.id),
  };
  const half = Math.ceil(zip.length / 2);
  const first = await c.sendChunk(transferId, { offset: 0, totalLength: zip.length, archiveName: 'project.zip', ...chunkOf(zip, 0, half), fields });
  assert.equal(first.kind, 'continue');
  assert.equal(first.kind === 'continue' && first.nextOffset, half);
  assert.ok(first.kind === 'continue' && first.message.length > 0);
  assert.equal(await c.readOffset(transferId), half, 'HEAD after an intermediate chunk');
  assert.ok(svc.transferBytes(transferId)!.equals(zip.subarray(0, half)));

  // A chunk at the wrong offset is refused with the server's offset; nothing is written.
  const wrong = await expectError(
    c.sendChunk(transferId, { offset: 0, totalLength: zip.length, archiveName: 'project.zip', ...chunkOf(zip, 0, 10), fields }),
    'conflict',
    409,
  );
  assert.equal(wrong.serverOffset, half);
  assert.equal(await c.readOffset(transferId), half);

  const done = await c.sendChunk(transferId, { offset: half, totalLength: zip.length, archiveName: 'project.zip', ...chunkOf(zip, half, zip.length), fields });
  assert.equal(done.kind, 'complete');
  if (done.kind !== 'complete') return;
  assert.ok(done.scanId.length > 0);
  assert.ok(done.projectId !== undefined && done.projectId !== '');
  const offsetAfter = await c.readOffset(transferId);
  assert.equal(offsetAfter, zip.length, 'HEAD after completion reports the whole archive');

  const again = await c.sendChunk(transferId, { offset: half, totalLength: zip.length, archiveName: 'project.zip', ...chunkOf(zip, half, zip.length), fields });
  assert.equal(again.kind, 'in-progress');
  assert.match(again.kind === 'in-progress' ? again.message : '', /already in progress/i);

  const scan = svc.scans().find((s) => s.id === done.scanId)!;
  assert.ok(scan, 'the service recorded the scan');
  assert.equal(scan.transferId, transferId);
  assert.equal(scan.clientSource, 'vscode');
  assert.deepEqual(scan.uploadHeaders, { offset: String(half), length: String(zip.length), name: 'project.zip' });
  assert.deepEqual(scan.formParts, {
    project_name: 'state-machine',
    branch: 'main',
    repo_url: 'https://git.example.com/acme/state-machine.git',
    sha: '0123456789abcdef0123456789abcdef01234567',
    dirty: 'true',
    metadata: JSON.stringify(fields.metadata),
    scan_configs: 'base,secrets',
    target_policies: fields.targetPolicies.join(','),
  });
  assert.equal(scan.partial, false);
  assert.deepEqual(scan.metadata, fields.metadata);
  assert.deepEqual(scan.scanConfigs, ['base', 'secrets']);
  assert.deepEqual(scan.targetPolicies, fields.targetPolicies);
  assert.deepEqual((await settledScan(scan.id)).files.slice().sort(), Object.keys(FIXTURE_FILES).sort());
  assert.equal(scan.archiveSize, zip.length);
  assert.equal(String(scan.projectId), String(done.projectId));
});

test('a tar archive in many small chunks, and an unknown transfer', async () => {
  const c = clientFor(svc, svc.demoToken);
  const tar = await buildArchive('tar');
  const { transferId, results } = await uploadAll(c, tar, { projectName: 'tarred' }, { chunkSize: 1000, name: 'src.tar' });
  assert.equal(results.length, Math.ceil(tar.length / 1000));
  assert.ok(results.slice(0, -1).every((r) => r.kind === 'continue'));
  const last = results.at(-1)!;
  assert.equal(last.kind, 'complete');
  const scan = await settledScan(svc.scans().find((s) => s.transferId === transferId)!.id);
  assert.deepEqual(scan.files.slice().sort(), Object.keys(FIXTURE_FILES).sort());
  assert.ok(!('dirty' in scan.formParts) && scan.dirty === null, 'dirty omitted when unknown');
  assert.ok(!('partial_scan' in scan.formParts));

  assert.equal(await c.readOffset('no-such-transfer'), 0, 'HEAD of an unknown transfer reads 0');
  await expectError(
    c.sendChunk('no-such-transfer', { offset: 0, totalLength: 3, archiveName: 'project.zip', body: Buffer.from('abc'), bodyLength: 3, fields: {} }),
    'not-found',
    404,
  );
});

test('partial scan: partial_scan=true and files_to_scan, only those files scanned', async () => {
  const c = clientFor(svc, svc.demoToken);
  const { transferId, results } = await uploadAll(c, zip, { projectName: 'partial', partial: { files: ['src/app.js'] } });
  const done = results.at(-1)!;
  assert.equal(done.kind, 'complete');
  const scan = svc.scans().find((s) => s.transferId === transferId)!;
  assert.equal(scan.formParts.partial_scan, 'true');
  assert.equal(scan.formParts.files_to_scan, 'src/app.js');
  assert.equal(scan.partial, true);
  assert.deepEqual(scan.filesToScan, ['src/app.js']);
  if (done.kind !== 'complete') return;
  const { issues } = await settledIssues(c, done.scanId);
  assert.ok(issues.length > 0);
  assert.ok(issues.every((i) => i.location.file.path === 'src/app.js'));
});

test('upload error rows: metadata, policy ids, Upload-Length, chunk past the end, plan and permission', async () => {
  const c = clientFor(svc, svc.demoToken);
  const opts = { baseUrl: svc.baseUrl, token: svc.demoToken };
  const { transferId } = await c.startTransfer('project.zip');
  const rawChunk = (metadata: string) =>
    rawServiceRequest(opts, {
      operation: 'sendChunk',
      method: 'PATCH',
      path: `/start-scan/${transferId}/`,
      headers: { 'Upload-Offset': '0', 'Upload-Length': String(zip.length), 'Upload-Name': 'project.zip' },
      multipart: buildMultipart([
        { name: 'metadata', value: metadata },
        { name: 'chunk_data', filename: 'project.zip', body: zip.subarray(0, 10), length: 10 },
      ]),
    });
  // The client refuses these itself; sent raw they must be 400s from the service.
  for (const metadata of ['[1,2]', 'null', '"text"', '{not json', JSON.stringify({ k: 'x'.repeat(16_384) })]) {
    const e = await expectError(rawChunk(metadata), 'bad-request', 400);
    assert.ok(e.serverMessage, `metadata ${metadata.slice(0, 20)}: server says why`);
  }
  const exactLimit = JSON.stringify({ k: 'x'.repeat(16_384 - '{"k":""}'.length) });
  assert.equal(Buffer.byteLength(exactLimit), 16_384);
  const ok = await rawChunk(exactLimit);
  assert.equal(ok.status, 200, 'metadata of exactly 16,384 bytes is accepted');
  assert.equal(await c.readOffset(transferId), 10);

  const base = { totalLength: zip.length, archiveName: 'project.zip' };
  for (const targetPolicies of [[999_999], ['abc'], [svc.seed.policies.find((p) => p.company !== 1)!.id]]) {
    const e = await expectError(c.sendChunk(transferId, { ...base, offset: 10, ...chunkOf(zip, 10, 10), fields: { targetPolicies } }), 'bad-request', 400);
    assert.ok(e.serverMessage);
  }
  await expectError(c.sendChunk(transferId, { ...base, totalLength: zip.length + 1, offset: 10, ...chunkOf(zip, 10, 10), fields: {} }), 'bad-request', 400);
  assert.equal(await c.readOffset(transferId), 10, 'refused chunks write nothing');

  const noBlast = await expectError(clientFor(svc, t().noBlast).startTransfer('project.zip'), 'forbidden', 403);
  assert.ok(noBlast.serverMessage);
  await expectError(clientFor(svc, t().readOnly).startTransfer('project.zip'), 'forbidden', 403);
  await expectError(clientFor(svc, t().noPermissions).readOffset(transferId), 'forbidden', 403);

  const badName = await expectError(
    rawServiceRequest(opts, {
      operation: 'startTransfer',
      method: 'POST',
      path: '/start-scan',
      query: { scan_type: 'blast' },
      multipart: buildMultipart([
        { name: 'scan_type', value: 'blast' },
        { name: 'files', filename: 'project.rar', body: Buffer.alloc(0), length: 0 },
      ]),
    }),
    'bad-request',
    400,
  );
  assert.ok(badName.serverMessage);
});

test('quality issues: every field parses, classification filter, paging, unknown scan', async () => {
  const c = clientFor(svc, svc.demoToken);
  const { results } = await uploadAll(c, zip, { projectName: 'quality', branch: 'main', sha: 'abc123' });
  const done = results.at(-1)!;
  assert.equal(done.kind, 'complete');
  if (done.kind !== 'complete') return;
  const { issues, totalIssues } = await settledIssues(c, done.scanId);
  assert.equal(issues.length, totalIssues);
  assert.ok(issues.length >= 2, `expected code quality findings in the fixture, got ${issues.length}`);
  for (const i of issues) {
    assert.match(i.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    const file = i.location.file.path!;
    assert.ok(Object.keys(FIXTURE_FILES).includes(file), file);
    const lines = FIXTURE_FILES[file].split('\n').length;
    assert.ok(i.location.line_number! >= 1 && i.location.line_number! <= lines);
    assert.equal(i.location.project?.name, 'quality');
  }
  const times = issues.map((i) => Date.parse(i.created_at!));
  assert.deepEqual(times, times.slice().sort((a, b) => b - a), 'newest first');

  // Pages of 2 put together give the same list.
  const paged = [];
  const p1 = await c.listQualityIssues(done.scanId, { page: 1, pageSize: 2 });
  assert.equal(p1.total_pages, Math.ceil(totalIssues / 2));
  paged.push(...p1.issues);
  for (let page = 2; page <= p1.total_pages!; page++) paged.push(...(await c.listQualityIssues(done.scanId, { page, pageSize: 2 })).issues);
  assert.deepEqual(paged.map((i) => i.id), issues.map((i) => i.id));

  const cls = issues[0].classification!;
  const filtered = await c.listAllQualityIssues(done.scanId, { classification: cls.name!.slice(1, 5).toUpperCase() });
  assert.ok(filtered.issues.length > 0);
  assert.ok(filtered.issues.every((i) => `${i.classification?.id} ${i.classification?.name}`.toLowerCase().includes(cls.name!.slice(1, 5).toLowerCase())));
  const byId = await c.listAllQualityIssues(done.scanId, { classification: cls.id });
  assert.ok(byId.issues.some((i) => i.classification?.id === cls.id));
  const none = await c.listAllQualityIssues(done.scanId, { classification: 'no-such-classification-xyz' });
  assert.deepEqual(none, { issues: [], totalIssues: 0, unreadable: [], dropped: 0 });

  await expectError(c.listQualityIssues('00000000-0000-0000-0000-000000000000'), 'not-found', 404);
  await expectError(clientFor(svc, t().otherCompany).listQualityIssues(done.scanId), 'not-found', 404);
});

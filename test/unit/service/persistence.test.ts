// A reference service restarted on the same data directory knows its transfers (offsets,
// bytes), scans and issues; bytes past the committed offset are dropped on start.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startReferenceService, type ReferenceService } from '../../service';
import { SAMPLE_FILES, buildArchive, call, sendChunk, startTransfer, uploadOverWire, waitForScan } from './wire';

const dirs: string[] = [];
const running: ReferenceService[] = [];
after(async () => {
  await Promise.all(running.map((s) => s.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function freshDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-persist-test-'));
  dirs.push(d);
  return d;
}

async function start(dataDir: string, scanDurationMs = 50): Promise<ReferenceService> {
  const s = await startReferenceService({ dataDir, scanDurationMs });
  running.push(s);
  return s;
}

describe('reference service persistence across restarts', () => {
  it('an open transfer keeps its offset and bytes; the upload completes on the new process', async () => {
    const dataDir = freshDir();
    const archive = await buildArchive('zip', SAMPLE_FILES);
    const a = await start(dataDir);
    const id = await startTransfer(a);
    const half = Math.floor(archive.length / 2);
    const r1 = await sendChunk(a, id, { offset: 0, length: archive.length, bytes: archive.subarray(0, half) });
    assert.equal(r1.status, 200);
    await a.close();

    const b = await start(dataDir);
    assert.notEqual(b.origin, a.origin);
    const head = await call(b, 'HEAD', `/start-scan/${id}/`);
    assert.equal(head.headers.get('upload-offset'), String(half));
    assert.deepEqual(b.transferBytes(id), archive.subarray(0, half));
    const r2 = await sendChunk(b, id, { offset: half, length: archive.length, bytes: archive.subarray(half), fields: { project_name: 'restart' } });
    assert.equal(r2.status, 200, r2.text);
    assert.ok(r2.json.scan_id);
    assert.deepEqual(b.transferBytes(id), archive);
  });

  it('bytes written past the committed offset (a crash mid-chunk) are discarded on start', async () => {
    const dataDir = freshDir();
    const archive = await buildArchive('zip', SAMPLE_FILES);
    const a = await start(dataDir);
    const id = await startTransfer(a);
    await sendChunk(a, id, { offset: 0, length: archive.length, bytes: archive.subarray(0, 100) });
    await a.close();
    appendFileSync(join(dataDir, 'transfers', `${id}.bin`), Buffer.from('garbage from a chunk that was never acknowledged'));

    const b = await start(dataDir);
    const head = await call(b, 'HEAD', `/start-scan/${id}/`);
    assert.equal(head.headers.get('upload-offset'), '100');
    assert.deepEqual(b.transferBytes(id), archive.subarray(0, 100));
    const r = await sendChunk(b, id, { offset: 100, length: archive.length, bytes: archive.subarray(100) });
    assert.ok(r.json.scan_id, r.text);
    assert.deepEqual(b.transferBytes(id), archive);
  });

  it('scans, issues (same ids) and the in-progress state survive a restart', async () => {
    const dataDir = freshDir();
    const archive = await buildArchive('zip', SAMPLE_FILES);
    const a = await start(dataDir);
    const { transferId, last } = await uploadOverWire(a, archive, { project_name: 'kept', branch: 'main' }, { chunkSize: 700 });
    const scanId = last.json.scan_id as string;
    await waitForScan(a, scanId);
    const before = await call(a, 'GET', `/scan/${scanId}/issues/quality?page_size=50`);
    assert.ok(before.json.total_issues > 0);
    await a.close();

    const b = await start(dataDir);
    const after = await call(b, 'GET', `/scan/${scanId}/issues/quality?page_size=50`);
    assert.equal(after.status, 200);
    assert.deepEqual(after.json.issues, before.json.issues);
    const scan = b.scans().find((s) => s.id === scanId);
    assert.equal(scan?.projectName, 'kept');
    assert.equal(scan?.status, 'completed');
    assert.deepEqual(scan?.files.sort(), Object.keys(SAMPLE_FILES).sort());
    // File lists can be huge; the state file rewritten on every chunk does not carry them.
    assert.ok(!readFileSync(join(dataDir, 'state.json'), 'utf8').includes('docs/readme.md'));
    const again = await sendChunk(b, transferId, { offset: archive.length, length: archive.length, bytes: Buffer.alloc(0) });
    assert.equal(again.status, 200);
    assert.match(again.json.message, /already in progress/);
    assert.equal(again.headers.get('upload-offset'), null);
  });

  it('a scan cut short by shutdown finishes after the restart without duplicates', async () => {
    const dataDir = freshDir();
    const archive = await buildArchive('zip', SAMPLE_FILES);
    const a = await start(dataDir, 60_000);
    const { last } = await uploadOverWire(a, archive);
    const scanId = last.json.scan_id as string;
    assert.equal(a.scans()[0].status, 'running');
    await a.close();

    const b = await start(dataDir, 20);
    await waitForScan(b, scanId);
    const r = await call(b, 'GET', `/scan/${scanId}/issues/quality?page_size=50`);
    const keys = r.json.issues.map((i: { scanner_metadata: { finding_key: string } }) => i.scanner_metadata.finding_key);
    assert.ok(keys.length > 0);
    assert.equal(new Set(keys).size, keys.length);
  });

  it('team membership and integration changes persist', async () => {
    const dataDir = freshDir();
    const a = await start(dataDir);
    const t = await call(a, 'POST', '/teams/2/members', { body: JSON.stringify({ member_ids: [5] }) });
    assert.equal(t.status, 200);
    const uuid = a.seed.integrations[0].uuid;
    const i = await call(a, 'PATCH', `/integrations/pipelineprovider/${uuid}`, { body: JSON.stringify({ name: 'Renamed' }) });
    assert.equal(i.status, 200);
    await a.close();
    const b = await start(dataDir);
    const t2 = await call(b, 'POST', '/teams/2/members', { body: JSON.stringify({ member_ids: [] }) });
    assert.deepEqual(t2.json.team.members.map((m: { id: number }) => m.id).sort(), [5, 7]);
    const i2 = await call(b, 'PATCH', `/integrations/pipelineprovider/${uuid}`, { body: JSON.stringify({}) });
    assert.equal(i2.json.integration.name, 'Renamed');
  });
});

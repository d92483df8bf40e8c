// Reference service fault switches, in-process and over /__admin: failures with a status,
// connection resets mid-body (nothing committed), delays, malformed JSON.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReferenceService, type ReferenceService } from '../../service';
import { SAMPLE_FILES, buildArchive, call, chunkForm, sendChunk, startTransfer, waitForScan } from './wire';

let svc: ReferenceService;

/** Temp files of aborted chunks are removed (cleanup may finish just after the client gave up). */
async function noTempFilesLeft(): Promise<void> {
  let left: string[] = [];
  for (let i = 0; i < 40; i++) {
    left = readdirSync(join(svc.dataDir, 'transfers')).filter((n) => n.endsWith('.tmp'));
    if (left.length === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.deepEqual(left, []);
}
let archive: Buffer;
before(async () => {
  svc = await startReferenceService({ scanDurationMs: 20 });
  archive = await buildArchive('zip', SAMPLE_FILES);
});
after(() => svc.close());

describe('reference service faults', () => {
  const statuses: { status: number; retryAfterSec?: number }[] = [{ status: 429, retryAfterSec: 3 }, { status: 500 }, { status: 503 }];
  for (const s of statuses) {
    it(`failNext ${s.status}: the next N requests of the route fail, then it answers normally`, async () => {
      svc.faults.failNext('roles', 2, s);
      for (let i = 0; i < 2; i++) {
        const r = await call(svc, 'GET', '/roles');
        assert.equal(r.status, s.status);
        assert.equal(typeof r.json.error, 'string');
        assert.equal(r.headers.get('retry-after'), s.retryAfterSec === undefined ? null : String(s.retryAfterSec));
      }
      assert.equal((await call(svc, 'GET', '/verify')).status, 200, 'other routes are unaffected');
      assert.equal((await call(svc, 'GET', '/roles')).status, 200);
    });
  }

  it('faults queue in order and clear() drops them', async () => {
    svc.faults.failNext('policies', 1, { status: 500 });
    svc.faults.malformedNext('policies', 1);
    assert.equal((await call(svc, 'GET', '/policies')).status, 500);
    const m = await call(svc, 'GET', '/policies');
    assert.equal(m.status, 200);
    assert.throws(() => JSON.parse(m.text));
    svc.faults.failNext('policies', 5, { status: 503 });
    svc.faults.clear();
    assert.equal((await call(svc, 'GET', '/policies')).status, 200);
  });

  it('a failed chunk commits nothing', async () => {
    const id = await startTransfer(svc);
    svc.faults.failNext('patchChunk', 1, { status: 500 });
    const r = await sendChunk(svc, id, { offset: 0, length: archive.length, bytes: archive.subarray(0, 100) });
    assert.equal(r.status, 500);
    assert.equal(svc.transferBytes(id)!.length, 0);
  });

  const resets = [0, 1, 150, 100_000];
  for (const k of resets) {
    it(`resetNext after ${k} body bytes: the connection drops and nothing of the chunk is committed`, async () => {
      const id = await startTransfer(svc);
      await sendChunk(svc, id, { offset: 0, length: archive.length, bytes: archive.subarray(0, 50) });
      svc.faults.resetNext('patchChunk', 1, { afterBodyBytes: k });
      await assert.rejects(sendChunk(svc, id, { offset: 50, length: archive.length, bytes: archive.subarray(50, 400) }));
      const head = await call(svc, 'HEAD', `/start-scan/${id}/`);
      assert.equal(head.headers.get('upload-offset'), '50');
      assert.deepEqual(svc.transferBytes(id), archive.subarray(0, 50));
      const retry = await sendChunk(svc, id, { offset: 50, length: archive.length, bytes: archive.subarray(50, 400) });
      assert.equal(retry.headers.get('upload-offset'), '400', retry.text);
      await noTempFilesLeft();
    });
  }

  it('resetNext on a GET drops the connection before answering', async () => {
    svc.faults.resetNext('verify', 1);
    await assert.rejects(call(svc, 'GET', '/verify'));
    assert.equal((await call(svc, 'GET', '/verify')).status, 200);
  });

  it('malformedNext on HEAD gives an unusable Upload-Offset', async () => {
    svc.faults.malformedNext('headTransfer', 1);
    const r = await call(svc, 'HEAD', '/start-scan/anything/');
    assert.equal(r.status, 200);
    assert.ok(!/^\d+$/.test(r.headers.get('upload-offset') ?? ''));
  });

  it('delayNext answers late but correctly', async () => {
    svc.faults.delayNext('verify', 1, 50);
    const r = await call(svc, 'GET', '/verify');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { status: 'ok' });
  });

  it('rejects a fault for an unknown route id', () => {
    assert.throws(() => svc.faults.failNext('nope', 1, { status: 500 }), /unknown route id/);
  });
});

describe('reference service admin endpoints', () => {
  it('POST /__admin/faults arms faults; GET /__admin/scans lists scan records', async () => {
    const armed = await call(svc, 'POST', '/__admin/faults', { token: null, body: JSON.stringify({ action: 'failNext', route: 'verify', count: 1, status: 429, retryAfterSec: 1 }) });
    assert.equal(armed.status, 200);
    const r = await call(svc, 'GET', '/verify');
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '1');

    const bad = await call(svc, 'POST', '/__admin/faults', { token: null, body: JSON.stringify({ action: 'explode', route: 'verify' }) });
    assert.equal(bad.status, 400);

    const id = await startTransfer(svc);
    const done = await sendChunk(svc, id, { offset: 0, length: archive.length, bytes: archive });
    // The scan run reads the archive and records its files.
    await waitForScan(svc, done.json.scan_id);
    const scans = await call(svc, 'GET', '/__admin/scans', { token: null });
    assert.equal(scans.status, 200);
    const rec = scans.json.find((s: { id: string }) => s.id === done.json.scan_id);
    assert.equal(rec.transferId, id);
    assert.deepEqual(rec.files.sort(), Object.keys(SAMPLE_FILES).sort());
  });

  it('a body cut short by the client leaves the service running and the transfer untouched', async () => {
    const id = await startTransfer(svc);
    const form = chunkForm(archive.subarray(0, 300));
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    await new Promise<void>((resolve) => {
      const req = request(`${svc.baseUrl}/start-scan/${id}/`, {
        method: 'PATCH',
        headers: {
          'SERVICE-TOKEN': svc.demoToken, 'Upload-Offset': '0', 'Upload-Length': String(archive.length),
          'Content-Type': encoded.headers.get('content-type')!, 'Content-Length': String(body.length),
        },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(body.subarray(0, 200), () => setTimeout(() => { req.destroy(); resolve(); }, 50));
    });
    const head = await call(svc, 'HEAD', `/start-scan/${id}/`);
    assert.equal(head.headers.get('upload-offset'), '0');
    assert.equal(svc.transferBytes(id)!.length, 0);
    await noTempFilesLeft();
  });
});

// The reference service's scan lifecycle (decisions.md): in real answer shapes `GET
// /scan/{id}` reports queued -> processing -> complete (with scan_errors) or failed (with a
// reason), and the findings list stays empty until the scan is complete; seed mode has no
// such route (404, as for any path that is not an endpoint).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startReferenceService, type ReferenceService } from '../../service';
import { SAMPLE_FILES, buildArchive, call, uploadedScanId, waitForScan } from './wire';

describe('reference service: the scan lifecycle', () => {
  let svc: ReferenceService;
  let archive: Buffer;

  before(async () => {
    svc = await startReferenceService({ scanDurationMs: 20 });
    archive = await buildArchive('zip', SAMPLE_FILES);
  });
  after(() => svc.close());

  const uploaded = () => uploadedScanId(svc, archive, 'lifecycle');

  test('seed shapes: GET /scan/{id} is not an endpoint', async () => {
    svc.mode.shapes = 'seed';
    const id = await uploaded();
    const r = await call(svc, 'GET', `/scan/${id}`);
    assert.equal(r.status, 404);
    assert.match(r.json.error, /no such endpoint/);
  });

  test('real shapes: queued, then processing with no findings listed, then complete with them and scan_errors', async () => {
    svc.mode.shapes = 'real';
    svc.mode.processingMs = 4000;
    try {
      const id = await uploaded();
      const first = await call(svc, 'GET', `/scan/${id}`);
      assert.equal(first.status, 200);
      assert.equal(first.json.id, id);
      assert.equal(first.json.status, 'queued');
      assert.equal(first.json.project, 'lifecycle');
      assert.equal(first.json.failed_reason, null);
      assert.equal(first.json.scan_errors, null);
      await new Promise((r) => setTimeout(r, 900));
      const mid = await call(svc, 'GET', `/scan/${id}`);
      assert.equal(mid.json.status, 'processing');
      const listed = await call(svc, 'GET', `/scan/${id}/issues/quality?page_size=50`);
      assert.equal(listed.status, 200);
      assert.equal(listed.json.total_issues, 0, 'nothing is listed while the scan runs');
      await waitForScan(svc, id);
      const done = await call(svc, 'GET', `/scan/${id}`);
      assert.equal(done.json.status, 'complete');
      assert.deepEqual(done.json.scan_errors.map((e: { level: string }) => e.level), ['info']);
      const all = await call(svc, 'GET', `/scan/${id}/issues/quality?page_size=50`);
      assert.ok(all.json.total_issues >= 3, `findings once complete: ${all.json.total_issues}`);
    } finally {
      svc.mode.processingMs = undefined;
      svc.mode.shapes = 'seed';
    }
  });

  test('a scan held by a long processing time ends at once when a test finishes it, with all its findings', async () => {
    svc.mode.shapes = 'real';
    svc.mode.processingMs = 10 * 60_000;
    try {
      const id = await uploaded();
      const held = await call(svc, 'GET', `/scan/${id}`);
      assert.notEqual(held.json.status, 'complete');
      const started = Date.now();
      const finished = await call(svc, 'POST', `/__admin/scans/${id}/finish`);
      assert.equal(finished.status, 200, JSON.stringify(finished.json));
      await waitForScan(svc, id);
      assert.ok(Date.now() - started < 5000, 'it ended at once, not at its set time');
      const done = await call(svc, 'GET', `/scan/${id}`);
      assert.equal(done.json.status, 'complete');
      const all = await call(svc, 'GET', `/scan/${id}/issues/quality?page_size=50`);
      assert.ok(all.json.total_issues >= 3, `every finding is in: ${all.json.total_issues}`);
      const again = await call(svc, 'POST', `/__admin/scans/${id}/finish`);
      assert.equal(again.status, 409, 'a scan that is not running cannot be finished');
      assert.equal((await call(svc, 'POST', '/__admin/scans/nope/finish')).status, 409);
    } finally {
      svc.mode.processingMs = undefined;
      svc.mode.shapes = 'seed';
    }
  });

  test('every file of an archive is scanned: a finding in its 2,501st source file is reported', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2500; i++) files[`src/m${String(i).padStart(4, '0')}.js`] = `module.exports = ${i};\n`;
    files['src/zz-last.js'] = 'function run(input) {\n  return eval(input);\n}\n';
    const id = await uploadedScanId(svc, await buildArchive('zip', files), 'many-files');
    await waitForScan(svc, id);
    const all = await call(svc, 'GET', `/scan/${id}/issues?page_size=50`);
    assert.ok(all.json.issues.some((i: { location: { file: { path: string } } }) => i.location.file.path === 'src/zz-last.js'), JSON.stringify(all.json.issues.map((i: { location: unknown }) => i.location)));
  });

  test('a limit of the service is said in scan_errors, as the real service reports what it did not scan', async () => {
    const limited = await startReferenceService({ scanDurationMs: 20, maxScannedFiles: 1, shapes: 'real' });
    try {
      const id = await uploadedScanId(limited, archive, 'limited');
      await waitForScan(limited, id);
      const done = await call(limited, 'GET', `/scan/${id}`);
      const warnings = done.json.scan_errors.filter((e: { level: string }) => e.level === 'warning');
      assert.equal(warnings.length, 1, JSON.stringify(done.json.scan_errors));
      assert.match(warnings[0].message, /source files were not scanned: the scan reached its limit of 1 files/);
    } finally {
      await limited.close();
    }
  });

  test('a planned failure ends the scan failed with its reason and no findings', async () => {
    svc.mode.shapes = 'real';
    try {
      svc.planOutcome({ failedReason: 'The archive holds no supported source files' });
      const id = await uploaded();
      await waitForScan(svc, id);
      const r = await call(svc, 'GET', `/scan/${id}`);
      assert.equal(r.json.status, 'failed');
      assert.equal(r.json.failed_reason, 'The archive holds no supported source files');
      const all = await call(svc, 'GET', `/scan/${id}/issues/quality`);
      assert.equal(all.json.total_issues, 0);
      // Only the next scan was armed.
      const next = await uploaded();
      await waitForScan(svc, next);
      assert.equal((await call(svc, 'GET', `/scan/${next}`)).json.status, 'complete');
    } finally {
      svc.mode.shapes = 'seed';
    }
  });

  test('an outcome planned for one project ends that project\'s next scan, not another\'s', async () => {
    svc.mode.shapes = 'real';
    try {
      const armed = await call(svc, 'POST', '/__admin/scan-outcomes', { body: JSON.stringify({ failedReason: 'out of time', project: 'billing' }) });
      assert.equal(armed.status, 200, armed.text);
      const other = await uploaded();
      await waitForScan(svc, other);
      assert.equal((await call(svc, 'GET', `/scan/${other}`)).json.status, 'complete', 'a scan of another project is not taken');
      const meant = await uploadedScanId(svc, archive, 'billing');
      await waitForScan(svc, meant);
      const r = await call(svc, 'GET', `/scan/${meant}`);
      assert.deepEqual([r.json.status, r.json.failed_reason], ['failed', 'out of time']);
      const bad = await call(svc, 'POST', '/__admin/scan-outcomes', { body: JSON.stringify({ failedReason: 'x', project: 7 }) });
      assert.equal(bad.status, 400);
    } finally {
      svc.mode.shapes = 'seed';
    }
  });

  test('planned scan_errors come after the info line; the admin API arms them too', async () => {
    svc.mode.shapes = 'real';
    try {
      const armed = await call(svc, 'POST', '/__admin/scan-outcomes', {
        body: JSON.stringify({ scanErrors: [{ scan_type: 'blast', level: 'error', location: 'src/util.py', message: 'parser timed out' }] }),
      });
      assert.equal(armed.status, 200, armed.text);
      const id = await uploaded();
      await waitForScan(svc, id);
      const r = await call(svc, 'GET', `/scan/${id}`);
      assert.deepEqual(r.json.scan_errors.map((e: { level: string; message: string }) => [e.level, e.message]), [['info', 'Scanned 5 files'], ['error', 'parser timed out']]);
      const bad = await call(svc, 'POST', '/__admin/scan-outcomes', { body: JSON.stringify({ count: 0 }) });
      assert.equal(bad.status, 400);
    } finally {
      svc.mode.shapes = 'seed';
    }
  });

  test('another company\'s scan reads like a missing one', async () => {
    svc.mode.shapes = 'real';
    try {
      const id = await uploaded();
      const r = await call(svc, 'GET', `/scan/${id}`, { token: svc.seed.tokens.otherCompany });
      assert.equal(r.status, 404);
      assert.equal((await call(svc, 'GET', '/scan/no-such-scan')).status, 404);
    } finally {
      svc.mode.shapes = 'seed';
    }
  });
});

// The reference service's admin API is reachable only with the printed secret, from the
// machine itself, not from another site; uploads and what a scan inflates are bounded.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startReferenceService, type ReferenceService } from '../../service';
import { buildArchive, call, sendChunk, startTransfer, uploadOverWire, waitForScan } from './wire';

/** A raw request, so Host/Origin headers can be set the way a browser or an attacker would. */
function raw(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', reject);
    req.end();
  });
}

describe('reference service: admin guard and limits', () => {
  let svc: ReferenceService;
  before(async () => { svc = await startReferenceService({ scanDurationMs: 20, maxArchiveBytes: 64 * 1024, maxScannedBytes: 4096 }); });
  after(() => svc.close());

  it('answers with the secret from a loopback Host', async () => {
    assert.equal(await raw(`${svc.adminUrl}/scans`, {}), 200);
    assert.equal(await raw(`${svc.adminUrl}/scans`, { host: `localhost:${new URL(svc.origin).port}`, origin: `http://localhost:${new URL(svc.origin).port}` }), 200);
  });

  const refusals: [string, (u: string) => string, Record<string, string>][] = [
    ['no secret', () => `${svc.origin}/__admin/scans`, {}],
    ['a wrong secret', () => `${svc.origin}/__admin/${'x'.repeat(24)}/scans`, {}],
    ['a foreign Host (DNS rebinding)', (u) => u, { host: 'attacker.example' }],
    ['a cross-site Origin', (u) => u, { origin: 'https://attacker.example' }],
    ['a null Origin', (u) => u, { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', (u) => u, { 'sec-fetch-site': 'cross-site' }],
  ];
  for (const [name, url, headers] of refusals) {
    it(`refuses ${name}`, async () => {
      assert.equal(await raw(url(`${svc.adminUrl}/faults`), headers), 403);
    });
  }

  it('refuses an Upload-Length above its limit with 413', async () => {
    const id = await startTransfer(svc);
    const r = await sendChunk(svc, id, { offset: 0, length: 65 * 1024, bytes: Buffer.alloc(10) });
    assert.equal(r.status, 413, r.text);
    assert.match(r.json.error, /larger than this service accepts/);
  });

  it('inflates at most maxScannedBytes of one archive (a zip bomb stops there)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`src/f${i}.js`] = `eval(x${i});\n${' '.repeat(1000)}\n`;
    const archive = await buildArchive('zip', files);
    const { last } = await uploadOverWire(svc, archive);
    await waitForScan(svc, last.json.scan_id);
    const r = await call(svc, 'GET', `/scan/${last.json.scan_id}/issues?page_size=50`);
    const scannedFiles = new Set((r.json.issues as { location: { file: { path: string } } }[]).map((i) => i.location.file.path));
    assert.ok(scannedFiles.size > 0 && scannedFiles.size <= 4, `${scannedFiles.size} files scanned`);
  });
});

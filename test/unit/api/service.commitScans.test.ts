// The service's scans of a commit, against the reference service (decisions.md, "The
// service's scans of a commit"): a complete clean scan of the commit in the project is
// reused, confirmed by its state; a dirty one, one of another commit or project, or one
// whose state cannot be read is not.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReferenceService, clientFor, uploadAll, type ReferenceService } from './harness';
import { buildArchive } from './archiveFixture';
import { TransferCookies, type UploadFields } from '../../../src/core/api';

const SHA = 'a'.repeat(40);
let real: ReferenceService;
let seed: ReferenceService;
before(async () => {
  real = await startReferenceService({ scanDurationMs: 10, shapes: 'real' });
  seed = await startReferenceService({ scanDurationMs: 10 });
});
after(async () => { await real.close(); await seed.close(); });

async function scanOf(svc: ReferenceService, fields: UploadFields): Promise<string> {
  const c = clientFor(svc, svc.demoToken);
  const { results } = await uploadAll(c, await buildArchive('zip', { 'src/ok.js': 'module.exports = 1;\n' }), fields, { cookies: new TransferCookies(new URL(svc.baseUrl).origin) });
  const done = results.at(-1)!;
  const id = done.kind === 'complete' ? done.scanId : '';
  while (svc.scans().find((s) => s.id === id)?.status === 'running') await new Promise((r) => setTimeout(r, 10));
  return id;
}

test('the newest complete clean scan of the commit, in its project only', async () => {
  const c = clientFor(real, real.demoToken);
  assert.deepEqual(await c.findReusableScan('web', SHA), { none: 'none-found' });
  await scanOf(real, { projectName: 'web', sha: SHA, dirty: true });
  await scanOf(real, { projectName: 'web', sha: 'b'.repeat(40), dirty: false });
  await scanOf(real, { projectName: 'other', sha: SHA, dirty: false });
  assert.deepEqual(await c.findReusableScan('web', SHA), { none: 'none-found' }, 'dirty, another commit, another project');
  const clean = await scanOf(real, { projectName: 'web', sha: SHA, dirty: false });
  assert.deepEqual(await c.findReusableScan('web', SHA.toUpperCase()), { scanId: clean });
  const scans = await c.findReusableScan('web', SHA);
  assert.deepEqual(scans, { scanId: clean });
});

test('a scan whose state the service does not show is not reused', async () => {
  const c = clientFor(seed, seed.demoToken);
  await scanOf(seed, { projectName: 'web', sha: SHA, dirty: false });
  assert.deepEqual(await c.findReusableScan('web', SHA), { none: 'no-state' });
});

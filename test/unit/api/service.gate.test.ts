// CI's gate as the service evaluates it, against the reference service (decisions.md, "The
// service's gate"): pending on a scan's first ask, the named rules' blocking findings with
// their slugs and the count over all pages, and a 400 that names each refused rule.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReferenceService, clientFor, expectError, uploadAll, type ReferenceService } from './harness';
import { buildArchive, FIXTURE_FILES } from './archiveFixture';
import { askServiceGate } from '../../../src/core/results/serviceGate';

let svc: ReferenceService;
let scanId: string;
before(async () => {
  svc = await startReferenceService({ scanDurationMs: 50 });
  const c = clientFor(svc, svc.demoToken);
  const files = { ...FIXTURE_FILES, 'package.json': '{"dependencies": {"event-stream": "3.3.6", "lodash": "4.17.15"}}' };
  const { results } = await uploadAll(c, await buildArchive('zip', files), { projectName: 'gate' });
  const done = results.at(-1)!;
  scanId = done.kind === 'complete' ? done.scanId : '';
  while (svc.scans().find((s) => s.id === scanId)?.status === 'running') await new Promise((r) => setTimeout(r, 20));
});
after(() => svc.close());

test('the first ask is pending; then the named CI rules\' blocking findings, each with its slugs', async () => {
  const c = clientFor(svc, svc.demoToken);
  const first = await c.checkBlockingRules(scanId, { blockOn: ['criticals', 'malicious-deps'] });
  assert.deepEqual(first.kind === 'answer' && [first.ready, first.status], [false, 'pending']);
  const r = await c.checkBlockingRules(scanId, { blockOn: ['criticals', 'malicious-deps'] });
  assert.ok(r.kind === 'answer' && r.ready && r.block, JSON.stringify(r));
  if (r.kind !== 'answer') return;
  assert.equal(r.blocked, r.issues.length);
  assert.deepEqual(r.issues.map((i) => i.slugs.join()).sort(), ['criticals', 'malicious-deps']);
  assert.ok(r.issues.some((i) => i.rules.includes('Critical findings')));
  // --fail: every active rule, whatever it applies to: the hard-coded secret too.
  const all = await c.checkBlockingRules(scanId);
  assert.ok(all.kind === 'answer' && all.issues.some((i) => i.slugs.includes('secrets')), JSON.stringify(all));
});

test('a 400 names each rule it refused: unknown, inactive, not CI', async () => {
  const c = clientFor(svc, svc.demoToken);
  const r = await c.checkBlockingRules(scanId, { blockOn: ['nope', 'legacy-high', 'secrets', 'criticals'] });
  assert.deepEqual(r, { kind: 'refused', unknown: ['nope'], inactive: ['legacy-high'], nonCi: ['secrets'], message: 'block_on names rules that cannot gate CI' });
  await expectError(c.checkBlockingRules('no-such-scan'), 'not-found', 404);
});

test('a scan that breaks no rule: no block, and the count is 0 (not a page of nothing)', async () => {
  const c = clientFor(svc, svc.demoToken);
  const { results } = await uploadAll(c, await buildArchive('zip', { 'src/ok.js': 'module.exports = 1;\n' }), { projectName: 'gate-clean' });
  const done = results.at(-1)!;
  const id = done.kind === 'complete' ? done.scanId : '';
  while (svc.scans().find((s) => s.id === id)?.status === 'running') await new Promise((r) => setTimeout(r, 20));
  await c.checkBlockingRules(id, { blockOn: ['criticals'] });
  assert.deepEqual(await c.checkBlockingRules(id, { blockOn: ['criticals'] }), { kind: 'answer', ready: true, status: 'complete', block: false, issues: [], totalPages: 0, blocked: 0 });
});

test('asked as CI asks: again while pending, then every blocking finding with its slugs', async () => {
  const c = clientFor(svc, svc.demoToken);
  const { results } = await uploadAll(c, await buildArchive('zip', { ...FIXTURE_FILES, 'package.json': '{"dependencies": {"event-stream": "3.3.6"}}' }), { projectName: 'gate-ask' });
  const done = results.at(-1)!;
  const id = done.kind === 'complete' ? done.scanId : '';
  while (svc.scans().find((s) => s.id === id)?.status === 'running') await new Promise((r) => setTimeout(r, 20));
  const waits: string[] = [];
  const r = await askServiceGate(c, id, { kind: 'block-on', slugs: ['malicious-deps'] }, { pauseMs: () => 10, onWaiting: (s) => waits.push(s) });
  assert.deepEqual(waits, ['pending']);
  assert.ok(r.kind === 'judged' && r.block && r.blocked === 1, JSON.stringify(r));
  assert.deepEqual(r.kind === 'judged' && r.issues.map((i) => i.slugs), [['malicious-deps']]);
  const refused = await askServiceGate(c, id, { kind: 'block-on', slugs: ['typo'] }, { pauseMs: () => 10 });
  assert.equal(refused.kind, 'refused');
});

// The client against the reference service's three lists of a scan (decisions.md, "Every list
// the service keeps"), in the seed's shapes and in real ones: every record of each list is
// read, paged and whole; each list's own 404, 5xx and odd records are told apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetchFindings } from '../../../src/core/scan/awaitScan';
import { kindOf } from '../../../src/core/issues';
import { startReferenceService, clientFor, expectError, uploadAll, type ReferenceService } from './harness';
import { buildArchive, FIXTURE_FILES } from './archiveFixture';

const FILES = {
  ...FIXTURE_FILES,
  'package.json': '{\n  "dependencies": {\n    "lodash": "^4.17.15",\n    "minimist": "1.2.5",\n    "event-stream": "3.3.6"\n  }\n}\n',
  'requirements.txt': 'requests==2.25.1\nflask==3.0.0\n',
};

let svc: ReferenceService;
let scanId: string;
before(async () => {
  svc = await startReferenceService({ scanDurationMs: 50 });
  const c = clientFor(svc, svc.demoToken);
  const { results } = await uploadAll(c, await buildArchive('zip', FILES), { projectName: 'lists' });
  const done = results.at(-1)!;
  assert.equal(done.kind, 'complete');
  scanId = done.kind === 'complete' ? done.scanId : '';
  while (svc.scans().find((s) => s.id === scanId)?.status === 'running') await new Promise((r) => setTimeout(r, 20));
});
after(() => svc.close());

for (const shapes of ['seed', 'real'] as const) {
  describe(`${shapes} shapes`, () => {
    before(() => { svc.mode.shapes = shapes; });
    after(() => { svc.mode.shapes = 'seed'; });

    test('every list is read whole: security, code quality and dependencies, each finding once', async () => {
      const found = await fetchFindings({ client: clientFor(svc, svc.demoToken), log: () => undefined }, scanId);
      assert.deepEqual(Object.fromEntries(Object.entries(found.lists).map(([k, v]) => [k, v.state])), { security: 'read', quality: 'read', dependency: 'read' });
      const byKind = (k: string) => found.issues.filter((i) => kindOf(i) === k);
      assert.ok(byKind('security').some((i) => i.classificationId === 'CWE-95'), 'eval is a security finding');
      assert.ok(byKind('quality').some((i) => i.classificationId === 'CWE-489'), 'leftover debug output is a code quality finding');
      const deps = Object.fromEntries(byKind('dependency').map((i) => [i.dependency!.name, i]));
      assert.deepEqual(Object.keys(deps).sort(), ['event-stream', 'lodash', 'minimist', 'requests']);
      assert.equal(deps.lodash!.dependency!.fixVersion, '4.17.21');
      assert.equal(deps.lodash!.urgency, 'high');
      assert.equal(deps.minimist!.urgency, 'critical');
      assert.equal(deps.requests!.path, 'requirements.txt');
      assert.equal(deps['event-stream']!.dependency!.malicious, true);
      assert.equal(new Set(found.issues.map((i) => i.id)).size, found.issues.length, 'keys are unique across the lists');
      assert.equal(found.totalIssues, found.issues.length);
      assert.equal(found.unreadable, 0);
    });

    test('pages of one finding put together give each list whole', async () => {
      const c = clientFor(svc, svc.demoToken);
      for (const list of ['security', 'dependency'] as const) {
        const whole = await c.listAllIssues(list, scanId, { convert: (i) => i });
        const paged = await c.listAllIssues(list, scanId, { pageSize: 1, convert: (i) => i });
        assert.deepEqual(paged.issues.map((i) => i.id), whole.issues.map((i) => i.id), list);
        assert.equal(paged.totalIssues, whole.totalIssues);
        assert.ok(whole.totalIssues >= 2, `${list}: ${whole.totalIssues}`);
      }
      await expectError(c.listIssues('dependency', scanId, { pageSize: 31 }), 'validation');
      await expectError(c.listIssues('security', 'no-such-scan'), 'not-found', 404);
      await expectError(c.listIssues('dependency', 'no-such-scan'), 'not-found', 404);
    });
  });
}

test('a dependency record the client cannot read is left out and counted; the list is read', async () => {
  const c = clientFor(svc, svc.demoToken);
  const before = await c.listAllIssues('dependency', scanId, { convert: (i) => i });
  const res = await fetch(`${svc.adminUrl}/scans/${scanId}/issues`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ list: 'dependency', issues: [{ id: 'no-place', location: null }, { id: 'odd', location: { path: 'package.json' }, package: 'lodash', severity: 7 }] }),
  });
  assert.equal(res.status, 200, await res.text());
  const after = await c.listAllIssues('dependency', scanId, { convert: (i) => i });
  assert.equal(after.issues.length, before.issues.length + 1, 'the odd one is read: its odd fields read as missing');
  assert.deepEqual(after.unreadable.map((u) => u.id), ['no-place']);
});

test('a list the service fails (503) or lacks (404) leaves the other two read', async () => {
  const log: string[] = [];
  svc.faults.failNext('securityIssues', 50, { status: 503 });
  svc.mode.lists = ['security', 'quality'];
  try {
    const found = await fetchFindings({ client: clientFor(svc, svc.demoToken, { maxRetries: 0 }), log: (l) => log.push(l) }, scanId);
    assert.equal(found.lists.security.state, 'failed');
    assert.deepEqual(found.lists.dependency, { state: 'absent' });
    assert.equal(found.lists.quality.state, 'read');
    assert.ok(found.issues.length > 0 && found.issues.every((i) => kindOf(i) === 'quality'));
    assert.ok(log.some((l) => /security findings could not be read/.test(l)), log.join('\n'));
  } finally {
    svc.faults.clear();
    svc.mode.lists = undefined;
  }
});

// Every row of decisions.md's "What the service's own public clients show about real
// answers", against the reference service answering in those shapes, over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServiceClient, TransferCookies, isServiceError } from '../../../src/core/api';
import { URGENCY_ORDER, isFixable, severityFromUrgency, toStoredIssue, urgencyRank } from '../../../src/core/issues';
import { startReferenceService, type ReferenceService } from '../../service';
import { SAMPLE_FILES, buildArchive, uploadOverWire, waitForScan } from '../service/wire';
import { startStub } from './stubServer';

describe('real answer shapes (decisions.md)', () => {
  let svc: ReferenceService;
  let scanId: string;
  const warnings: string[] = [];
  const client = () => new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken, maxRetries: 0, onServiceWarning: (w) => warnings.push(w) });

  before(async () => {
    svc = await startReferenceService({ scanDurationMs: 10, shapes: 'real' });
    const files = { ...SAMPLE_FILES, 'src/more.js': 'if (a == b) { debugger; }\nconsole.log(a);\n', 'src/x.py': 'try:\n    go()\nexcept:\n    pass\n', 'src/cmd.js': "const cp = require('child_process');\ncp.exec('ls ' + dir);\neval(a + b);\n" };
    const { last } = await uploadOverWire(svc, await buildArchive('zip', files));
    scanId = last.json.scan_id;
    await waitForScan(svc, scanId);
  });
  after(() => svc.close());

  test('the key is read from CORGEA-TOKEN only, as the real service does: the client sends both and gets in', async () => {
    assert.equal((await client().verify()).status, 'ok');
    const only = (keyHeaders: 'spec' | 'client') => new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken, maxRetries: 0, keyHeaders }).verify().then(() => 'ok', (e: unknown) => (isServiceError(e) ? e.kind : String(e)));
    assert.equal(await only('client'), 'ok');
    assert.equal(await only('spec'), 'unauthorized', 'SERVICE-TOKEN alone is refused');
  });

  test('the web app version is read outside /api/v1, without credentials; a service without it answers 404 (unknown)', async () => {
    const before = svc.requests().length;
    assert.equal(await client().webAppVersion(), 'v1.71.3');
    svc.mode.shapes = 'seed';
    try {
      assert.equal(await client().webAppVersion(), undefined);
    } finally {
      svc.mode.shapes = 'real';
    }
    const asked = svc.requests().slice(before);
    assert.deepEqual(asked.map((r) => [r.path, r.auth]), [['/api/version', 'none'], ['/api/version', 'none']]);
  });

  test('a completed upload answers without project_id, and that is a success', async () => {
    const { last } = await uploadOverWire(svc, await buildArchive('zip', SAMPLE_FILES));
    assert.equal(last.json.project_id, undefined);
    assert.ok(last.json.scan_id);
  });

  test('urgency: full words and short codes in any case mean the same; the editor shows the full word', async () => {
    const res = await client().listAllQualityIssues(scanId);
    const raw = res.issues.map((i) => i.urgency);
    assert.ok(raw.some((u) => u && /^(CR|HI|ME|LO)$/.test(u)), `short upper-case codes: ${raw.join(',')}`);
    assert.ok(raw.some((u) => u && /^(cr|hi|me|lo)$/.test(u)), `short lower-case codes: ${raw.join(',')}`);
    const stored = res.issues.map((i) => toStoredIssue(i)!);
    assert.ok(stored.every((s) => (URGENCY_ORDER as readonly string[]).includes(s.urgency)), stored.map((s) => s.urgency).join(','));
    for (const [code, word] of [['CR', 'critical'], ['hi', 'high'], ['Me', 'medium'], ['lO', 'low'], ['HIGH', 'high']]) {
      assert.equal(severityFromUrgency(code), severityFromUrgency(word), code);
      assert.equal(urgencyRank(code), urgencyRank(word), code);
    }
    assert.equal(urgencyRank('blocker'), URGENCY_ORDER.length, 'unknown values sort after low');
    assert.equal(toStoredIssue({ id: '1', location: { file: { path: 'a.js' } }, urgency: 'Blocker' })!.urgency, 'Blocker', 'unknown values are shown as they are');
  });

  test('nullable and missing fields: every issue is read; ids need not be UUIDs; a suggestion without a patch offers no fix and keeps its status', async () => {
    // The code quality and security lists share the issue shape (decisions.md); read both.
    const quality = await client().listAllQualityIssues(scanId);
    const security = await client().listAllIssues('security', scanId, { convert: (i) => i });
    const res = { ...quality, issues: [...quality.issues, ...security.issues], totalIssues: quality.totalIssues + security.totalIssues, unreadable: [...quality.unreadable, ...security.unreadable] };
    assert.equal(res.unreadable.length, 0);
    assert.equal(res.issues.length, res.totalIssues);
    assert.ok(res.issues.every((i) => /^\d+$/.test(i.id)), 'numeric ids, read as text');
    assert.ok(res.issues.every((i) => i.classification?.description === undefined && i.location.project?.branch === undefined));
    const stored = res.issues.map((i) => ({ ...toStoredIssue(i)!, inArchive: true }));
    const withFix = stored.filter((s) => s.fix);
    const without = res.issues.filter((i) => !i.auto_fix_suggestion?.patch);
    assert.ok(withFix.length > 0 && withFix.every(isFixable), 'fixes without a suggestion id still apply');
    assert.ok(res.issues.every((i) => i.auto_fix_suggestion?.id === undefined));
    assert.ok(without.length > 0 && without.every((i) => ['no_fix', 'unsupported'].includes(i.auto_fix_suggestion?.status ?? '')));
    assert.ok(stored.filter((s) => !s.fix).length === without.length);
  });

  test('one issue the client cannot read is left out and counted; the page and the others are read', async () => {
    const res0 = await client().listAllQualityIssues(scanId);
    const adminRes = await fetch(`${svc.adminUrl}/scans/${scanId}/issues`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ issues: [{ id: 'broken-1', location: null }, { id: 'broken-2', location: { file: {} } }] }),
    });
    assert.equal(adminRes.status, 200);
    const res = await client().listAllQualityIssues(scanId, { pageSize: 3 });
    assert.equal(res.issues.length, res0.issues.length);
    assert.deepEqual(res.unreadable.map((u) => u.id).sort(), ['broken-1', 'broken-2']);
    assert.ok(res.unreadable.every((u) => /location/.test(u.reason)), JSON.stringify(res.unreadable));
  });

  test('error text: error, else message, else detail', async () => {
    // The reference service in real shapes answers 400 with {message}.
    const bad = await client().sendChunk('no-such-transfer', { offset: 0, totalLength: 1, archiveName: 'p.zip', body: Buffer.from('x'), bodyLength: 1, fields: { metadata: { a: 1 } } }).catch((e: unknown) => e);
    assert.ok(isServiceError(bad));
    const stub = await startStub();
    try {
      for (const [body, want] of [
        [{ error: 'from error', message: 'm', detail: 'd' }, 'from error'],
        [{ message: 'from message', detail: 'd' }, 'from message'],
        [{ detail: 'from detail' }, 'from detail'],
      ] as const) {
        stub.handle(() => ({ status: 400, json: body }));
        const e = await new ServiceClient({ baseUrl: stub.baseUrl, token: 'stub-token-1234', maxRetries: 0 }).listRoles().catch((x: unknown) => x);
        assert.ok(isServiceError(e));
        assert.equal(e.serverMessage, want);
      }
    } finally {
      await stub.close();
    }
    // The transfer's affinity cookie goes with its chunk, or another instance answers (404).
    const cookies = new TransferCookies(new URL(svc.baseUrl).origin);
    const transferId = (await client().startTransfer('p.zip', { cookies })).transferId;
    assert.equal(cookies.size, 1, 'real answers pin a transfer with a cookie');
    const e400 = await client().sendChunk(transferId, { offset: 0, totalLength: 1, archiveName: 'p.zip', body: Buffer.from('x'), bodyLength: 1, fields: { targetPolicies: [999999] }, cookies }).catch((x: unknown) => x);
    assert.ok(isServiceError(e400) && e400.kind === 'bad-request', String(e400));
    assert.match(e400.serverMessage ?? '', /polic/i, 'the 400 {message} of the service is shown');
  });

  test('a Warning: 299 header reaches the client as a deprecation text', async () => {
    warnings.length = 0;
    await client().verify();
    assert.deepEqual(warnings, ['API v1 is deprecated and will be retired on 2027-06-30; update your client']);
  });

  test('HTTP 410: a clear "no longer supported" with no retry', async () => {
    svc.mode.gone = true;
    try {
      const before = svc.requests().length;
      const c = new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken, maxRetries: 3, retryBaseDelayMs: 1 });
      const e = await c.listAllQualityIssues(scanId).catch((x: unknown) => x);
      assert.ok(isServiceError(e) && e.kind === 'unsupported', String(e));
      assert.match(e.message, /no longer supported by the service\. Update the extension/);
      assert.equal(svc.requests().length - before, 1, 'asked once, never retried');
    } finally {
      svc.mode.gone = false;
    }
  });
});

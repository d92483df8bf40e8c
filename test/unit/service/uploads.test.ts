// Reference service: the chunked-upload state machine and the scan it creates (records,
// progressive issues, partial scans, quality-issue paging and filters).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyPatch } from 'diff';
import { startReferenceService, type ReferenceService } from '../../service';
import { SAMPLE_FILES, buildArchive, call, sendChunk, startTransfer, uploadOverWire, waitForScan } from './wire';

let svc: ReferenceService;
let archive: Buffer;
before(async () => {
  svc = await startReferenceService({ scanDurationMs: 50 });
  archive = await buildArchive('zip', SAMPLE_FILES);
});
after(() => svc.close());

function startForm(parts: { scanType?: string; files?: { name: string; body?: string }[] }): FormData {
  const f = new FormData();
  if (parts.scanType !== undefined) f.append('scan_type', parts.scanType);
  for (const x of parts.files ?? []) f.append('files', new Blob([x.body ?? '']), x.name);
  return f;
}

describe('reference service: POST /start-scan', () => {
  const cases: { name: string; path: string; form: FormData; status: number }[] = [
    { name: 'scan_type as a form part', path: '/start-scan', form: startForm({ scanType: 'blast', files: [{ name: 'a.zip' }] }), status: 200 },
    { name: 'scan_type as a query parameter only', path: '/start-scan?scan_type=blast', form: startForm({ files: [{ name: 'a.tar' }] }), status: 200 },
    { name: 'a .sarif report', path: '/start-scan', form: startForm({ scanType: 'blast', files: [{ name: 'r.sarif' }] }), status: 200 },
    { name: 'no scan_type', path: '/start-scan', form: startForm({ files: [{ name: 'a.zip' }] }), status: 400 },
    { name: 'another scan_type', path: '/start-scan', form: startForm({ scanType: 'full', files: [{ name: 'a.zip' }] }), status: 400 },
    { name: 'archive name with a bad extension', path: '/start-scan', form: startForm({ scanType: 'blast', files: [{ name: 'a.rar' }] }), status: 400 },
    { name: 'files part with a body', path: '/start-scan', form: startForm({ scanType: 'blast', files: [{ name: 'a.zip', body: 'PK' }] }), status: 400 },
    { name: 'no files part', path: '/start-scan', form: startForm({ scanType: 'blast' }), status: 400 },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.status}`, async () => {
      const r = await call(svc, 'POST', c.path, { body: c.form });
      assert.equal(r.status, c.status, r.text);
      if (c.status === 200) {
        assert.equal(r.json.status, 'ok');
        assert.equal(typeof r.json.transfer_id, 'string');
        const head = await call(svc, 'HEAD', `/start-scan/${r.json.transfer_id}/`);
        assert.equal(head.headers.get('upload-offset'), '0');
      } else {
        assert.equal(typeof r.json.error, 'string');
      }
    });
  }

  it('a JSON body is not multipart: 400', async () => {
    const r = await call(svc, 'POST', '/start-scan?scan_type=blast', { body: '{"files":"a.zip"}' });
    assert.equal(r.status, 400);
  });
});

describe('reference service: HEAD and PATCH /start-scan/{id}/', () => {
  it('HEAD of an unknown transfer is 200 with Upload-Offset 0', async () => {
    const r = await call(svc, 'HEAD', '/start-scan/no-such-transfer/');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('upload-offset'), '0');
  });

  it('PATCH of an unknown transfer is 404', async () => {
    const r = await sendChunk(svc, 'no-such-transfer', { offset: 0, length: 3, bytes: Buffer.from('abc') });
    assert.equal(r.status, 404);
  });

  // Each row starts from a transfer with 10 bytes committed out of `archive.length`.
  const rejects: { name: string; offset?: number; length?: number; bytes?: number; fields?: Record<string, string>; headers?: Record<string, string>; status: number; error: RegExp; serverOffset?: string }[] = [
    { name: 'offset behind the server', offset: 0, status: 409, error: /does not match/, serverOffset: '10' },
    { name: 'offset ahead of the server', offset: 20, status: 409, error: /does not match/, serverOffset: '10' },
    { name: 'chunk past Upload-Length', bytes: 10_000_000, status: 400, error: /past Upload-Length/ },
    { name: 'Upload-Length differing from the first', length: 12345, status: 400, error: /differs/ },
    { name: 'metadata not JSON', fields: { metadata: '{oops' }, status: 400, error: /metadata/ },
    { name: 'metadata a JSON array', fields: { metadata: '[1,2]' }, status: 400, error: /JSON object/ },
    { name: 'metadata over 16,384 bytes', fields: { metadata: JSON.stringify({ k: 'é'.repeat(8190) }) }, status: 400, error: /16384/ },
    { name: "target_policies with another company's policy", fields: { target_policies: '100,300' }, status: 400, error: /300/ },
    { name: 'target_policies not numeric', fields: { target_policies: 'abc' }, status: 400, error: /abc/ },
    { name: 'dirty neither true nor false', fields: { dirty: 'yes' }, status: 400, error: /dirty/ },
    { name: 'Upload-Offset missing', headers: { 'Upload-Offset': '' }, status: 400, error: /Upload-Offset/ },
  ];
  for (const c of rejects) {
    it(`${c.name}: ${c.status} and nothing is written`, async () => {
      const id = await startTransfer(svc);
      await sendChunk(svc, id, { offset: 0, length: archive.length, bytes: archive.subarray(0, 10) });
      const offset = c.offset ?? 10;
      const bytes = c.bytes === undefined ? archive.subarray(offset, offset + 100) : Buffer.alloc(c.bytes);
      const r = await sendChunk(svc, id, { offset, length: c.length ?? archive.length, bytes, fields: c.fields, headers: c.headers });
      assert.equal(r.status, c.status, r.text);
      assert.match(r.json.error, c.error);
      assert.equal(r.headers.get('upload-offset'), c.serverOffset ?? null);
      assert.deepEqual(svc.transferBytes(id), archive.subarray(0, 10));
    });
  }

  it('two chunks racing for the same offset: one is committed whole, the other gets 409', async () => {
    const id = await startTransfer(svc);
    const a = Buffer.alloc(5000, 0x61);
    const b = Buffer.alloc(5000, 0x62);
    const [ra, rb] = await Promise.all([
      sendChunk(svc, id, { offset: 0, length: 20_000, bytes: a }),
      sendChunk(svc, id, { offset: 0, length: 20_000, bytes: b }),
    ]);
    assert.deepEqual([ra.status, rb.status].sort(), [200, 409]);
    const winner = ra.status === 200 ? a : b;
    assert.deepEqual(svc.transferBytes(id), winner);
    assert.equal((ra.status === 409 ? ra : rb).headers.get('upload-offset'), '5000');
  });

  it('metadata of exactly 16,384 bytes is accepted', async () => {
    const meta = JSON.stringify({ k: 'x'.repeat(16384 - 8) });
    assert.equal(Buffer.byteLength(meta), 16384);
    const id = await startTransfer(svc);
    const r = await sendChunk(svc, id, { offset: 0, length: archive.length, bytes: archive.subarray(0, 10), fields: { metadata: meta } });
    assert.equal(r.status, 200, r.text);
  });

  it('intermediate chunks answer ok + Upload-Offset; the last answers scan_id and project_id without it; then "already in progress"', async () => {
    const id = await startTransfer(svc);
    const fields = {
      project_name: 'state-machine', branch: 'feature/x', repo_url: 'https://git.example/r.git', sha: 'abc123',
      metadata: '{"ticket":"SEC-1"}', dirty: 'true', scan_configs: 'base,secrets', target_policies: '101, 102',
    };
    const mid = Math.floor(archive.length / 2);
    const r1 = await sendChunk(svc, id, { offset: 0, length: archive.length, bytes: archive.subarray(0, mid), fields });
    assert.equal(r1.json.status, 'ok');
    assert.equal(typeof r1.json.message, 'string');
    assert.equal(r1.headers.get('upload-offset'), String(mid));
    assert.equal(r1.json.scan_id, undefined);
    const r2 = await sendChunk(svc, id, { offset: mid, length: archive.length, bytes: archive.subarray(mid), fields, headers: { 'CORGEA-SOURCE': 'vscode' } });
    assert.equal(r2.status, 200);
    assert.equal(typeof r2.json.scan_id, 'string');
    assert.equal(typeof r2.json.project_id, 'number');
    assert.equal(r2.headers.get('upload-offset'), null);
    const r3 = await sendChunk(svc, id, { offset: archive.length, length: archive.length, bytes: Buffer.alloc(0), fields });
    assert.equal(r3.json.status, 'ok');
    assert.match(r3.json.message, /already in progress/);
    assert.equal(r3.json.scan_id, undefined);
    assert.equal(r3.headers.get('upload-offset'), null);
    const head = await call(svc, 'HEAD', `/start-scan/${id}/`);
    assert.equal(head.headers.get('upload-offset'), String(archive.length));

    const scan = svc.scans().find((s) => s.id === r2.json.scan_id)!;
    assert.equal(scan.transferId, id);
    assert.equal(scan.clientSource, 'vscode');
    assert.deepEqual(scan.formParts, fields);
    assert.deepEqual(scan.metadata, { ticket: 'SEC-1' });
    assert.deepEqual(scan.targetPolicies, [101, 102]);
    assert.deepEqual(scan.scanConfigs, ['base', 'secrets']);
    assert.equal(scan.dirty, true);
    assert.equal(scan.partial, false);
    await waitForScan(svc, scan.id);
    assert.deepEqual(svc.scans().find((s) => s.id === scan.id)!.files.sort(), Object.keys(SAMPLE_FILES).sort());
    assert.deepEqual(svc.transferBytes(id), archive);

    const again = await uploadOverWire(svc, archive, { project_name: 'state-machine' });
    assert.equal(again.last.json.project_id, r2.json.project_id, 'same project name, same project id');
    const other = await uploadOverWire(svc, archive, { project_name: 'another' });
    assert.notEqual(other.last.json.project_id, r2.json.project_id);
    assert.equal(svc.scans().find((s) => s.id === other.last.json.scan_id)!.clientSource, 'api');
  });
});

describe('reference service: scans and their three lists of findings', () => {
  it('issues appear progressively; every field is there; fixes apply to the uploaded files', async () => {
    const slow = await startReferenceService({ scanDurationMs: 1500 });
    try {
      const { last } = await uploadOverWire(slow, archive, { project_name: 'proj', branch: 'main', sha: 'deadbeef' });
      const scanId = last.json.scan_id as string;
      const early = await call(slow, 'GET', `/scan/${scanId}/issues/quality`);
      assert.equal(early.status, 200);
      await waitForScan(slow, scanId);
      const done = await call(slow, 'GET', `/scan/${scanId}/issues/quality?page_size=50`);
      assert.ok(early.json.total_issues < done.json.total_issues, `${early.json.total_issues} then ${done.json.total_issues}`);
      const security = (await call(slow, 'GET', `/scan/${scanId}/issues?page_size=50`)).json.issues as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
      const issues = [...security, ...done.json.issues as any[]]; // eslint-disable-line @typescript-eslint/no-explicit-any
      const rulesOf = (list: any[]) => new Set(list.map((i) => i.scanner_metadata.rule_id)); // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const r of ['js-eval', 'hardcoded-credentials']) assert.ok(rulesOf(security).has(r), `${r} is a security finding`);
      for (const r of ['js-console-debug', 'py-bare-except', 'py-print-debug']) assert.ok(rulesOf(done.json.issues).has(r), `${r} is a code quality finding`);
      for (const i of security) {
        assert.equal(i.scan_id, scanId);
        assert.equal(typeof i.details.explanation, 'string');
      }
      for (const i of issues) {
        assert.match(i.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        assert.match(i.classification.id, /^CWE-\d+$/);
        assert.ok(i.classification.name && i.classification.description);
        assert.ok(['critical', 'high', 'medium', 'low'].includes(i.urgency));
        assert.ok(!Number.isNaN(Date.parse(i.created_at)));
        assert.equal(i.status, 'open');
        assert.equal(i.sla_status, 'on_track');
        assert.deepEqual(i.location.project, { name: 'proj', branch: 'main', git_sha: 'deadbeef' });
        assert.ok(i.location.file.path in SAMPLE_FILES);
        assert.equal(i.location.file.name, i.location.file.path.split('/').pop());
        assert.ok(['JavaScript', 'Python'].includes(i.location.file.language));
        assert.ok(i.location.line_number >= 1);
        assert.ok(['valid', 'false_positive'].includes(i.auto_triage.false_positive_detection.status));
        assert.equal(typeof i.auto_triage.false_positive_detection.reasoning, 'string');
        assert.equal(typeof i.reachability.is_reachable, 'boolean');
        assert.equal(typeof i.reachability.endpoint_count, 'number');
        assert.ok(i.assigned_to === null || typeof i.assigned_to.email === 'string');
        if (i.auto_fix_suggestion.status === 'fix_available') {
          const patched = applyPatch(SAMPLE_FILES[i.location.file.path], i.auto_fix_suggestion.patch.diff);
          assert.equal(typeof patched, 'string', i.auto_fix_suggestion.patch.diff);
        }
      }
      const fp = issues.filter((i) => i.location.file.path.startsWith('tests/'));
      assert.ok(fp.length > 0 && fp.every((i) => i.auto_triage.false_positive_detection.status === 'false_positive'));
      assert.equal(issues.filter((i) => i.location.file.path === 'docs/readme.md').length, 0);
      // The dependency list: the manifest's packages that advisories name, nothing else.
      const deps = (await call(slow, 'GET', `/scan/${scanId}/issues/sca?page_size=50`)).json;
      assert.equal(deps.status, 'ok');
      const byName = Object.fromEntries((deps.issues as any[]).map((d) => [d.package.name, d])); // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.deepEqual(Object.keys(byName).sort(), ['event-stream', 'lodash']);
      assert.deepEqual(byName.lodash.package, { name: 'lodash', version: '4.17.15', ecosystem: 'npm', fix_version: '4.17.21' });
      assert.equal(byName.lodash.cve, 'CVE-2021-23337');
      assert.equal(byName.lodash.location.path, 'package.json');
      assert.equal(byName['event-stream'].classification, 'malicious');
      assert.equal(byName['event-stream'].cve, null);
    } finally {
      await slow.close();
    }
  });

  it('partial scans look only at files_to_scan', async () => {
    const { last } = await uploadOverWire(svc, archive, { partial_scan: 'true', files_to_scan: './src/util.py' });
    await waitForScan(svc, last.json.scan_id);
    const r = await call(svc, 'GET', `/scan/${last.json.scan_id}/issues/quality?page_size=50`);
    assert.ok(r.json.total_issues > 0);
    assert.ok(r.json.issues.every((i: { location: { file: { path: string } } }) => i.location.file.path === 'src/util.py'));
    const scan = svc.scans().find((s) => s.id === last.json.scan_id)!;
    assert.equal(scan.partial, true);
    assert.deepEqual(scan.filesToScan, ['src/util.py']);
  });

  it('paging, ordering and the classification filter', async () => {
    const { last } = await uploadOverWire(svc, archive);
    const scanId = last.json.scan_id as string;
    await waitForScan(svc, scanId);
    const all = (await call(svc, 'GET', `/scan/${scanId}/issues/quality?page_size=50`)).json;
    const sorted = [...all.issues].sort((a, b) => b.created_at.localeCompare(a.created_at) || (a.id < b.id ? -1 : 1));
    assert.deepEqual(all.issues.map((i: { id: string }) => i.id), sorted.map((i) => i.id));
    const ids: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const p = (await call(svc, 'GET', `/scan/${scanId}/issues/quality?page_size=2&page=${page}`)).json;
      assert.equal(p.total_pages, Math.ceil(all.total_issues / 2));
      ids.push(...p.issues.map((i: { id: string }) => i.id));
    }
    assert.deepEqual(ids, all.issues.slice(0, 8).map((i: { id: string }) => i.id));
    assert.equal((await call(svc, 'GET', `/scan/${scanId}/issues/quality?page_size=999`)).json.issues.length, Math.min(50, all.total_issues));
    assert.equal((await call(svc, 'GET', `/scan/${scanId}/issues/quality`)).json.issues.length, Math.min(20, all.total_issues));
    for (const q of ['cwe-489', 'Debug Code', '489']) {
      const f = (await call(svc, 'GET', `/scan/${scanId}/issues/quality?classification=${encodeURIComponent(q)}`)).json;
      assert.ok(f.total_issues >= 1);
      assert.ok(f.issues.every((i: { classification: { id: string } }) => i.classification.id === 'CWE-489'), q);
    }
    assert.equal((await call(svc, 'GET', `/scan/${scanId}/issues/quality?classification=nomatch`)).json.total_issues, 0);
    // The order is kept between requests; findings added later still take their place in it.
    const late = { id: 'zz-late', created_at: '2999-01-01T00:00:00Z', classification: { id: 'CWE-1' }, location: { file: { path: 'src/util.py' }, line_number: 1 } };
    const added = await fetch(`${svc.adminUrl}/scans/${encodeURIComponent(scanId)}/issues`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ issues: [late] }) });
    assert.equal(added.status, 200, await added.text());
    const after = (await call(svc, 'GET', `/scan/${scanId}/issues/quality?page_size=50`)).json;
    assert.equal(after.total_issues, all.total_issues + 1);
    assert.deepEqual(after.issues.map((i: { id: string }) => i.id).slice(0, 3), ['zz-late', ...all.issues.slice(0, 2).map((i: { id: string }) => i.id)]);
  });

  it('unknown scan and another company\'s scan are 404, in every list', async () => {
    const { last } = await uploadOverWire(svc, archive);
    for (const list of ['issues', 'issues/quality', 'issues/sca']) {
      assert.equal((await call(svc, 'GET', `/scan/nope/${list}`)).status, 404, list);
      const r = await call(svc, 'GET', `/scan/${last.json.scan_id}/${list}`, { token: svc.seed.tokens.otherCompany });
      assert.equal(r.status, 404, list);
    }
    assert.equal((await call(svc, 'HEAD', `/start-scan/${svc.scans().at(-1)!.transferId}/`, { token: svc.seed.tokens.otherCompany })).headers.get('upload-offset'), '0');
  });

  it('a tar archive is scanned too', async () => {
    const tar = await buildArchive('tar', SAMPLE_FILES);
    const { last } = await uploadOverWire(svc, tar, {}, { name: 'project.tar' });
    await waitForScan(svc, last.json.scan_id);
    const scan = svc.scans().find((s) => s.id === last.json.scan_id)!;
    assert.equal(scan.status, 'completed');
    assert.deepEqual(scan.files.sort(), Object.keys(SAMPLE_FILES).sort());
    assert.ok(scan.issueCount > 0);
  });

  it('an unreadable archive completes the upload and marks the scan failed', async () => {
    const junk = Buffer.from('definitely not a zip file');
    const { last } = await uploadOverWire(svc, junk);
    // Answered at once; the scan run then finds the archive unreadable.
    await waitForScan(svc, last.json.scan_id);
    const scan = svc.scans().find((s) => s.id === last.json.scan_id)!;
    assert.equal(scan.status, 'failed');
    assert.match(scan.error ?? '', /archive could not be read/);
    const r = await call(svc, 'GET', `/scan/${scan.id}/issues/quality`);
    assert.equal(r.json.total_issues, 0);
  });

  it('pages the security and dependency lists as the quality list, newest first', async () => {
    const { last } = await uploadOverWire(svc, archive);
    const scanId = last.json.scan_id as string;
    await waitForScan(svc, scanId);
    for (const list of ['issues', 'issues/sca']) {
      const all = (await call(svc, 'GET', `/scan/${scanId}/${list}?page_size=50`)).json;
      assert.ok(all.total_issues >= 2, `${list}: ${all.total_issues}`);
      const ids: string[] = [];
      for (let page = 1; page <= all.total_issues; page++) {
        const p = (await call(svc, 'GET', `/scan/${scanId}/${list}?page_size=1&page=${page}`)).json;
        assert.equal(p.total_pages, all.total_issues, list);
        assert.equal(p.page, page);
        ids.push(...p.issues.map((i: { id: string }) => i.id));
      }
      assert.deepEqual(ids, all.issues.map((i: { id: string }) => i.id), list);
      const past = (await call(svc, 'GET', `/scan/${scanId}/${list}?page_size=1&page=${all.total_issues + 1}`)).json;
      assert.deepEqual(past.issues, [], 'a page past the end is empty');
    }
  });

  it('a service without the dependency list answers 404 on its route, and serves the other two', async () => {
    const lacking = await startReferenceService({ lists: ['security', 'quality'] });
    try {
      const { last } = await uploadOverWire(lacking, archive);
      await waitForScan(lacking, last.json.scan_id);
      assert.equal((await call(lacking, 'GET', `/scan/${last.json.scan_id}/issues/sca`)).status, 404);
      assert.equal((await call(lacking, 'GET', `/scan/${last.json.scan_id}/issues`)).status, 200);
      assert.equal((await call(lacking, 'GET', `/scan/${last.json.scan_id}/issues/quality`)).status, 200);
    } finally {
      await lacking.close();
    }
  });
});

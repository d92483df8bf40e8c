// Polling against the reference service: while a scan runs the service returns the issues
// found so far; pollUntilSettled keeps fetching every page until two polls agree, and the
// result is the scan's full set, each issue normalised for storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../../src/core/api';
import { buildZip } from '../../../src/core/archive/zip';
import { pollUntilSettled, toStoredIssue } from '../../../src/core/issues';
import { selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { startReferenceService } from '../../service/index';

test('polling a running scan settles on the complete set of findings', async (t) => {
  const svc = await startReferenceService({ scanDurationMs: 1000 });
  t.after(() => svc.close());
  const client = new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken });

  // A small project with findings in two languages, uploaded in one chunk.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'poll-svc-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  await fs.mkdir(path.join(dir, 'src'));
  await fs.writeFile(path.join(dir, 'src', 'a.js'), 'console.log("x");\nconst password = "hunter2-secret";\n');
  await fs.writeFile(path.join(dir, 'report.py'), 'try:\n    pass\nexcept:\n    pass\nprint("debug")\n');
  const archive = await buildZip(await selectWorkspaceFiles(dir));
  t.after(() => archive.dispose());
  const body = await fs.readFile(archive.path);
  const { transferId } = await client.startTransfer(archive.name);
  const done = await client.sendChunk(transferId, {
    offset: 0, totalLength: body.length, archiveName: archive.name, body, bodyLength: body.length, fields: { projectName: 'poll' },
  });
  assert.equal(done.kind, 'complete');
  const scanId = done.kind === 'complete' ? done.scanId : '';

  const seen: number[] = [];
  const res = await pollUntilSettled({
    // Every list of the scan, page size 1: every page is fetched.
    fetch: async (signal) => {
      const lists = await Promise.all([
        client.listAllIssues('security', scanId, { pageSize: 1, signal, convert: (i) => i }),
        client.listAllIssues('quality', scanId, { pageSize: 1, signal, convert: (i) => i }),
        client.listAllIssues('dependency', scanId, { pageSize: 1, signal, convert: (i) => i }),
      ]);
      const [security, quality, dependency] = lists;
      return { issues: [...security.issues, ...quality.issues, ...dependency.issues.map((d) => d.id)], totalIssues: lists.reduce((n, r) => n + r.totalIssues, 0), code: [...security.issues, ...quality.issues] };
    },
    // The wait between polls lasts until the service made progress (its next batch, or the
    // end of the scan), as a real interval is longer than the gaps between a busy scan's
    // findings; this keeps the test independent of machine load.
    sleep: async () => {
      const record = () => svc.scans().find((s) => s.id === scanId)!;
      const before = record().issueCount;
      while (record().status === 'running' && record().issueCount === before) await new Promise((r) => setTimeout(r, 10));
    },
    maxPolls: 100,
    onSnapshot: (s) => seen.push(s.totalIssues),
  });
  assert.equal(res.settled, true);
  const record = svc.scans().find((s) => s.id === scanId);
  assert.ok(record);
  assert.equal(res.totalIssues, record.issueCount, `final total matches the scan (${seen.join(' → ')})`);
  assert.equal(res.issues.length, res.totalIssues, 'every page was fetched');
  assert.ok(res.totalIssues >= 3, `the sample has findings (${res.totalIssues}; archive ${record.files.join(',')}; ${record.status} ${record.error})`);
  assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'totals only grow while the scan runs');
  assert.ok(seen.length >= 3 && seen[0] < res.totalIssues, `the first polls saw a partial result (${seen.join(' → ')})`);

  const stored = res.code.map((i) => toStoredIssue(i));
  assert.ok(stored.every((s) => s && s.path && s.line >= 1 && s.classificationId.startsWith('CWE-')));
  assert.deepEqual(new Set(stored.map((s) => s!.path)), new Set(['src/a.js', 'report.py']));
});

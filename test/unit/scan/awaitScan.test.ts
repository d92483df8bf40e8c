// Waiting for a scan the way the service's own clients do (decisions.md, the scan
// lifecycle), against the reference service over real HTTP: its state polled with backoff
// until it is done, then its findings read once; a failure with its reason; warnings from
// scan_errors; retries told; and the settling rule where the service has no status route.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServiceClient } from '../../../src/core/api';
import { CancelledAfterUploadError } from '../../../src/core/async';
import { MAX_WAIT_MS, PROMPT_POLLS, ScanFailedError, pollDelay, ScanStoppedError, WAIT_RETRIES, awaitScan, scanPhase, waitMessage, type AwaitContext, type WaitState } from '../../../src/core/scan/awaitScan';
import type { ScanRef } from '../../../src/core/scan/events';
import { monotonicProgress, type ScanProgress } from '../../../src/core/scan/stages';
import { startReferenceService, type ReferenceService } from '../../service';
import { SAMPLE_FILES, buildArchive, uploadedScanId } from '../service/wire';

describe('waiting for a scan', () => {
  let svc: ReferenceService;
  let archive: Buffer;

  before(async () => {
    svc = await startReferenceService({ scanDurationMs: 20 });
    archive = await buildArchive('zip', SAMPLE_FILES);
  });
  after(() => svc.close());

  const uploaded = async (): Promise<ScanRef> => ({ scanId: await uploadedScanId(svc, archive, 'await'), scannedAt: new Date().toISOString() });

  function context(over: Partial<AwaitContext> = {}) {
    const states: WaitState[] = [];
    const logged: string[] = [];
    const ctx: AwaitContext = {
      client: new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken, retryBaseDelayMs: 1 }),
      signal: new AbortController().signal,
      log: (l) => logged.push(l),
      wait: { intervalMs: 50, maxIntervalMs: 200, maxPolls: 60 },
      onWait: (s) => states.push(s),
      ...over,
    };
    return { ctx, states, logged };
  }

  async function inRealShapes<T>(fn: () => Promise<T>): Promise<T> {
    svc.mode.shapes = 'real';
    try {
      return await fn();
    } finally {
      svc.mode.shapes = 'seed';
      svc.mode.processingMs = undefined;
      svc.faults.clear();
    }
  }

  test('a scan the service processes for a while: its state is polled until complete, then every finding is read once', () => inRealShapes(async () => {
    svc.mode.processingMs = 1500;
    const scan = await uploaded();
    const before = svc.requests().length;
    const { ctx, states } = context();
    const r = await awaitScan(ctx, scan);
    assert.equal(r.kind, 'complete');
    assert.ok(r.kind === 'complete' && r.found.issues.length >= 3, JSON.stringify(r));
    const service = states.filter((s) => s.phase === 'service');
    assert.ok(service.some((s) => s.phase === 'service' && s.status === 'processing'), JSON.stringify(states));
    assert.match(waitMessage(service.at(-1)!), /^the service is scanning · \d+ s$/);
    const calls = svc.requests().slice(before);
    const issueReads = calls.filter((c) => c.route === 'qualityIssues');
    assert.equal(issueReads.length, 1, 'the findings are read once, when the scan is done (one page here)');
    assert.ok(calls.findIndex((c) => c.route === 'qualityIssues') > calls.map((c) => c.route).lastIndexOf('scanStatus'), 'only after the last status');
    // Prompt at first (a quick scan ends when the service ends it), then the waits grow: 1.5 s
    // at 50 ms a poll is ten prompt polls and a few growing ones, not thirty.
    const polls = calls.filter((c) => c.route === 'scanStatus').length;
    assert.ok(polls >= PROMPT_POLLS && polls <= PROMPT_POLLS + 8, `${polls} status polls`);
  }));

  test('status polls: prompt in the first seconds, then growing to the longest wait', () => {
    const wait = { intervalMs: 1000, maxIntervalMs: 10_000 };
    const delays = Array.from({ length: 16 }, (_, i) => pollDelay(i + 1, wait));
    assert.deepEqual(delays, [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    // A 3 s scan is seen done at the first poll after it ends: within a second.
    let t = 0;
    for (let poll = 1; t < 3000; poll++) t += pollDelay(poll, wait);
    assert.ok(t - 3000 < 1000, `seen ${t - 3000} ms late`);
  });

  test('a scan the service keeps "processing" is waited for an hour at most, then left for Refresh Results', () => inRealShapes(async () => {
    svc.mode.processingMs = 10 * 60 * 60 * 1000;
    const scan = await uploaded();
    let clock = Date.parse(scan.scannedAt);
    const { ctx, states } = context({ now: () => clock, sleep: async (ms) => { clock += ms; } });
    ctx.wait = { ...ctx.wait, maxIntervalMs: 10 * 60 * 1000 };
    const err = await awaitScan(ctx, scan).catch((e: unknown) => e);
    assert.ok(err instanceof ScanStoppedError && err.why === 'still-running', String(err));
    assert.match(err.message, /still scanning 1 h\b.*after the upload, so the editor stopped waiting/);
    assert.ok(clock - Date.parse(scan.scannedAt) >= MAX_WAIT_MS && clock - Date.parse(scan.scannedAt) < MAX_WAIT_MS + 11 * 60 * 1000, 'about an hour');
    assert.ok(states.every((s) => s.phase !== 'reading'), 'no findings were read');
  }));

  test('a failed scan ends with its reason; nothing is read', () => inRealShapes(async () => {
    svc.planOutcome({ failedReason: 'The archive holds no supported source files' });
    const scan = await uploaded();
    const err = await awaitScan(context().ctx, scan).catch((e: unknown) => e);
    assert.ok(err instanceof ScanFailedError, String(err));
    assert.equal(err.reason, 'The archive holds no supported source files');
  }));

  test('scan_errors above info are warnings (results may be incomplete), logged', () => inRealShapes(async () => {
    svc.planOutcome({ scanErrors: [{ scan_type: 'blast', level: 'error', location: 'src/util.py', message: 'parser\ntimed out' }] });
    const scan = await uploaded();
    const { ctx, logged } = context();
    const r = await awaitScan(ctx, scan);
    assert.ok(r.kind === 'complete');
    assert.deepEqual(r.warnings, ['src/util.py: parser timed out']);
    assert.ok(logged.some((l) => /results may be incomplete: src\/util.py: parser timed out/.test(l)), logged.join('\n'));
  }));

  test('a cancel stops the wait, not the scan', () => inRealShapes(async () => {
    svc.mode.processingMs = 5000;
    const scan = await uploaded();
    const abort = new AbortController();
    const { ctx } = context({ signal: abort.signal, onWait: (s) => { if (s.phase === 'service') abort.abort(); } });
    const err = await awaitScan(ctx, scan).catch((e: unknown) => e);
    assert.ok(err instanceof CancelledAfterUploadError && err.scanId === scan.scanId, String(err));
  }));

  test('the state asked once (Refresh Results): a running scan is reported running, not waited for', () => inRealShapes(async () => {
    svc.mode.processingMs = 5000;
    const scan = await uploaded();
    const r = await awaitScan(context().ctx, scan, { wait: false });
    assert.deepEqual(r, { kind: 'running', status: 'queued' });
  }));

  test('a status route that keeps failing: each retry is told, counted once, then the state is unknown (the scan stays for later)', () => inRealShapes(async () => {
    const scan = await uploaded();
    svc.faults.failNext('scanStatus', 100, { status: 503 });
    const { ctx, states } = context({ sleep: async () => undefined });
    const err = await awaitScan(ctx, scan).catch((e: unknown) => e);
    assert.ok(err instanceof ScanStoppedError && err.why === 'unknown', String(err));
    // One budget, one count: never a second loop around the first, whose count would jump.
    const retries = states.filter((s) => s.phase === 'retry');
    assert.deepEqual(retries.map((s) => s.phase === 'retry' && `${s.attempt} of ${s.of}`), [1, 2, 3, 4, 5].map((n) => `${n} of ${WAIT_RETRIES}`));
    assert.match(waitMessage(retries[2]!), new RegExp(`^the service answered 503, retrying in \\d+ s \\(attempt 3 of ${WAIT_RETRIES}\\)$`));
  }));

  test('the wait\'s own retry setting is the first backoff of the client\'s retries too, for the state and the lists', () => inRealShapes(async () => {
    const scan = await uploaded();
    svc.faults.failNext('scanStatus', 2, { status: 503 });
    svc.faults.failNext('dependencyIssues', 2, { status: 503 });
    try {
      // A client whose own retries would wait 10 s, 20 s: the scan's setting asks for 5 ms.
      const { ctx, states } = context({ client: new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken, retryBaseDelayMs: 10_000 }), retryBaseMs: 5 });
      const r = await awaitScan(ctx, scan);
      assert.equal(r.kind, 'complete');
      if (r.kind !== 'complete') return;
      assert.equal(r.found.lists.dependency.state, 'read', 'the list was read once its retries got through');
      const retries = states.filter((s) => s.phase === 'retry');
      assert.deepEqual([...new Set(retries.map((s) => s.phase === 'retry' && s.what))].sort(), ['findings', 'status']);
      for (const s of retries) assert.ok(s.phase === 'retry' && s.delayMs < 1000, JSON.stringify(s));
    } finally {
      svc.faults.clear();
    }
  }));

  test('findings that cannot be read after retries: unreadable, the scan stays for later', () => inRealShapes(async () => {
    const scan = await uploaded();
    await new Promise((r) => setTimeout(r, 300));
    for (const route of ['securityIssues', 'qualityIssues', 'dependencyIssues']) svc.faults.failNext(route, 100, { status: 503 });
    try {
      const { ctx } = context({ sleep: async () => undefined });
      const err = await awaitScan(ctx, scan).catch((e: unknown) => e);
      assert.ok(err instanceof ScanStoppedError && err.why === 'unreadable', String(err));
    } finally {
      svc.faults.clear();
    }
  }));

  test('one list that cannot be read: the others are read, and that list is said to have failed, never empty', () => inRealShapes(async () => {
    const scan = await uploaded();
    await new Promise((r) => setTimeout(r, 300));
    svc.faults.failNext('dependencyIssues', 100, { status: 503 });
    try {
      const { ctx, logged: logs } = context({ sleep: async () => undefined });
      const r = await awaitScan(ctx, scan);
      assert.equal(r.kind, 'complete');
      if (r.kind !== 'complete') return;
      assert.equal(r.found.lists.dependency.state, 'failed');
      assert.match((r.found.lists.dependency as { reason: string }).reason, /503/);
      assert.equal(r.found.lists.security.state, 'read');
      assert.equal(r.found.lists.quality.state, 'read');
      assert.ok(r.found.issues.some((i) => i.kind === 'security') && r.found.issues.some((i) => i.kind === 'quality'));
      assert.ok(!r.found.issues.some((i) => i.kind === 'dependency'));
      assert.ok(logs.some((l) => /dependency findings could not be read/.test(l)), logs.join('\n'));
    } finally {
      svc.faults.clear();
    }
  }));

  test('no status route: a list that failed after its retries is asked once in the polls that follow; the others are still read', async () => {
    const scan = await uploaded();
    await new Promise((r) => setTimeout(r, 300));
    svc.faults.failNext('dependencyIssues', 100, { status: 503 });
    try {
      const before = svc.requests().length;
      const { ctx, states } = context({ sleep: async () => undefined });
      const r = await awaitScan(ctx, scan);
      assert.ok(r.kind === 'complete' && r.found.lists.dependency.state === 'failed' && r.found.lists.quality.state === 'read', JSON.stringify(r));
      const calls = svc.requests().slice(before);
      const polls = calls.filter((c) => c.route === 'qualityIssues').length;
      assert.ok(polls >= 2, `${polls} polls: the total is watched until two agree`);
      assert.equal(calls.filter((c) => c.route === 'dependencyIssues').length, WAIT_RETRIES + 1 + (polls - 1), 'the retries once, then one request a poll');
      assert.ok(states.filter((s) => s.phase === 'retry').length >= WAIT_RETRIES, 'the first poll told its retries');
    } finally {
      svc.faults.clear();
    }
  });

  test('a list the service does not have (404) is absent, not failed and not empty', () => inRealShapes(async () => {
    svc.mode.lists = ['security', 'quality'];
    try {
      const scan = await uploaded();
      const { ctx } = context();
      const r = await awaitScan(ctx, scan);
      assert.ok(r.kind === 'complete');
      if (r.kind !== 'complete') return;
      assert.deepEqual(r.found.lists.dependency, { state: 'absent' });
      assert.equal(r.found.lists.quality.state, 'read');
    } finally {
      svc.mode.lists = undefined;
    }
  }));

  test('no status route (seed shapes, 404): the findings\' total is watched until two polls agree', async () => {
    const scan = await uploaded();
    const { ctx, states } = context();
    const r = await awaitScan(ctx, scan);
    assert.ok(r.kind === 'complete' && r.found.issues.length >= 3);
    assert.ok(states.some((s) => s.phase === 'settling'));
    assert.ok(!states.some((s) => s.phase === 'service'));
  });

  test('status words: done, failed, anything else runs', () => {
    assert.deepEqual(['complete', 'Completed', 'failed', 'ERROR', 'incomplete', 'cancelled', 'processing', 'queued', 'whatever'].map(scanPhase),
      ['done', 'done', 'failed', 'failed', 'failed', 'failed', 'running', 'running', 'running']);
  });
});

test('progress never goes back: a late report of an earlier stage is dropped, a smaller fraction keeps the bar', () => {
  const seen: ScanProgress[] = [];
  const report = monotonicProgress((p) => seen.push(p));
  report({ stage: 'upload', fraction: 0.5, message: 'uploading 50%' });
  report({ stage: 'upload', fraction: 0.3, message: 'uploading 30% (the service rewound)' });
  report({ stage: 'upload', message: 'connection lost, retrying in 2 s (attempt 1 of 5)' });
  report({ stage: 'results', fraction: 0.1, message: 'the service is scanning · 3 s' });
  report({ stage: 'upload', fraction: 1, message: 'uploading 100%' });
  report({ stage: 'results', fraction: Number.NaN, message: 'reading' });
  assert.deepEqual(seen.map((p) => [p.stage, p.fraction]), [['upload', 0.5], ['upload', 0.5], ['upload', 0.5], ['results', 0.1], ['results', 0.1]]);
});

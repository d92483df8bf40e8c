// What is said when a scan ends (core/scan/endWords.ts), without VS Code: the counts of
// each folder (a partial scan's said as of its files), notes, files left out by reason, and
// each way a scan fails mapped to one sentence and one summary, in the order they are chosen.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServiceError } from '../../../src/core/api';
import { CancelledAfterUploadError, CancelledError } from '../../../src/core/async';
import { ScanFailedError, ScanStoppedError } from '../../../src/core/scan/awaitScan';
import { backgroundEnd, continuingWords, failureOf, failureSentence, failureSummaryError, finishedWords, savedScanLine, scanEventLine, shownSentence, type Failure } from '../../../src/core/scan/endWords';
import { UploadInterruptedError } from '../../../src/core/upload/engine';
import { skipReasonLabel } from '../../../src/core/workspace/selectFiles';

const live = () => new AbortController().signal;
const aborted = () => { const c = new AbortController(); c.abort(); return c.signal; };

test('a finished scan: each folder\'s count, a partial scan\'s of its files, notes and files left out by reason', () => {
  const w = finishedWords([
    { folder: 'order-service', scanId: 's1', files: 120, issues: 9, fresh: 1 },
    { folder: 'ops-tools', scanId: 's2', files: 1, issues: 0, partialOf: 'changed' },
    { folder: 'docs', scanId: 's3', files: 2500, issues: 1, partialOf: 'open', note: 'the service says: slow today.', gitIgnoredNotListed: true,
      leftOut: [{ path: 'big.bin', reason: 'too-large' }, { path: '.env', reason: 'credentials' }, { path: 'b.bin', reason: 'too-large' }] },
  ]);
  assert.equal(w.text, [
    'Scan finished: 9 issues, 1 new, in order-service, no issues in the 1 changed file of ops-tools, 1 issue in the 2,500 open files of docs.',
    'docs: the service says: slow today.',
    `3 files were left out, besides what git ignores: ${skipReasonLabel('too-large')}: 2, ${skipReasonLabel('credentials')}: 1.`,
  ].join(' '));
  assert.equal(w.anyIssues, true);
  assert.deepEqual(w.leftOut.map((f) => [f.folder, f.path]), [['docs', 'big.bin'], ['docs', '.env'], ['docs', 'b.bin']]);
  assert.deepEqual(finishedWords([]), { text: '', anyIssues: false, leftOut: [] });
  assert.equal(finishedWords([{ folder: 'a', files: 0, note: 'nothing to scan', leftOut: [{ path: 'x', reason: 'binary' }] }]).text, `a: nothing to scan. 1 file was left out: ${skipReasonLabel('binary')}: 1.`);
});

test('the log\'s lines: a scan on save and each scan event', () => {
  assert.equal(savedScanLine({ folder: 'app', scanId: 's', files: 1, issues: 2, fresh: 1 }), 'app: scan on save 2 issues, 1 new in 1 saved file.');
  assert.equal(savedScanLine({ folder: 'app', files: 0, note: 'nothing to scan' }), 'app: scan on save nothing to scan.');
  const scan = { scanId: 'x1', scannedAt: '2026-11-28T10:00:00Z' };
  assert.equal(scanEventLine({ kind: 'failed', scan, reason: undefined }), 'scan x1 failed on the service: no reason given. The findings shown are unchanged.');
  assert.equal(scanEventLine({ kind: 'uploaded', scan }), 'scan x1 uploaded; waiting for the service to finish it.');
});

test('which findings are shown, and the scans that go on on the service', () => {
  assert.equal(shownSentence(undefined, new Date()), 'No findings are shown until a scan has completed.');
  assert.match(shownSentence('2026-11-28T10:00:00Z', new Date('2026-11-28T12:00:00Z')), /^The findings shown are still those of the scan of .+\.$/);
  assert.deepEqual(continuingWords(['a'], 'S.'), { text: 'Stopped waiting for the scan of a: the service goes on scanning it. S. Refresh Results shows its findings once it is done.', ignoreTitle: 'Ignore This Scan' });
  assert.deepEqual(continuingWords(['a', 'b'], 'S.'), { text: 'Stopped waiting for the scans of a and b: the service goes on scanning them. S. Refresh Results shows their findings once they are done.', ignoreTitle: 'Ignore These Scans' });
});

test('each way a scan fails: its kind in the order they are told apart, its sentence and its summary', () => {
  const cases: [unknown, AbortSignal, Failure['kind'], string | undefined, { kind: string; message?: string } | undefined][] = [
    // A scan the service has goes on there, even when the run was cancelled.
    [new CancelledAfterUploadError('s9'), aborted(), 'continues', undefined, undefined],
    [new ScanFailedError('s1', 'failed', 'out of memory'), live(), 'scan-failed', 'The scan of app failed on the service: out of memory. SHOWN', { kind: 'scan-failed' }],
    [new ScanFailedError('s1', 'failed', undefined), live(), 'scan-failed', 'The scan of app failed on the service (it gave no reason). SHOWN', { kind: 'scan-failed' }],
    [new ScanStoppedError('s2', 'unknown', 'The service could not be reached.'), live(), 'stopped', 'app: The service could not be reached. SHOWN', { kind: 'unknown', message: 'The service could not be reached.' }],
    [new UploadInterruptedError('cut', 't', 1, 2, true, { lastChunkInFlight: true }), aborted(), 'last-chunk', 'Cancelled while the last part of the upload of app was being sent: the service may have received it all and scan it. Scan again later to see current results.', undefined],
    [new CancelledError('stop'), live(), 'cancelled', 'Scan cancelled. SHOWN', undefined],
    // Whatever the error, a cancelled run was cancelled.
    [new Error('socket hang up'), aborted(), 'cancelled', 'Scan cancelled. SHOWN', undefined],
    [new UploadInterruptedError('The upload stopped at 40 %.', 't', 1, 2, false), live(), 'interrupted', 'The upload stopped at 40 %.', { kind: 'interrupted', message: 'The upload stopped at 40 %.' }],
    [new ServiceError({ kind: 'rate-limited', operation: 'x', message: 'Too many requests', retryAfterMs: 5000 }), live(), 'error', undefined, { kind: 'rate-limited', message: 'Too many requests' }],
    [new Error('boom'), live(), 'error', undefined, { kind: 'error', message: 'boom' }],
  ];
  for (const [err, signal, kind, sentence, summary] of cases) {
    const f = failureOf(err, signal);
    assert.equal(f.kind, kind, String(err));
    if (sentence !== undefined) assert.equal(failureSentence(f as Exclude<Failure, { kind: 'continues' | 'error' }>, 'app', 'SHOWN'), sentence);
    const e = failureSummaryError(f);
    if (summary) assert.deepEqual({ kind: e?.kind, ...(summary.message ? { message: e?.message } : {}) }, summary, String(err));
    else assert.equal(e, undefined, String(err));
  }
  assert.equal(failureSentence({ kind: 'scan-failed', message: '' }, undefined, 'S.'), 'The scan of the workspace failed on the service (it gave no reason). S.');
});

test('a background scan that did not finish: cancelled, or the first failure with what a rate limit asks', () => {
  assert.deepEqual(backgroundEnd([new CancelledAfterUploadError('s')], live()), { cancelled: true });
  assert.deepEqual(backgroundEnd([new Error('x')], aborted()), { cancelled: true });
  assert.deepEqual(
    backgroundEnd([new ServiceError({ kind: 'rate-limited', operation: 'x', message: 'slow down', retryAfterMs: 3000 }), new Error('later')], live()),
    { cancelled: false, error: { kind: 'rate-limited', message: 'slow down', retryAfterMs: 3000 } },
  );
  assert.deepEqual(backgroundEnd([new ScanFailedError('s', 'failed', 'r')], live()).error?.kind, 'scan-failed');
});

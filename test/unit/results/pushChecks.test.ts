// The checks before a push kept across reloads (pushChecks.ts): what was kept reads back the
// same; a record that does not read is left out, and a gate's file outside the folder never
// comes back to be opened.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readPushChecks, type StoredPushCheck } from '../../../src/core/results/pushChecks';
import { issue } from './helpers';

const blocking = { ...issue('security:7', 'src/a.js', 3), kind: 'security' as const, blocksCi: ['criticals'] };
const kept: StoredPushCheck = {
  what: 'branch', identity: 'abc', at: '2026-11-29T01:00:00.000Z', issues: [blocking],
  verdict: {
    kind: 'blocked', what: 'branch', files: 12, count: 1, blocking: [{ issue: blocking, policies: [], rules: ['criticals'] }],
    gate: { gate: { kind: 'block-on', slugs: ['criticals'] }, source: { from: 'ci', file: '.github/workflows/scan.yml', line: 8 } },
    commit: { sha: 'a'.repeat(40), reused: false },
  },
};

test('a kept check reads back as it was kept', () => {
  const back = readPushChecks(JSON.parse(JSON.stringify({ 'file:///w': kept, 'file:///v': { ...kept, what: 'staged', verdict: { kind: 'unknown', what: 'staged', reason: 'signed-out' }, issues: [] } })));
  assert.deepEqual(back.get('file:///w'), kept);
  assert.equal(back.get('file:///v')?.verdict.kind, 'unknown');
});

test('what does not read is left out: a gate file outside the folder, an unknown reason, a finding without a path', () => {
  const outside = { ...kept, verdict: { ...kept.verdict, gate: { gate: { kind: 'fail' }, source: { from: 'ci', file: '../../.ssh/config', line: 1 } } } };
  const oddReason = { ...kept, verdict: { kind: 'unknown', what: 'branch', reason: 'because' } };
  const badIssue = { ...kept, issues: [{ ...blocking, path: '' }, blocking] };
  const back = readPushChecks({ a: outside, b: oddReason, c: badIssue, d: 'nonsense', e: { ...kept, what: 'staged' } });
  assert.deepEqual([...back.keys()], ['c']);
  assert.deepEqual(back.get('c')!.issues, [blocking]);
  assert.equal(readPushChecks(['x']).size, 0);
  assert.equal(readPushChecks(undefined).size, 0);
});

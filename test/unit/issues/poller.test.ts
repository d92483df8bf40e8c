import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntilSettled } from '../../../src/core/issues';

/** A fake fetcher replaying totals; records the waits it was asked for. */
function fake(totals: number[]) {
  let i = 0;
  const waits: number[] = [];
  return {
    waits,
    get calls() { return i; },
    fetch: async () => {
      const total = totals[Math.min(i, totals.length - 1)];
      i++;
      return { issues: Array.from({ length: total }, (_, k) => k), totalIssues: total };
    },
    sleep: async (ms: number) => { waits.push(ms); },
  };
}

test('polls until two polls in a row report the same total', async () => {
  const f = fake([0, 2, 5, 5, 9]);
  const seen: number[] = [];
  const res = await pollUntilSettled({ fetch: f.fetch, sleep: f.sleep, intervalMs: 50, onSnapshot: (s) => seen.push(s.totalIssues) });
  assert.equal(res.settled, true);
  assert.equal(res.totalIssues, 5);
  assert.equal(res.issues.length, 5);
  assert.equal(res.polls, 4);
  assert.deepEqual(seen, [0, 2, 5, 5]);
  assert.deepEqual(f.waits, [50, 50, 50], 'waits between polls, not before the first');
});

test('an empty result settles only after emptyPolls empty polls in a row (a scan that just started reports nothing)', async () => {
  const late = fake([0, 0, 0, 3, 3]);
  const res = await pollUntilSettled({ fetch: late.fetch, sleep: late.sleep, emptyPolls: 4 });
  assert.deepEqual([res.settled, res.totalIssues, res.polls], [true, 3, 5], 'findings that arrive after two empty polls are not missed');

  const clean = fake([0]);
  const empty = await pollUntilSettled({ fetch: clean.fetch, sleep: clean.sleep, emptyPolls: 4 });
  assert.deepEqual([empty.settled, empty.totalIssues, empty.polls], [true, 0, 4]);

  const byDefault = await pollUntilSettled({ fetch: fake([0]).fetch, sleep: async () => {} });
  assert.deepEqual([byDefault.settled, byDefault.polls], [true, 5]);
});

test('gives up after maxPolls with the last findings, not settled', async () => {
  const f = fake([1, 2, 3, 4, 5, 6]);
  const res = await pollUntilSettled({ fetch: f.fetch, sleep: f.sleep, maxPolls: 4 });
  assert.deepEqual([res.settled, res.totalIssues, res.polls, f.calls], [false, 4, 4, 4]);
});

test('stops when cancelled', async () => {
  const ctrl = new AbortController();
  const f = fake([1, 2, 3]);
  await assert.rejects(
    pollUntilSettled({ fetch: async () => { const r = await f.fetch(); ctrl.abort(); return r; }, signal: ctrl.signal }),
    { name: 'AbortError' },
  );
  assert.equal(f.calls, 1);
});

test('a fetch error propagates', async () => {
  await assert.rejects(pollUntilSettled({ fetch: async () => { throw new Error('boom'); } }), /boom/);
});

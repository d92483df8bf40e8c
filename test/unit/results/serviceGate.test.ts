// Asking CI's gate of the service (serviceGate.ts) with a service that answers page by page,
// stays not ready, or says block with no list: every page read, the wait bounded, an odd
// answer never a pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BlockingAnswer } from '../../../src/core/api/blockingRules';
import { askServiceGate, type GateAsker } from '../../../src/core/results/serviceGate';

const answer = (o: Partial<Extract<BlockingAnswer, { kind: 'answer' }>>): BlockingAnswer => ({ kind: 'answer', ready: true, status: 'complete', block: false, issues: [], totalPages: 1, ...o });
const asker = (reply: (page: number, n: number) => BlockingAnswer): GateAsker & { asked: { page?: number; blockOn?: readonly string[] }[] } => {
  const asked: { page?: number; blockOn?: readonly string[] }[] = [];
  return { asked, checkBlockingRules: async (_id, q) => { asked.push({ page: q.page, blockOn: q.blockOn }); return reply(q.page ?? 1, asked.length); } };
};
const issue = (id: string) => ({ id, rules: ['Critical findings'], slugs: ['criticals'] });

test('every page is read; the count is the service\'s over all pages', async () => {
  const a = asker((page) => answer({ block: true, totalPages: 3, blocked: 5, issues: page === 1 ? [issue('1'), issue('2')] : page === 2 ? [issue('3'), issue('4')] : [issue('5')] }));
  const r = await askServiceGate(a, 's', { kind: 'block-on', slugs: ['criticals'] });
  assert.deepEqual(r.kind === 'judged' && [r.block, r.blocked, r.issues.map((i) => i.id)], [true, 5, ['1', '2', '3', '4', '5']]);
  assert.deepEqual(a.asked.map((q) => [q.page, q.blockOn?.join()]), [[1, 'criticals'], [2, 'criticals'], [3, 'criticals']]);
});

test('--fail asks without slugs; a page not ready yet starts the answer over', async () => {
  const a = asker((page, n) => (page === 2 && n === 2 ? answer({ ready: false, status: 'processing' }) : answer({ block: true, totalPages: 2, issues: [issue(`p${page}`)] })));
  const r = await askServiceGate(a, 's', { kind: 'fail' }, { pauseMs: () => 1 });
  assert.ok(r.kind === 'judged' && r.blocked === 2, JSON.stringify(r));
  assert.ok(a.asked.every((q) => q.blockOn === undefined));
  assert.deepEqual(a.asked.map((q) => q.page), [1, 2, 1, 2]);
});

test('a service that never gets ready is waited for as long as CI waits, then not known', async () => {
  let clock = 0;
  const a = asker(() => answer({ ready: false, status: 'pending' }));
  const r = await askServiceGate(a, 's', { kind: 'block-on', slugs: ['x'] }, { waitMs: 60_000, pauseMs: () => 10_000, now: () => clock, sleep: async (ms) => { clock += ms; } });
  // Asked every 10 s up to the minute; the next pause would pass it.
  assert.deepEqual(r, { kind: 'not-ready', status: 'pending', waitedMs: 60_000 });
  assert.equal(a.asked.length, 7);
});

test('blocking findings listed while block says no still block; Cancel ends the wait', async () => {
  const odd = await askServiceGate(asker(() => answer({ block: false, issues: [issue('9')] })), 's', { kind: 'fail' });
  assert.ok(odd.kind === 'judged' && odd.block && odd.blocked === 1);
  const stop = new AbortController();
  const waiting = askServiceGate(asker(() => answer({ ready: false, status: 'pending' })), 's', { kind: 'fail' }, { signal: stop.signal, pauseMs: () => 60_000, onWaiting: () => stop.abort() });
  await assert.rejects(waiting);
});

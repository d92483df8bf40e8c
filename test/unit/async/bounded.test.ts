// Work over several items, a few at a time: never more at once than asked, every outcome in
// the items' order, one failure not stopping the others.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settleBounded } from '../../../src/core/async';

test('at most `limit` at once; every outcome kept in order; a failure stops nothing else', async () => {
  let running = 0;
  let most = 0;
  const out = await settleBounded([30, 10, 20, 5, 15], 2, async (ms, i) => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, ms));
    running--;
    if (i === 1) throw new Error('second failed');
    return ms * 2;
  });
  assert.equal(most, 2);
  assert.deepEqual(out.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), [60, 'second failed', 40, 10, 30]);
  assert.deepEqual(await settleBounded([], 2, async () => 1), []);
});

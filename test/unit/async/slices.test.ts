import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { forEachInSlices, mapInSlices } from '../../../src/core/async';

/** Work that takes `ms` of the clock, so slices have something to split. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* spin */ }
}

describe('work in slices', () => {
  test('mapInSlices maps every item in order and lets other callbacks run between slices', async () => {
    let ranAt = -1;
    let done = 0;
    setImmediate(() => { ranAt = done; });
    const out = await mapInSlices(Array.from({ length: 200 }, (_, i) => i), (i) => { busy(0.2); done++; return i * 2; }, 5);
    assert.deepEqual(out, Array.from({ length: 200 }, (_, i) => i * 2));
    assert.ok(ranAt > 0 && ranAt < 200, `the other callback ran in the middle (after ${ranAt} items)`);
  });

  test('forEachInSlices visits every item in order and lets other callbacks run between slices', async () => {
    let ranAt = -1;
    const seen: number[] = [];
    setImmediate(() => { ranAt = seen.length; });
    await forEachInSlices(Array.from({ length: 200 }, (_, i) => i), (i) => { busy(0.2); seen.push(i); }, 5);
    assert.deepEqual(seen, Array.from({ length: 200 }, (_, i) => i));
    assert.ok(ranAt > 0 && ranAt < 200, `the other callback ran in the middle (after ${ranAt} items)`);
  });

  test('an empty list is done at once', async () => {
    await forEachInSlices([], () => assert.fail('no items'));
    assert.deepEqual(await mapInSlices([], () => assert.fail('no items')), []);
  });
});

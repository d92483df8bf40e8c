import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DeflatePool, DeflateWorkerOutOfMemory } from '../../../src/core/archive/deflatePool';

describe('DeflatePool', () => {
  test('a worker that runs out of memory rejects every batch, and those not awaited yet are no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    // 4 MB is less than a worker needs: it runs out at its first batch (see packaging.test.ts).
    const pool = new DeflatePool(6, 1, 64 * 1024, 4);
    try {
      const source = Buffer.from('export const answer = 42;\n'.repeat(2000));
      const batches = [0, 1, 2].map(() => {
        const buffers = pool.inputBuffer(0);
        Buffer.from(buffers.input).set(source.subarray(0, 64 * 1024));
        return pool.run(buffers, Float64Array.of(64 * 1024), Uint8Array.of(0));
      });
      // Only the last batch is awaited, as packaging does while it writes an earlier entry.
      await assert.rejects(batches[2], DeflateWorkerOutOfMemory);
      // Unhandled rejections are reported once the microtasks of a turn have run.
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(unhandled, []);
      for (const b of batches.slice(0, 2)) await assert.rejects(b, DeflateWorkerOutOfMemory);
      // A batch posted after the failure is rejected the same way.
      await assert.rejects(pool.run(pool.inputBuffer(0), Float64Array.of(0), Uint8Array.of(0)), DeflateWorkerOutOfMemory);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await pool.close();
    }
  });

  test('a worker that has finished its batches is seen idle while this thread is still busy, before their answers are read', async () => {
    const pool = new DeflatePool(6, 1);
    try {
      // Waits until the worker is up, so the busy loop below waits for deflating, not for its start.
      await pool.run(pool.inputBuffer(0), Float64Array.of(0), Uint8Array.of(0));
      const source = Buffer.from('export const answer = 42;\n'.repeat(5000));
      const batches = [0, 1, 2].map(() => {
        const buffers = pool.inputBuffer(0);
        Buffer.from(buffers.input).set(source.subarray(0, 100_000));
        return pool.run(buffers, Float64Array.of(100_000), Uint8Array.of(0));
      });
      assert.equal(pool.backlog, 2, 'three batches posted: one in work, two waiting');
      // Busy without yielding, as packaging is between yields: no answer can be read meanwhile.
      const until = Date.now() + 10_000;
      while (pool.backlog > -1 && Date.now() < until) { /* reading and deflating other files */ }
      assert.equal(pool.backlog, -1, 'the worker has nothing left to do, and this thread can tell');
      const done = await Promise.all(batches);
      assert.ok(done.every((r) => r.compressedSize[0] > 0 && r.compressedSize[0] < 100_000));
    } finally {
      await pool.close();
    }
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { buildSync } from 'esbuild';
import type * as DeflatePoolModule from '../../../src/core/archive/deflatePool';
import { DeflatePool, DeflateWorkerOutOfMemory, deflateOnThreadPool, deflateWhole, nativeDeflate } from '../../../src/core/archive/deflatePool';

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

  test('on Linux its workers yield a core to this thread (ten below its niceness), and this thread keeps its own', { skip: process.platform !== 'linux' }, async () => {
    const niceOf = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    // The test runner may itself run lowered (npm test runs the unit tests behind the editors' windows).
    const own = os.getPriority(0);
    const want = Math.min(19, own + 10);
    const before = new Set(readdirSync('/proc/self/task'));
    const pool = new DeflatePool(6, 2);
    try {
      await Promise.all([0, 1].map(() => pool.run(pool.inputBuffer(0), Float64Array.of(0), Uint8Array.of(0))));
      const added = readdirSync('/proc/self/task').filter((t) => !before.has(t));
      assert.ok(added.filter((t) => niceOf(t) === want).length >= 2, `the two workers run at niceness ${want}: ${added.map((t) => `${t}:${niceOf(t)}`).join(', ')}`);
      assert.equal(os.getPriority(0), own, 'this thread is not lowered');
      assert.equal(niceOf(String(process.pid)), own, 'the main thread is not lowered');
    } finally {
      await pool.close();
    }
  });

  test('a worker that has finished its batches is seen idle while this thread is still busy, before their answers are read', async () => {
    const pool = new DeflatePool(6, 1);
    try {
      // Waits until the worker is up, so the busy loop below waits for deflating, not for its start.
      await pool.run(pool.inputBuffer(0), Float64Array.of(0), Uint8Array.of(0));
      // Text that takes zlib milliseconds (a repeated line took it well under one: the worker
      // could finish a batch before the next was posted).
      let seed = 1;
      const words = Array.from({ length: 30_000 }, () => (seed = (seed * 48271) % 2147483647).toString(36));
      const source = Buffer.from(words.join(' '));
      const post = () => [0, 1, 2].map(() => {
        const buffers = pool.inputBuffer(0);
        Buffer.from(buffers.input).set(source.subarray(0, 100_000));
        return pool.run(buffers, Float64Array.of(100_000), Uint8Array.of(0));
      });
      let batches = post();
      // On a loaded machine this thread can be held up between two posts for longer than a
      // batch takes the worker: then the three are posted again, once those have finished
      // (a fresh clone's run, every core busy, once needed more than five tries).
      for (let again = 0; again < 50 && pool.backlog !== 2; again++) {
        await Promise.all(batches);
        batches = post();
      }
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

describe('deflateWhole', () => {
  test("Node's zlib handle is found here, and gives deflateRawSync's bytes for every size, window and level; data that does not shrink is stored", () => {
    const native = nativeDeflate(zlib, deflateWhole);
    assert.ok(native, "this Node's zlib handle passes the check (without it packaging falls back to deflateRawSync, slower)");
    let seed = 3;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const text = Buffer.from(Array.from({ length: 40_000 }, () => ['const', 'x', '=', next().toString(36), ';\n'][next() % 5]).join(' '));
    const random = Buffer.from(Array.from({ length: 70_000 }, () => next() & 255));
    let compared = 0;
    for (const source of [text, random]) {
      for (const size of [128, 129, 300, 1000, 4096, 20_000, 65_000, 120_000]) {
        const data = source.subarray(0, Math.min(size, source.length));
        for (const level of [1, 5, 9]) {
          const windowBits = Math.max(9, Math.min(15, Math.ceil(Math.log2(data.length + 262))));
          const expected = zlib.deflateRawSync(data, { level, windowBits });
          for (const way of [native, undefined]) {
            // Written at an offset into a buffer with other bytes around it, as in a batch.
            const output = Buffer.alloc(data.length + 50, 0xee);
            const n = deflateWhole(zlib, way, data, output, 20, level, windowBits);
            if (expected.length >= data.length) {
              assert.equal(n, -1, `${size} bytes that do not shrink are left to be stored`);
            } else {
              assert.ok(output.subarray(20, 20 + n).equals(expected), `${size} bytes at level ${level}: deflateRawSync's bytes`);
              compared++;
            }
            assert.ok(output.subarray(0, 20).every((b) => b === 0xee), 'nothing written before the offset');
          }
        }
      }
    }
    assert.ok(compared >= 40, `${compared} deflated results compared`);
  });

  test('deflated bytes that would not fit before the end of the output are not written past it', () => {
    const native = nativeDeflate(zlib, deflateWhole);
    const data = Buffer.from('let a = 1;\n'.repeat(200));
    const output = Buffer.alloc(30, 0xee);
    const guard = Buffer.concat([output, Buffer.alloc(10, 0xaa)]);
    const n = deflateWhole(zlib, native, data, guard.subarray(0, 30), 25, 5, 12);
    assert.equal(n, -1, 'five bytes of room are too few: stored (the caller sizes outputs to hold the files)');
    assert.ok(guard.subarray(30).every((b) => b === 0xaa));
  });
});

describe('deflateOnThreadPool', () => {
  test("gives deflateWhole's bytes on the thread pool, several at once; data that does not shrink is stored", async () => {
    const native = nativeDeflate(zlib, deflateWhole);
    assert.ok(native);
    let seed = 11;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const text = Buffer.from(Array.from({ length: 60_000 }, () => ['let', 'y', '=>', next().toString(36), ';\n'][next() % 5]).join(' '));
    const random = Buffer.from(Array.from({ length: 40_000 }, () => next() & 255));
    const inputs = [text.subarray(0, 16 * 1024), text.subarray(0, 100_000), text, random.subarray(0, 20_000), text.subarray(5, 40_005)];
    const outputs = inputs.map((d) => Buffer.alloc(d.length, 0xee));
    const bits = (n: number) => Math.max(9, Math.min(15, Math.ceil(Math.log2(n + 262))));
    const results = await Promise.all(inputs.map((d, i) => deflateOnThreadPool(zlib, native, d, outputs[i], 5)));
    inputs.forEach((d, i) => {
      const here = Buffer.alloc(d.length);
      const n = deflateWhole(zlib, native, d, here, 0, 5, bits(d.length));
      assert.equal(results[i], n, `input ${i}: the same length`);
      if (n >= 0) assert.ok(outputs[i].subarray(0, n).equals(here.subarray(0, n)), `input ${i}: the same bytes`);
    });
    assert.equal(results[3], -1, 'random bytes are left to be stored');
    assert.ok(results.filter((n) => n > 0).length === 4);
  });
});

describe('the deflate worker in a minified bundle', () => {
  test('deflates a batch as this thread does, from the published build (names renamed)', async () => {
    // The worker's program is made of functions' text: in a minified bundle they call each
    // other by renamed names, which must not be needed in the worker.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pool-bundle-'));
    try {
      const outfile = path.join(dir, 'pool.js');
      buildSync({ entryPoints: [path.join(__dirname, '../../../src/core/archive/deflatePool.ts')], bundle: true, minify: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'silent' });
      assert.ok(!readFileSync(outfile, 'utf8').includes('function deflateWhole'), 'the bundle renames the functions');
      const bundled = createRequire(outfile)(outfile) as typeof DeflatePoolModule;
      // As the worker's program runs it: its text alone, with nothing of the bundle in scope.
      const alone = new Function('zlib', 'whole', `return (${bundled.nativeDeflate.toString()})(zlib, whole);`) as (z: typeof zlib, w: unknown) => unknown;
      assert.equal(typeof alone(zlib, bundled.deflateWhole), 'function', "the worker finds Node's zlib handle, not the slower way");
      const pool = new bundled.DeflatePool(5, 1);
      try {
        let seed = 7;
        const data = Buffer.from(Array.from({ length: 20_000 }, () => (seed = (seed * 48271) % 2147483647).toString(36)).join(' ').slice(0, 150_000));
        const buffers = pool.inputBuffer(0);
        Buffer.from(buffers.input).set(data);
        const r = await pool.run(buffers, Float64Array.of(data.length), Uint8Array.of(0));
        const here = Buffer.alloc(data.length);
        const n = deflateWhole(zlib, nativeDeflate(zlib, deflateWhole), data, here, 0, 5, 15);
        assert.equal(r.method[0], 8);
        assert.equal(r.compressedSize[0], n);
        assert.ok(r.output.subarray(0, n).equals(here.subarray(0, n)));
        assert.equal(r.crc[0], zlib.crc32(data));
      } finally {
        await pool.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

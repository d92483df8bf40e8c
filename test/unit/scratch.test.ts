import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SCRATCH_BYTES, takeScratch } from '../../src/core/scratch';

describe('scratch buffer shared by packaging and upload', () => {
  test('one holder at a time; the next holder gets the same memory once it is given back', () => {
    const a = takeScratch(1024);
    assert.ok(a.buffer.length >= SCRATCH_BYTES, 'small requests get the full shared size, so the later, bigger stage fits');
    a.buffer.fill(7, 0, 16);
    const b = takeScratch(1024);
    assert.notEqual(b.buffer.buffer, a.buffer.buffer, 'a second holder while the first holds it gets private memory');
    assert.equal(b.buffer.length, 1024);
    b.release();
    a.release();
    a.release(); // twice is harmless and does not free it for two holders
    const c = takeScratch(SCRATCH_BYTES);
    assert.equal(c.buffer.buffer, a.buffer.buffer, 'after release the same memory is handed out again');
    const d = takeScratch(10);
    assert.notEqual(d.buffer.buffer, c.buffer.buffer, 'a double release of `a` must not have made it free while `c` holds it');
    d.release();
    c.release();
  });

  test('a request bigger than the shared buffer gets a bigger one, which is then shared', () => {
    const big = takeScratch(SCRATCH_BYTES + 1);
    assert.ok(big.buffer.length >= SCRATCH_BYTES + 1);
    big.release();
    const again = takeScratch(100);
    assert.equal(again.buffer.buffer, big.buffer.buffer);
    again.release();
  });
});

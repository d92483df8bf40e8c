import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ratioAgainst, roundRatios } from '../../bench/figures';

describe('printing a benchmark ratio beside its target', () => {
  test('two decimals when they tell the verdict as it is', () => {
    assert.equal(ratioAgainst(0.5612, 0.55), '0.56');
    assert.equal(ratioAgainst(0.18, 0.2), '0.18');
    assert.equal(ratioAgainst(1.2, 1.2), '1.20', 'exactly at the target is met, and reads so');
  });

  test('more decimals when two would round a miss onto the target', () => {
    assert.equal(ratioAgainst(1.204, 1.2), '1.204');
    assert.equal(ratioAgainst(0.2034, 0.2), '0.203');
    assert.equal(ratioAgainst(0.55004, 0.55), '0.5500', 'at most four');
  });

  test('a figure just under its target may round onto it: at the target reads as met', () => {
    assert.equal(ratioAgainst(0.5496, 0.55), '0.55');
    assert.equal(ratioAgainst(0.99996, 1), '1.00');
  });

  test("each round's ratio in the order they ran", () => {
    assert.equal(roundRatios([1.5, 1.2, 3], [3, 2.4, 4]), '0.50, 0.50, 0.75');
  });
});

// The agents' budget of scans: a few a minute for the whole editor, whatever name an agent
// gives; the refusal says when the next scan can start.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT_SCANS_PER_MINUTE, ScanBudget } from '../../../src/core/agent/scanBudget';

test('three scans a minute for every agent together; the fourth is refused with the wait, and allowed a minute later', () => {
  const budget = new ScanBudget();
  const t0 = 1_000_000;
  for (let i = 0; i < AGENT_SCANS_PER_MINUTE; i++) {
    assert.equal(budget.refusal(t0 + i * 1000), undefined);
    budget.spend(t0 + i * 1000);
  }
  assert.match(budget.refusal(t0 + 10_000) ?? '', /^The limit of 3 agent scans a minute is reached: the next one can start in 50 s\./);
  assert.equal(budget.refusal(t0 + 60_001), undefined, 'the first scan is over a minute old');
});

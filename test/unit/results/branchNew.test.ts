// New in this branch: same list, classification, file and line text (trimmed) as a finding
// of the base commit's scan is not new, wherever the line moved; anything else is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { introducedFindings } from '../../../src/core/results/branchNew';
import { issue } from './helpers';

test('a finding is new unless the base has its list, classification, file and line text', async () => {
  const base = { 'a.js': 'x\n  eval(input);\n', 'b.js': 'eval(y);\n' };
  const now = { 'a.js': 'x\n// moved\n\teval(input);   \n', 'b.js': 'eval(z);\n', 'c.js': 'eval(input);\n' };
  const read = (files: Record<string, string>) => async (p: string) => files[p];
  const moved = issue('1', 'a.js', 3);
  const changed = issue('2', 'b.js', 1);
  const elsewhere = issue('3', 'c.js', 1);
  const otherList = { ...issue('security:1', 'a.js', 3), kind: 'security' as const };
  const got = await introducedFindings([moved, changed, elsewhere, otherList], read(now), [issue('9', 'a.js', 2), issue('8', 'b.js', 1)], read(base));
  assert.deepEqual([...got].sort(), ['2', '3', 'security:1']);
  assert.deepEqual([...(await introducedFindings([moved], read(now), [], read(base)))], ['1']);
});

// Several fixes of one file: made against the same text, applied together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { applyFix, composeFixes } from '../../../src/core/fixes';

const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1};`);
const original = `${lines.join('\n')}\n`;
const change = (at: number[], to: (l: string) => string) => `${lines.map((l, i) => (at.includes(i) ? to(l) : l)).join('\n')}\n`;
const fix = (id: string, after: string) => ({ id, path: 'src/a.js', diff: createTwoFilesPatch('a/src/a.js', 'b/src/a.js', original, after) });

test('fixes a few lines apart compose, although applying one after the other would not', () => {
  const a = fix('a', change([9], (l) => l.replace(';', ' // fixed A;')));
  const b = fix('b', change([12], (l) => l.replace(';', ' // fixed B;')));
  // The old way: B's diff no longer matches the text A produced (their contexts overlap).
  const first = applyFix(a.diff, original, 'src/a.js');
  assert.ok(first.ok);
  assert.equal(applyFix(b.diff, first.text, 'src/a.js').ok, false, 'the bug this composition fixes');
  const r = composeFixes(original, [b, a]);
  assert.deepEqual(r.applied.sort(), ['a', 'b']);
  assert.deepEqual(r.refused, []);
  assert.equal(r.text, change([9, 12], (l) => l.replace(';', l === 'line 10;' ? ' // fixed A;' : ' // fixed B;')));
  assert.deepEqual(r.edits.map((e) => e.startLine), [9, 12], 'edits top to bottom');
});

test('fixes changing the same lines: the second is refused with that reason', () => {
  const a = fix('a', change([4], () => 'A'));
  const b = fix('b', change([4, 5], () => 'B'));
  const r = composeFixes(original, [a, b]);
  assert.deepEqual(r.applied, ['a']);
  assert.deepEqual(r.refused.map((x) => [x.id, x.reason]), [['b', 'overlaps']]);
  assert.match(r.refused[0].message, /same lines as another fix/);
});

test('a fix whose code was edited is refused as such; the others still apply', () => {
  const edited = original.replace('line 20;', 'line 20 edited;');
  const a = fix('a', change([19], () => 'changed 20;'));
  const b = fix('b', change([2], () => 'changed 3;'));
  const r = composeFixes(edited, [a, b]);
  assert.deepEqual(r.applied, ['b']);
  assert.equal(r.refused[0].reason, 'does-not-apply');
  assert.match(r.refused[0].message, /edited since the scan/);
});

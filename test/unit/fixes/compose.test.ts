// Several fixes of one file: made against the same text, applied together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { appliedFixes, applyFix, composeFixes } from '../../../src/core/fixes';

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

test('appliedFixes tells which fixes a partly accepted preview applied, edits left out anywhere', () => {
  const before = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', ''].join('\n');
  const editsOf = new Map([
    ['replace', [{ startLine: 1, endLine: 2, text: 'B2\n' }]],
    ['delete', [{ startLine: 3, endLine: 4, text: '' }]],
    ['insert', [{ startLine: 5, endLine: 5, text: 'new\nlines\n' }]],
    ['two', [{ startLine: 0, endLine: 1, text: 'A1\n' }, { startLine: 6, endLine: 7, text: 'G7\n' }]],
  ]);
  const lines = before.split(/(?<=\n)/);
  const apply = (ids: string[]) => {
    const edits = ids.flatMap((id) => editsOf.get(id)!).sort((x, y) => y.startLine - x.startLine);
    const out = [...lines];
    for (const e of edits) out.splice(e.startLine, e.endLine - e.startLine, ...(e.text ? e.text.split(/(?<=\n)/) : []));
    return out.join('');
  };
  const ids = [...editsOf.keys()];
  for (let mask = 0; mask < 1 << ids.length; mask++) {
    const chosen = ids.filter((_, i) => mask & (1 << i));
    assert.deepEqual([...appliedFixes(before, apply(chosen), editsOf)!].sort(), [...chosen].sort(), `chosen: ${chosen.join(',')}`);
  }
  // Half of a two-edit fix: not applied (its finding stays).
  const half = apply(['replace']).replace('a1\n', 'A1\n');
  assert.deepEqual([...appliedFixes(before, half, editsOf)!], ['replace']);
  // Changed by something else meanwhile: unknown.
  assert.equal(appliedFixes(before, apply(['replace']).replace('e5', 'typed'), editsOf), undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLineEdits, type LineEdit } from '../../../src/core/fixes';

/** Applies line edits (bottom-up) to check they really turn before into after. */
function apply(before: string, edits: LineEdit[]): string {
  const lines = before.split(/(?<=\n)/);
  for (const e of [...edits].reverse()) lines.splice(e.startLine, e.endLine - e.startLine, e.text);
  return lines.join('');
}

test('line edits are minimal and reproduce the new text', async (t) => {
  const table: [string, string, string, LineEdit[]][] = [
    ['one changed line', 'a\nb\nc\n', 'a\nB\nc\n', [{ startLine: 1, endLine: 2, text: 'B\n' }]],
    ['an inserted line', 'a\nc\n', 'a\nb\nc\n', [{ startLine: 1, endLine: 1, text: 'b\n' }]],
    ['a deleted line', 'a\nb\nc\n', 'a\nc\n', [{ startLine: 1, endLine: 2, text: '' }]],
    ['two separate changes', 'a\nb\nc\nd\n', 'A\nb\nc\nD\n', [{ startLine: 0, endLine: 1, text: 'A\n' }, { startLine: 3, endLine: 4, text: 'D\n' }]],
    ['last line without newline', 'a\nb', 'a\nc', [{ startLine: 1, endLine: 2, text: 'c' }]],
    ['nothing changed', 'a\n', 'a\n', []],
  ];
  for (const [name, before, after, expected] of table) {
    await t.test(name, () => {
      const edits = computeLineEdits(before, after);
      assert.deepEqual(edits, expected);
      assert.equal(apply(before, edits), after);
    });
  }
});

test('a fix rewriting most of a big file is one edit, computed without a quadratic diff', { timeout: 20_000 }, () => {
  const before = Array.from({ length: 100_000 }, (_, i) => `const v${i} = ${i};\n`).join('');
  const after = `// header\n${Array.from({ length: 100_000 }, (_, i) => `let w${i} = ${i * 2};\n`).join('')}// footer\n`;
  const edits = computeLineEdits(before, after);
  assert.equal(edits.length, 1);
  assert.equal(apply(before, edits), after);
});

test('many scattered changes in a big file still reproduce the new text', { timeout: 20_000 }, () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`);
  const before = lines.join('');
  const after = lines.map((l, i) => (i % 7 === 0 ? l.toUpperCase() : l)).join('');
  const edits = computeLineEdits(before, after);
  assert.equal(apply(before, edits), after);
});

test('unchanged lines around a small change are never part of the edit', () => {
  const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i}\n`);
  const after = [...lines];
  after[25_000] = 'changed\n';
  const edits = computeLineEdits(lines.join(''), after.join(''));
  assert.deepEqual(edits, [{ startLine: 25_000, endLine: 25_001, text: 'changed\n' }]);
});

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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editorLineOfServiceLine, relocateInReplacement, trackRange, trackRangeThrough, rangeForLine, type Range, type TextChange } from '../../../src/core/issues';

const r = (sl: number, sc: number, el: number, ec: number): Range => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });
const change = (sl: number, sc: number, el: number, ec: number, text: string): TextChange => ({ range: r(sl, sc, el, ec), text });

// The finding: line 5, characters 4..20.
const finding = r(5, 4, 5, 20);

test('range tracking across edits', async (t) => {
  const table: [string, TextChange[], Range | undefined][] = [
    ['insert a line above', [change(2, 0, 2, 0, 'new line\n')], r(6, 4, 6, 20)],
    ['insert three lines above in one paste', [change(0, 0, 0, 0, 'a\nb\nc\n')], r(8, 4, 8, 20)],
    ['delete two lines above', [change(1, 0, 3, 0, '')], r(3, 4, 3, 20)],
    ['edit after the range', [change(9, 0, 9, 3, 'xyz\n\n')], finding],
    ['type on the same line after the range', [change(5, 25, 5, 25, 'abc')], finding],
    ['indent the line (same line, before the range)', [change(5, 0, 5, 0, '  ')], r(5, 6, 5, 22)],
    ['edit inside the range on the same line', [change(5, 10, 5, 12, 'abcd')], r(5, 4, 5, 22)],
    ['press Enter at the end of the line', [change(5, 20, 5, 20, '\n    ')], finding],
    ['delete the whole line', [change(5, 0, 6, 0, '')], undefined],
    ['delete lines containing the range', [change(4, 0, 7, 0, '')], undefined],
    ['delete the line the way Ctrl+Shift+K does at the end of a line', [change(4, 9, 5, 20, '')], undefined],
    ['replace the lines containing it', [change(4, 0, 6, 0, 'other\ncode\n')], undefined],
    ['retype exactly the range text', [change(5, 4, 5, 20, 'safe()')], r(5, 4, 5, 10)],
    ['delete the start of the range', [change(5, 0, 5, 8, '')], r(5, 0, 5, 12)],
    ['join the line with the one above', [change(4, 7, 5, 0, '')], r(4, 11, 4, 27)],
    ['several edits applied in order', [change(8, 0, 8, 0, 'x\n'), change(0, 0, 1, 0, '')], r(4, 4, 4, 20)],
  ];
  for (const [name, changes, expected] of table) {
    await t.test(name, () => assert.deepEqual(trackRangeThrough(finding, changes), expected));
  }
});

test('an insertion at the start of an empty range moves it along', () => {
  assert.deepEqual(trackRange(r(2, 0, 2, 0), change(2, 0, 2, 0, 'x')), r(2, 1, 2, 1));
});

test('a CRLF insertion counts as one line break', () => {
  assert.deepEqual(trackRange(finding, change(0, 0, 0, 0, 'a\r\nb\r\n')), r(7, 4, 7, 20));
});

test('rangeForLine covers the line without its indentation and clamps past the end', () => {
  const text = 'first\n    second();\n\nlast';
  assert.deepEqual(rangeForLine(text, 2), r(1, 4, 1, 13));
  assert.deepEqual(rangeForLine(text, 3), r(2, 0, 2, 0));
  assert.deepEqual(rangeForLine(text, 99), r(3, 0, 3, 4));
  assert.deepEqual(rangeForLine('a\r\nb', 2), r(1, 0, 1, 1));
});

// Whole-text replacements (revert, formatter, a WorkspaceEdit over the document): the
// finding's line text, remembered when it was placed, finds the line again.
const DOC = ['import os', '', 'def clean(path):', '    try:', '        os.remove(path)', '    except:', '        pass', '', 'clean("x")'];
const EXCEPT = r(5, 4, 5, 11);
const wholeDoc = (text: string[]): TextChange => change(0, 0, DOC.length - 1, DOC[DOC.length - 1].length, text.join('\n'));

test('a finding survives a whole-text replacement that keeps its line', async (t) => {
  const table: [string, TextChange[], Range | undefined][] = [
    ['revert to the same text', [wholeDoc(DOC)], EXCEPT],
    ['revert with CRLF line ends', [wholeDoc([DOC.join('\r\n')])], EXCEPT],
    ['formatter re-indents and adds lines above', [wholeDoc(['import os', '', '', 'def clean(path):', '  try:', '    os.remove(path)', '  except :', '    pass', '', 'clean("x")'])], r(6, 2, 6, 10)],
    ['the same text arrives in two changes, the second covering the line', [change(0, 0, 0, 9, 'import os'), change(3, 0, 8, 10, DOC.slice(3).join('\n'))], EXCEPT],
    ['a multi-line replacement around it that keeps it', [change(4, 0, 7, 0, '        os.unlink(path)\n    except:\n        return\n')], r(5, 4, 5, 11)],
    ['the line is really gone from the new text', [wholeDoc(DOC.filter((l) => l !== '    except:'))], undefined],
    ['the line was changed by the replacement', [wholeDoc(DOC.map((l) => (l === '    except:' ? '    except OSError:' : l)))], undefined],
    ['a plain deletion of the line', [change(5, 0, 6, 0, '')], undefined],
  ];
  for (const [name, changes, expected] of table) {
    await t.test(name, () => assert.deepEqual(trackRangeThrough(EXCEPT, changes, '    except:'), expected));
  }
});

test('without a remembered line text, a replacement of its lines still drops the finding', () => {
  assert.equal(trackRangeThrough(EXCEPT, [wholeDoc(DOC)]), undefined);
});

test('of several identical lines, the one nearest the old position wins', () => {
  const doc = ['a()', 'except:', 'b()', 'c()', 'except:', 'd()'];
  const replace: TextChange = change(0, 0, 5, 3, ['x()', ...doc].join('\n'));
  assert.deepEqual(trackRangeThrough(r(4, 0, 4, 7), [replace], 'except:'), r(5, 0, 5, 7));
  assert.deepEqual(trackRangeThrough(r(1, 0, 1, 7), [replace], 'except:'), r(2, 0, 2, 7));
});

test('relocation ignores blank lines and a first line that only completes another line', () => {
  assert.equal(relocateInReplacement(r(3, 0, 3, 0), '   ', change(0, 0, 9, 0, '\n\n\n\n')), undefined);
  // The change starts mid-line: its first inserted line is the tail of line 2, not a whole line.
  assert.equal(relocateInReplacement(r(3, 0, 3, 7), 'except:', change(2, 5, 4, 0, 'except:\nfoo\n')), undefined);
  assert.deepEqual(relocateInReplacement(r(3, 0, 3, 7), 'except:', change(2, 5, 4, 0, 'x\nexcept:\n')), r(3, 0, 3, 7));
});

test('a lone CR: the service counts lines by LF, the editor also breaks at CR; the finding lands on its code', () => {
  // Service lines: 1 "// a\r// b", 2 "const v = eval(x);". Editor lines: 0 "// a", 1 "// b", 2 "const v = eval(x);".
  const text = '// a\r// b\nconst v = eval(x);\n';
  assert.equal(editorLineOfServiceLine(text, 2), 2);
  assert.deepEqual(rangeForLine(text, 2), r(2, 0, 2, 18));
  const crlf = 'a\r\nb\r\nc\r\n';
  assert.equal(editorLineOfServiceLine(crlf, 3), 2, 'CRLF counts once on both sides');
  assert.equal(editorLineOfServiceLine('x\n', 1), 0);
});

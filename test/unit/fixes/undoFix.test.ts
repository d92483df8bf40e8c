// Undo Fix after a save: the fix's own lines are put back as they were, in the text as it is
// now; elsewhere edits stay; a fix whose lines were edited away is not guessed at.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { undoFixText } from '../../../src/core/fixes';

const BEFORE = 'a\nb\nconst t = Math.random();\nc\nd\ne\nf\ng\n';
const EDIT = [{ startLine: 2, endLine: 3, text: 'const t = (Math.random() * Date.now());\n' }];
const AFTER = 'a\nb\nconst t = (Math.random() * Date.now());\nc\nd\ne\nf\ng\n';

describe('undo a saved fix', () => {
  it('the text just as the fix left it: exactly the text before', () => {
    assert.equal(undoFixText(AFTER, BEFORE, EDIT), BEFORE);
  });

  it('edited elsewhere since (lines added above, a line changed below): only the fix is taken back', () => {
    const now = `// header\n// more\n${AFTER.replace('g\n', 'g changed\n')}`;
    assert.equal(undoFixText(now, BEFORE, EDIT), `// header\n// more\n${BEFORE.replace('g\n', 'g changed\n')}`);
  });

  it('the fix\'s line edited away: nothing is guessed', () => {
    assert.equal(undoFixText(AFTER.replace('Date.now()', 'performance.now()'), BEFORE, EDIT), undefined);
  });

  it('a fix that deleted a line puts it back', () => {
    const before = 'a\nb\nc\n  debugger;\nd\ne\n';
    assert.equal(undoFixText('a\nb\nc\nd\ne\n', before, [{ startLine: 3, endLine: 4, text: '' }]), before);
  });
});

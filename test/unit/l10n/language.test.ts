// Numbers, plurals and lists follow the display language; a loaded bundle replaces the
// English source; arguments are always text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayLanguage, formatNumber, l10n, listWords, plural, useBundle } from '../../../src/core/text/l10n';
import { formatBytes } from '../../../src/core/text/bytes';

test('English by default: en-US digits, one/other, no serial comma', () => {
  assert.equal(displayLanguage(), 'en');
  assert.equal(plural(1, l10n.t('{0} file'), l10n.t('{0} files')), '1 file');
  assert.equal(plural(1234, l10n.t('{0} file'), l10n.t('{0} files')), '1,234 files');
  assert.equal(listWords(['a', 'b', 'c']), 'a, b and c');
  assert.equal(formatNumber(1234.5), '1,234.5');
  assert.equal(formatBytes(3500), '3.4 KB');
  assert.equal(l10n.t('Scanned {0} in {1}', 3, { toString: () => 'x' }), 'Scanned 3 in x', 'an object is text, not named arguments');
  assert.equal(plural(2, 'one {0} of {1}', 'many {0} of {1}', 'it'), 'many 2 of it');
});

test('a bundle and its language: translated words, the language\'s plurals and numbers; a table\'s words made in it', () => {
  // A table of words as modules keep them: a getter, made at each use in the bundle's language.
  const label = { get done() { return l10n.t('Done'); } };
  assert.equal(label.done, 'Done');
  try {
    useBundle({ '{0} file': '{0} Datei', '{0} files': '{0} Dateien', 'Done': 'Fertig' }, 'de');
    assert.equal(plural(1, l10n.t('{0} file'), l10n.t('{0} files')), '1 Datei');
    assert.equal(plural(1234, l10n.t('{0} file'), l10n.t('{0} files')), '1.234 Dateien');
    assert.equal(listWords(['a', 'b', 'c']), 'a, b und c');
    assert.equal(formatNumber(1234.5), '1.234,5');
    assert.equal(formatBytes(1127428915), '1,05 GB');
    assert.equal(label.done, 'Fertig');
    useBundle({ '{0} file': '{0} 個のファイル', '{0} files': '{0} 個のファイル' }, 'ja');
    assert.equal(plural(1, l10n.t('{0} file'), l10n.t('{0} files')), '1 個のファイル');
    assert.equal(l10n.t('Not in the bundle'), 'Not in the bundle', 'a key the bundle lacks stays English');
  } finally {
    useBundle({}, 'en');
  }
});

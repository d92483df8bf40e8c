import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { applyFix, isInsideFolder, readFixTarget } from '../../../src/core/fixes';

const original = [
  'import sqlite3',
  '',
  'def find(conn, name):',
  '    cur = conn.cursor()',
  '    cur.execute("SELECT * FROM users WHERE name = \'" + name + "\'")',
  '    return cur.fetchall()',
  '',
].join('\n');
const fixed = original.replace(
  '    cur.execute("SELECT * FROM users WHERE name = \'" + name + "\'")',
  '    cur.execute("SELECT * FROM users WHERE name = ?", (name,))',
);
const patch = createTwoFilesPatch('a/app/db.py', 'b/app/db.py', original, fixed);

test('applies a fix to the unchanged file', () => {
  const res = applyFix(patch, original, 'app/db.py');
  assert.deepEqual(res, { ok: true, text: fixed, relativePath: 'app/db.py' });
});

test('applies a fix after lines were added above it (offset hunk)', () => {
  const edited = '# header comment\n# another\n' + original;
  const res = applyFix(patch, edited);
  assert.equal(res.ok, true);
  assert.equal(res.ok && res.text, '# header comment\n# another\n' + fixed);
});

test('applies a fix to a CRLF file', () => {
  const crlf = original.replace(/\n/g, '\r\n');
  const res = applyFix(patch, crlf);
  assert.equal(res.ok && res.text, fixed.replace(/\n/g, '\r\n'));
});

test('refuses a fix whose code was edited since the scan, without fuzzing', () => {
  const edited = original.replace('name + "\'")', 'name.strip() + "\'")');
  const res = applyFix(patch, edited);
  assert.equal(res.ok, false);
  assert.equal(!res.ok && res.reason, 'does-not-apply');
  assert.match(!res.ok ? res.message : '', /no longer applies to app\/db\.py/);
});

test('refuses a fix for another file than the issue', () => {
  const res = applyFix(patch, original, 'app/other.py');
  assert.equal(!res.ok && res.reason, 'not-one-file');
});

test('refuses fixes that reach outside the workspace folder', async (t) => {
  const bad = ['../etc/passwd', '/etc/passwd', 'a/../../x', 'C:/Windows/x', 'app/../../x'];
  for (const name of bad) {
    await t.test(name, () => {
      const p = createTwoFilesPatch(name, name, original, fixed);
      const res = applyFix(p, original);
      assert.equal(res.ok, false);
      assert.equal(!res.ok && res.reason, 'outside-folder', name);
      assert.match(!res.ok ? res.message : '', /outside the workspace folder/);
    });
  }
});

test('refuses patches that are not one in-place file edit', async (t) => {
  const two = patch + createTwoFilesPatch('a/x.py', 'b/x.py', 'a\n', 'b\n');
  const table: [string, string, string][] = [
    ['two files', two, 'not-one-file'],
    ['creates a file', createTwoFilesPatch('/dev/null', 'b/new.py', '', 'x\n'), 'creates-or-deletes'],
    ['renames', createTwoFilesPatch('a/x.py', 'b/y.py', original, fixed), 'not-one-file'],
    ['empty', '', 'unreadable'],
    ['garbage', 'not a patch at all', 'unreadable'],
    ['malformed hunk', '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n', 'unreadable'],
  ];
  for (const [name, diffText, reason] of table) {
    await t.test(name, () => {
      const res = applyFix(diffText, original);
      assert.equal(!res.ok && res.reason, reason);
    });
  }
});

test('isInsideFolder', () => {
  for (const p of ['a.py', 'src/a.py', './src/a.py', 'src/../a.py']) assert.equal(isInsideFolder(p), true, p);
  for (const p of ['', '.', '..', '../a', '/a', 'C:\\a', 'src\\..\\..\\a']) assert.equal(isInsideFolder(p), false, p);
});

test('readFixTarget names the file without a/ b/ prefixes', () => {
  const t = readFixTarget(patch);
  assert.equal('relativePath' in t && t.relativePath, 'app/db.py');
});

test('refuses a fix too big to be a suggested fix, before trying to apply it', () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `l${i}`);
  const before = `${lines.join('\n')}\n`;
  const after = `${lines.map((l, i) => (i % 8 === 0 ? `${l}!` : l)).join('\n')}\n`;
  const diff = createTwoFilesPatch('a/src/x.js', 'b/src/x.js', before, after, undefined, undefined, { context: 1 });
  const r = applyFix(diff, before, 'src/x.js');
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.reason, 'too-large');
  const huge = applyFix(`--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${'a'.repeat(3 * 1024 * 1024)}\n+b\n`, 'a\n', 'x');
  assert.equal(!huge.ok && huge.reason, 'too-large');
});

// A finding that left through its file (a fix applied, its lines deleted) comes back when
// the file's text no longer has that change, by whatever route the text changed; it stays
// out while the change is there, across a refresh and a reload; what comes back is not
// "new" at the next scan.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { computeLineEdits } from '../../../src/core/fixes';
import { FindingsModel, fixBlocks, holdsFix, readRecords, returnOf } from '../../../src/core/results';
import type { StoredIssue } from '../../../src/core/issues';
import { FOLDER, completed, issue, scanRef, shown } from './helpers';

const SCANNED = 'const a = 1;\nconst b = eval(input);\nconsole.log(b);\n';
const FIXED = 'const a = 1;\nconst b = JSON.parse(input);\nconsole.log(b);\n';

/** A model over files whose text the test sets as it goes. */
function world(files: Record<string, string | undefined>) {
  const m = new FindingsModel({ readText: async (_f, p) => files[p] });
  return { m, files };
}

/** The folder as storage writes it and reads it back, into a new model over the same files. */
function reloaded(m: FindingsModel, files: Record<string, string | undefined>): FindingsModel {
  const records = JSON.parse(JSON.stringify(m.snapshot().folders.flatMap(({ issues, left, ...f }) => [
    { kind: 'folder', ...f }, { kind: 'issues', folderUri: f.folderUri, issues }, { kind: 'left', folderUri: f.folderUri, left: left ?? [] },
  ])));
  const read = readRecords(records);
  assert.deepEqual(read.dropped, []);
  const again = new FindingsModel({ readText: async (_f, p) => files[p] });
  again.load(read.folders);
  return again;
}

function evalIssue(id = '1'): StoredIssue {
  return { ...issue(id, 'a.js', 2), classificationId: 'CWE-95' };
}

/** Applies the fix the way the editor does: out of view with its marks, then the text changes. */
function applyFix(m: FindingsModel, files: Record<string, string | undefined>, id = '1'): void {
  const blocks = fixBlocks(files['a.js']!, computeLineEdits(files['a.js']!, FIXED));
  m.takeOut([{ folderUri: FOLDER, issueId: id }], () => blocks);
  files['a.js'] = FIXED;
}

describe('findings that left through their file', () => {
  test('a fix\'s marks: its new lines; with the lines around them when those are too few to tell', () => {
    assert.deepEqual(fixBlocks(SCANNED, computeLineEdits(SCANNED, FIXED)), [['constb=JSON.parse(input);']]);
    const deleted = fixBlocks(SCANNED, computeLineEdits(SCANNED, 'const a = 1;\nconsole.log(b);\n'));
    assert.deepEqual(deleted, [['consta=1;', 'console.log(b);']], 'a deletion is marked by the lines it joined');
    assert.ok(holdsFix(FIXED, fixBlocks(SCANNED, computeLineEdits(SCANNED, FIXED))));
    assert.ok(holdsFix('  const b  =  JSON.parse(input);', [['constb=JSON.parse(input);']]), 'a formatter does not take a fix away');
    assert.ok(!holdsFix(SCANNED, [['constb=JSON.parse(input);']]));
  });

  test('where a finding comes back: exactly as scanned at the service\'s line, else at its code, else listed as changed', () => {
    const left = { issue: { ...evalIssue(), range: { start: { line: 1, character: 0 }, end: { line: 1, character: 22 } }, lineText: 'const b = eval(input);' }, how: 'fixed' as const, fixBlocks: [['constb=JSON.parse(input);']] };
    assert.equal(returnOf(left, FIXED, undefined), undefined, 'the fix is there: it stays away');
    assert.deepEqual(returnOf(left, 'x\n' + SCANNED, undefined), { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 22 } } }, 'at its code, moved');
    assert.deepEqual(returnOf(left, 'other\n', undefined), { stale: true }, 'the fix is gone and so is its code');
    assert.equal(returnOf(left, undefined, undefined), undefined, 'no file: nothing to show it in');
    const edited = { ...left, how: 'edited' as const, fixBlocks: undefined };
    assert.equal(returnOf(edited, 'const a = 1;\nconsole.log(b);\n', undefined), undefined, 'its line is still deleted');
    assert.ok(returnOf(edited, SCANNED, undefined), 'its line is back where it was');
  });

  test('discarding a fix (the file\'s text is the old one again) brings the finding back at its line; keeping it keeps it out', async () => {
    const { m, files } = world({ 'a.js': SCANNED });
    await m.apply(FOLDER, completed(scanRef('f'), [evalIssue()]));
    applyFix(m, files);
    assert.deepEqual(shown(m), []);
    assert.equal(await m.revisit(FOLDER, ['a.js']), 0, 'the file has the fix');
    assert.ok(m.isFixed(FOLDER, '1'));
    files['a.js'] = SCANNED; // Don't Save, Revert File, git checkout: the old text, by any route
    assert.equal(await m.revisit(FOLDER), 1);
    assert.deepEqual(shown(m), ['a.js:1']);
    assert.equal(m.get(FOLDER, '1')?.range?.start.line, 1);
    assert.ok(!m.isFixed(FOLDER, '1'));
  });

  test('a fix taken away by hand in a file that changed elsewhere brings the finding back where its code is', async () => {
    const { m, files } = world({ 'a.js': SCANNED });
    await m.apply(FOLDER, completed(scanRef('f'), [evalIssue()]));
    applyFix(m, files);
    files['a.js'] = '// added\n// lines\n' + SCANNED;
    await m.revisit(FOLDER);
    assert.equal(m.get(FOLDER, '1')?.range?.start.line, 3);
  });

  test('deleted code that comes back (undo, a revert) brings its finding back', async () => {
    const { m, files } = world({ 'a.js': SCANNED });
    await m.apply(FOLDER, completed(scanRef('f'), [evalIssue()]));
    m.followEdits(FOLDER, 'a.js', [{ range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: '' }]);
    files['a.js'] = 'const a = 1;\nconsole.log(b);\n';
    assert.deepEqual(shown(m), []);
    assert.equal(await m.revisit(FOLDER), 0);
    files['a.js'] = SCANNED;
    assert.equal(await m.revisit(FOLDER), 1);
    assert.deepEqual(shown(m), ['a.js:1']);
  });

  test('a refresh of the same scan keeps a fixed finding out; a reload keeps it out only while the saved file has the fix', async () => {
    const { m, files } = world({ 'a.js': SCANNED });
    const f = scanRef('f');
    await m.apply(FOLDER, completed(f, [evalIssue()]));
    applyFix(m, files);
    await m.replaceFolder(FOLDER, [{ scan: f, issues: [evalIssue()], archived: new Set(['a.js']) }]);
    assert.deepEqual(shown(m), [], 'a refresh does not bring it back');
    const kept = reloaded(m, files);
    assert.equal(await kept.revisit(FOLDER), 0);
    assert.deepEqual(shown(kept), [], 'saved with the fix: still out after a reload');
    assert.ok(kept.isFixed(FOLDER, '1'));
    files['a.js'] = SCANNED;
    const back = reloaded(m, files);
    assert.equal(await back.revisit(FOLDER), 1);
    assert.deepEqual(shown(back), ['a.js:1'], 'the saved file lacks the fix: back after a reload');
  });

  test('a scan of the file forgets what left it; the old finding a scan reports again is not new', async () => {
    const { m, files } = world({ 'a.js': SCANNED, 'b.js': 'eval(x)\n' });
    await m.apply(FOLDER, completed(scanRef('f1'), [evalIssue(), issue('2', 'b.js', 1)]));
    applyFix(m, files);
    files['a.js'] = SCANNED; // thrown away, but nobody looked yet
    // The service names the same finding with a new id in the next scan.
    await m.apply(FOLDER, completed(scanRef('f2'), [{ ...evalIssue('1b') }, issue('2b', 'b.js', 1)]));
    assert.deepEqual(shown(m), ['a.js:1b', 'b.js:2b']);
    assert.deepEqual(m.issuesIn(FOLDER).filter((i) => i.isNew).map((i) => i.id), [], 'nothing was new: the fixed one was there before');
    assert.equal(m.hasLeft(FOLDER), false);
  });

  test('a finding first seen by a partial scan after the first full scan is new at that scan', async () => {
    const { m } = world({ 'a.js': SCANNED, 'b.js': 'eval(x)\n' });
    await m.apply(FOLDER, completed(scanRef('f1'), [evalIssue()]));
    await m.apply(FOLDER, completed(scanRef('p1', ['b.js']), [issue('2', 'b.js', 1)]));
    assert.deepEqual(m.issuesIn(FOLDER).filter((i) => i.isNew).map((i) => i.id), ['2']);
    await m.apply(FOLDER, completed(scanRef('p2', ['a.js']), [evalIssue('1again')]));
    assert.ok(!m.get(FOLDER, '1again')?.isNew, 'found again by a partial scan: not new');
  });

  test('redo after the finding came back takes it out again, marked fixed', async () => {
    const { m, files } = world({ 'a.js': SCANNED });
    await m.apply(FOLDER, completed(scanRef('f'), [evalIssue()]));
    const blocks = fixBlocks(SCANNED, computeLineEdits(SCANNED, FIXED));
    applyFix(m, files);
    files['a.js'] = SCANNED;
    await m.revisit(FOLDER);
    // The redo's edit rewrites the line first (range tracking takes it out as edited code) ...
    m.followEdits(FOLDER, 'a.js', [{ range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: 'const b = JSON.parse(input);\n' }]);
    files['a.js'] = FIXED;
    // ... then the fix is known again.
    m.takeOut([{ folderUri: FOLDER, issueId: '1' }], () => blocks);
    assert.ok(m.isFixed(FOLDER, '1'));
    assert.equal(await m.revisit(FOLDER), 0);
  });

  test('a findings file of an older version (fixed findings as ids only) is read, without them', () => {
    const read = readRecords([{ kind: 'folder', folderUri: FOLDER, scans: [], gone: ['1', '2'] }, { kind: 'issues', folderUri: FOLDER, issues: [] }]);
    assert.deepEqual(read.dropped, []);
    assert.equal(read.folders[0]?.left, undefined);
    assert.equal((read.folders[0] as { gone?: unknown }).gone, undefined);
  });

  test('a damaged record of a finding that left drops its folder, as any damaged finding does', () => {
    const read = readRecords([{ kind: 'folder', folderUri: FOLDER, scans: [] }, { kind: 'left', folderUri: FOLDER, left: [{ issue: { id: '1' }, how: 'fixed' }] }]);
    assert.equal(read.folders.length, 0);
    assert.match(read.dropped[0] ?? '', /finding 1/);
  });
});

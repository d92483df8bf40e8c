// What is new: measured against the folder's findings before its latest full scan, by the
// service's id or else by classification, file and line text; nothing is new before a
// second full scan; the baseline survives storage; Clear Results forgets it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { baselineOf, markNew } from '../../../src/core/results/baseline';
import { readRecords } from '../../../src/core/results/storage';
import { FOLDER, completed, issue, model, scanRef } from './helpers';

/** The ids of the folder's findings marked new, sorted. */
function fresh(m: ReturnType<typeof model>): string[] {
  return m.issuesIn(FOLDER).filter((i) => i.isNew).map((i) => i.id).sort();
}

describe('new findings', () => {
  test('the first full scan marks nothing new; the second marks exactly the findings it added', async () => {
    const m = model();
    await m.apply(FOLDER, completed(scanRef('f1'), [issue('1', 'a.js', 2), issue('2', 'b.js', 3)]));
    assert.deepEqual(fresh(m), [], 'no earlier full scan: no baseline, nothing is new');
    await m.apply(FOLDER, completed(scanRef('f2'), [issue('1', 'a.js', 2), issue('2', 'b.js', 3), issue('3', 'c.js', 4), issue('4', 'a.js', 7)]));
    assert.deepEqual(fresh(m), ['3', '4']);
  });

  test('a finding the service gave a new id is not new when its classification, file and line text match', async () => {
    const m = model();
    await m.apply(FOLDER, completed(scanRef('f1'), [issue('1', 'a.js', 2)]));
    await m.apply(FOLDER, completed(scanRef('f2'), [issue('one-again', 'a.js', 2), issue('2', 'a.js', 5)]));
    assert.deepEqual(fresh(m), ['2']);
  });

  test('a partial scan marks against the same baseline; a later full scan moves the baseline', async () => {
    const m = model();
    await m.apply(FOLDER, completed(scanRef('f1'), [issue('1', 'a.js', 2)]));
    await m.apply(FOLDER, completed(scanRef('f2'), [issue('1', 'a.js', 2), issue('2', 'b.js', 3)]));
    await m.apply(FOLDER, completed(scanRef('p1', ['c.js']), [issue('3', 'c.js', 1)]));
    assert.deepEqual(fresh(m), ['2', '3'], 'the partial scan\'s finding is new too; the full scan\'s stays new');
    await m.apply(FOLDER, completed(scanRef('f3'), [issue('1', 'a.js', 2), issue('2', 'b.js', 3), issue('3', 'c.js', 1)]));
    assert.deepEqual(fresh(m), [], 'everything was there before the latest full scan');
  });

  test('the baseline and the marks are stored with the results and read back', async () => {
    const m = model();
    await m.apply(FOLDER, completed(scanRef('f1'), [issue('1', 'a.js', 2)]));
    await m.apply(FOLDER, completed(scanRef('f2'), [issue('1', 'a.js', 2), issue('2', 'b.js', 3)]));
    const { folders } = m.snapshot();
    const records = JSON.parse(JSON.stringify(folders.flatMap(({ issues, ...f }) => [{ kind: 'folder', ...f }, { kind: 'issues', folderUri: f.folderUri, issues }])));
    const read = readRecords(records);
    assert.deepEqual(read.dropped, []);
    const again = model();
    again.load(read.folders);
    assert.deepEqual(fresh(again), ['2']);
    await again.apply(FOLDER, completed(scanRef('p1', ['c.js']), [issue('3', 'c.js', 1)]));
    assert.deepEqual(fresh(again), ['2', '3'], 'a partial scan after a reload still has the baseline');
  });

  test('Clear Results forgets the baseline: the next full scan marks nothing new', async () => {
    const m = model();
    await m.apply(FOLDER, completed(scanRef('f1'), [issue('1', 'a.js', 2)]));
    m.clear();
    await m.apply(FOLDER, completed(scanRef('f2'), [issue('1', 'a.js', 2), issue('2', 'b.js', 3)]));
    assert.deepEqual(fresh(m), []);
  });

  test('a refresh of the same scans keeps the marks', async () => {
    const m = model();
    await m.apply(FOLDER, completed(scanRef('f1'), [issue('1', 'a.js', 2)]));
    const f2 = scanRef('f2');
    await m.apply(FOLDER, completed(f2, [issue('1', 'a.js', 2), issue('2', 'b.js', 3)]));
    await m.replaceFolder(FOLDER, [{ scan: f2, issues: [issue('1', 'a.js', 2), issue('2', 'b.js', 3)], archived: new Set(['a.js', 'b.js']) }]);
    assert.deepEqual(fresh(m), ['2']);
  });
});

test('one to one: a second line that reads like a known finding\'s is new; the known one is not', async () => {
  const withText = (id: string, line: number) => ({ ...issue(id, 'src/a.js', line), lineText: 'debugger;' });
  const base = await baselineOf([withText('1', 3)]);
  // The service gives both new ids: one of them is the old finding, the other is new.
  const again = [withText('7', 3), withText('8', 9)];
  await markNew(again, base);
  assert.deepEqual(again.map((i) => !!i.isNew), [false, true]);
  // Known by its id, it keeps its place whatever comes first.
  const byId = [withText('8', 9), withText('1', 5)];
  await markNew(byId, base);
  assert.deepEqual(byId.map((i) => !!i.isNew), [true, false]);
});

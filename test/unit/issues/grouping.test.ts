import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupIssues, filterIssues, type StoredIssue } from '../../../src/core/issues';

function issue(id: string, path: string, line: number, urgency: string, cls: string, extra: Partial<StoredIssue> = {}): StoredIssue {
  return {
    id, path, line, urgency, classificationId: cls, classificationName: `${cls} name`,
    classificationDescription: '', status: 'open', falsePositive: false, ...extra,
  };
}

const issues = [
  issue('1', 'b.py', 10, 'low', 'CWE-1'),
  issue('2', 'a.py', 30, 'critical', 'CWE-2'),
  issue('3', 'a.py', 5, 'medium', 'CWE-1'),
  issue('4', 'c.py', 1, 'weird', 'CWE-1', { status: 'fixed', falsePositive: true }),
  issue('5', 'a.py', 7, 'high', 'CWE-3'),
];

test('groups by file, sorted by path, issues by line, with counts', () => {
  const groups = groupIssues(issues, 'file');
  assert.deepEqual(groups.map((g) => [g.key, g.count, g.issues.map((i) => i.id)]), [
    ['a.py', 3, ['3', '5', '2']],
    ['b.py', 1, ['1']],
    ['c.py', 1, ['4']],
  ]);
});

test('groups by urgency, most urgent first and unknown last', () => {
  assert.deepEqual(groupIssues(issues, 'urgency').map((g) => [g.key, g.count]), [
    ['critical', 1], ['high', 1], ['medium', 1], ['low', 1], ['weird', 1],
  ]);
});

test('groups by classification, largest group first, labelled with id and name', () => {
  const groups = groupIssues(issues, 'classification');
  assert.deepEqual(groups.map((g) => [g.label, g.count]), [
    ['CWE-1: CWE-1 name', 3], ['CWE-2: CWE-2 name', 1], ['CWE-3: CWE-3 name', 1],
  ]);
});

test('a tracked range decides the order inside a group', () => {
  const moved = issue('6', 'a.py', 1, 'low', 'CWE-9', { range: { start: { line: 99, character: 0 }, end: { line: 99, character: 3 } } });
  const ids = groupIssues([...issues, moved], 'file')[0].issues.map((i) => i.id);
  assert.deepEqual(ids, ['3', '5', '2', '6']);
});

test('filters by status and hides false positives on request', () => {
  assert.deepEqual(filterIssues(issues, { statuses: ['fixed'] }).map((i) => i.id), ['4']);
  assert.deepEqual(filterIssues(issues, { statuses: [] }).length, 5);
  assert.deepEqual(filterIssues(issues, { hideFalsePositives: true }).map((i) => i.id), ['1', '2', '3', '5']);
});

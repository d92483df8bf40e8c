import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareIssues, describeViewFilter, groupIssues, isViewFiltered, matchesView, sortedIssues, type StoredIssue, type ViewFilter } from '../../../src/core/issues';

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

test('groups by file, the file with the most urgent finding first, then by name; inside a group (once opened) most urgent first, with counts', () => {
  const groups = groupIssues(issues, 'file');
  assert.deepEqual(groups.map((g) => [g.key, g.count, sortedIssues(g.issues).map((i) => i.id)]), [
    ['a.py', 3, ['2', '5', '3']],
    ['b.py', 1, ['1']],
    ['c.py', 1, ['4']],
  ]);
  const more = [...issues, issue('6', 'z.py', 1, 'CR', 'CWE-9'), issue('7', 'd.py', 2, 'high', 'CWE-9'), issue('8', '0.py', 3, 'low', 'CWE-9')];
  assert.deepEqual(groupIssues(more, 'file').map((g) => g.key), ['a.py', 'z.py', 'd.py', '0.py', 'b.py', 'c.py'], 'critical files first (short codes too), unknown urgency last');
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

test('a tracked range decides the order of equally urgent findings', () => {
  const moved = issue('6', 'a.py', 1, 'medium', 'CWE-9', { range: { start: { line: 99, character: 0 }, end: { line: 99, character: 3 } } });
  const ids = sortedIssues(groupIssues([...issues, moved], 'file')[0].issues).map((i) => i.id);
  assert.deepEqual(ids, ['2', '5', '3', '6']);
});

test('inside a group: urgency, then reachable first, then file and line', () => {
  const same = [
    issue('u', 'b.py', 1, 'high', 'C', { reachable: false }),
    issue('r', 'b.py', 9, 'high', 'C', { reachable: true }),
    issue('n', 'a.py', 3, 'high', 'C'),
    issue('c', 'z.py', 1, 'critical', 'C'),
  ];
  assert.deepEqual(sortedIssues(groupIssues(same, 'classification')[0].issues).map((i) => i.id), ['c', 'r', 'n', 'u']);
});

test('view filters narrow by classification, status, urgency, reachability and assignee, combined', () => {
  const all = [
    issue('a', 'x.js', 1, 'critical', 'CWE-89', { classificationName: 'SQL Injection', reachable: true, assignee: { email: 'Me@Example.com' } }),
    issue('b', 'x.js', 2, 'HI', 'CWE-79', { classificationName: 'Cross-site Scripting', status: 'fixed' }),
    issue('c', 'x.js', 3, 'low', 'CWE-89', { classificationName: 'SQL Injection', reachable: false, assignee: { id: '7' } }),
  ];
  const ids = (f: ViewFilter) => all.filter((i) => matchesView(i, f)).map((i) => i.id);
  assert.deepEqual(ids({}), ['a', 'b', 'c']);
  assert.deepEqual(ids({ classification: 'injection' }), ['a', 'c']);
  assert.deepEqual(ids({ classification: 'cwe-79' }), ['b']);
  assert.deepEqual(ids({ statuses: ['fixed'] }), ['b']);
  assert.deepEqual(ids({ urgencies: ['high', 'critical'] }), ['a', 'b'], 'short codes match their full words');
  assert.deepEqual(ids({ reachableOnly: true }), ['a']);
  assert.deepEqual(ids({ assignedTo: { email: 'me@example.com' } }), ['a']);
  assert.deepEqual(ids({ assignedTo: { id: '7' } }), ['c']);
  assert.deepEqual(ids({ classification: 'sql', urgencies: ['low'] }), ['c']);
  assert.equal(isViewFiltered({}), false);
  assert.equal(describeViewFilter({ urgencies: ['critical'], reachableOnly: true }), 'urgency critical; reachable only');
});

test('a group opened is in the same order as compareIssues gives, over many paths, lines and urgencies', () => {
  const many: StoredIssue[] = Array.from({ length: 3000 }, (_, n) => ({
    ...issues[0]!, id: `id-${(n * 7919) % 3000}`, path: `src/f${n % 37}.ts`, urgency: ['low', 'critical', 'high', 'medium'][n % 4]!,
    line: 1 + (n * 13) % 50, range: n % 5 ? undefined : { start: { line: n % 50, character: 0 }, end: { line: n % 50, character: 3 } },
    reachable: n % 3 === 0 ? true : n % 3 === 1 ? undefined : false,
  }));
  assert.deepEqual(sortedIssues(many).map((i) => i.id), [...many].sort(compareIssues).map((i) => i.id));
});

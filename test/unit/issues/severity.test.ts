import { test } from 'node:test';
import assert from 'node:assert/strict';
import { severityFromUrgency, toStoredIssue, isFalsePositiveStatus } from '../../../src/core/issues';

test('urgency maps to severity', () => {
  const table: [string | undefined | null, string][] = [
    ['critical', 'error'], ['high', 'error'], ['HIGH', 'error'], [' medium ', 'warning'],
    ['low', 'information'], ['informational', 'warning'], ['', 'warning'], [undefined, 'warning'], [null, 'warning'],
  ];
  for (const [urgency, expected] of table) {
    assert.equal(severityFromUrgency(urgency), expected, `urgency ${JSON.stringify(urgency)}`);
  }
});

test('false-positive statuses are recognised, valid is not', () => {
  assert.equal(isFalsePositiveStatus('false_positive'), true);
  assert.equal(isFalsePositiveStatus('False_Positive'), true);
  assert.equal(isFalsePositiveStatus('valid'), false);
  assert.equal(isFalsePositiveStatus(undefined), false);
});

test('a service issue is normalised for storage', () => {
  const stored = toStoredIssue({
    id: 'a1',
    classification: { id: 'CWE-89', name: 'SQL Injection', description: 'Untrusted input in SQL' },
    urgency: 'High',
    status: 'open',
    location: { file: { path: './src/db.py', name: 'db.py' }, line_number: 12 },
    auto_triage: { false_positive_detection: { status: 'false_positive', reasoning: 'constant input' } },
    auto_fix_suggestion: { status: 'fix_available', patch: { diff: '--- a/x\n+++ b/x\n', explanation: 'Use parameters' } },
  });
  assert.deepEqual(stored, {
    id: 'a1', kind: 'quality', classificationId: 'CWE-89', classificationName: 'SQL Injection',
    classificationDescription: 'Untrusted input in SQL', urgency: 'high', status: 'open',
    path: 'src/db.py', line: 12, falsePositive: true, triageReasoning: 'constant input', triageStatus: 'false_positive',
    fileName: 'db.py',
    fix: { diff: '--- a/x\n+++ b/x\n', explanation: 'Use parameters', status: 'fix_available' },
    fixStatus: 'fix_available',
  });
  assert.equal(toStoredIssue({ id: 'b', location: null }), undefined, 'an issue without a file is dropped');
  assert.equal(toStoredIssue({ id: 'c', location: { file: { path: 'a.py' }, line_number: 0 } })?.line, 1);
});

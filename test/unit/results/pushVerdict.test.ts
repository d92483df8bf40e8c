// Which findings would block CI, and the verdict's words: a finding violating a policy that
// is not approved: false blocks; without policies (unreadable, or none) the verdict is
// unknown, never "would pass"; the words name the policies and what helps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockingPolicies, pushVerdict, verdictText } from '../../../src/core/results/pushVerdict';
import { issue } from './helpers';

const secrets = { id: 1, name: 'Secrets in code' };
const evalPolicy = { id: 2, name: 'No eval' };
const draft = { id: 3, name: 'Draft rule', unapproved: true as const };

test('a finding blocks by the policies it violates that are not unapproved', () => {
  assert.deepEqual(blockingPolicies({ ...issue('1', 'a.js'), policies: [secrets, draft] }), [secrets]);
  assert.deepEqual(blockingPolicies({ ...issue('1', 'a.js'), policies: [draft] }), []);
  assert.deepEqual(blockingPolicies(issue('1', 'a.js')), []);
});

test('blocked, clear or unknown; the words name the policies', () => {
  const findings = [
    { ...issue('1', 'a.js'), policies: [secrets] }, { ...issue('2', 'b.js'), policies: [secrets] }, { ...issue('3', 'c.js'), policies: [secrets, evalPolicy] },
    { ...issue('4', 'c.js'), policies: [draft] }, issue('5', 'd.js'),
  ];
  const v = pushVerdict({ what: 'staged', files: 7, findings, policies: 40 });
  assert.equal(v.kind, 'blocked');
  assert.equal(verdictText(v), 'CI would block: 3 findings violate Secrets in code (3) and No eval (1).');
  assert.equal(verdictText(pushVerdict({ what: 'staged', files: 1, findings: findings.slice(0, 1), policies: 3 })), 'CI would block: 1 finding violates Secrets in code.');
  const clear = pushVerdict({ what: 'branch', files: 7, findings: [issue('5', 'd.js')], policies: 40 });
  assert.equal(verdictText(clear), 'No policy violations in the 7 changed files.');
  assert.equal(verdictText(pushVerdict({ what: 'staged', files: 1, findings: [], policies: 2 })), 'No policy violations in the 1 staged file.');
});

test('without policies the verdict is unknown, never "would pass", with what helps', () => {
  const unreadable = pushVerdict({ what: 'staged', files: 3, findings: [], policies: undefined });
  assert.deepEqual(unreadable, { kind: 'unknown', what: 'staged', reason: 'policies-unreadable' });
  assert.match(verdictText(unreadable), /^Unknown whether CI would block this: the company's policies could not be read\. To know, .*permission/);
  const none = pushVerdict({ what: 'branch', files: 3, findings: [{ ...issue('1', 'a.js'), policies: [secrets] }], policies: 0 });
  assert.equal(none.kind, 'unknown', 'no policies: unknown even with findings');
  assert.match(verdictText({ kind: 'unknown', what: 'staged', reason: 'signed-out' }), /you are not signed in\. To know, sign in/);
  assert.match(verdictText({ kind: 'unknown', what: 'staged', reason: 'scan-failed', detail: 'the scan did not complete (it ran out of time)' }), /the scan did not complete \(it ran out of time\)\. To know, check again/);
});

test('a list of the scan that could not be read: what was read may still block; it never passes', () => {
  const ok = { id: '1', classificationId: 'CWE-1', classificationName: 'x', classificationDescription: '', urgency: 'low', status: 'open', path: 'a.js', line: 1, falsePositive: false };
  const clear = pushVerdict({ what: 'staged', files: 1, findings: [ok], policies: 2, incomplete: 'the dependency findings could not be read (HTTP 503)' });
  assert.deepEqual(clear, { kind: 'unknown', what: 'staged', reason: 'incomplete', detail: 'the dependency findings could not be read (HTTP 503)' });
  assert.match(verdictText(clear), /^Unknown whether CI would block this: the dependency findings could not be read \(HTTP 503\)\. To know, check again/);
  const blocked = pushVerdict({ what: 'staged', files: 1, findings: [{ ...ok, policies: [{ id: 1, name: 'P' }] }], policies: 2, incomplete: 'x' });
  assert.equal(blocked.kind, 'blocked');
});

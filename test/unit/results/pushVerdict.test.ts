// Which findings would block CI, and the verdict's words: a finding violating a policy that
// is not approved: false blocks; without policies (unreadable, or none) the verdict is
// unknown, never "would pass"; the words name the policies and what helps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockingPolicies, pushVerdict, verdictText } from '../../../src/core/results/pushVerdict';
import { issue } from './helpers';

const secrets = { id: 1, name: 'Secrets in code' };
/** Judged by the policies: said so. */
const POLICIES = ' No CI gate was found in the repository, so the company\'s policies decide.';
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
  assert.equal(verdictText(v), `CI would block: 3 findings violate Secrets in code (3) and No eval (1).${POLICIES}`);
  assert.equal(verdictText(pushVerdict({ what: 'staged', files: 1, findings: findings.slice(0, 1), policies: 3 })), `CI would block: 1 finding violates Secrets in code.${POLICIES}`);
  const clear = pushVerdict({ what: 'branch', files: 7, findings: [issue('5', 'd.js')], policies: 40 });
  assert.equal(verdictText(clear), `No policy violations in the 7 changed files.${POLICIES}`);
  assert.equal(verdictText(pushVerdict({ what: 'staged', files: 1, findings: [], policies: 2 })), `No policy violations in the 1 staged file.${POLICIES}`);
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

test('CI\'s gate decides where one is found, and the verdict names it and where it was read', () => {
  const workflow = { from: 'ci' as const, file: '.github/workflows/scan.yml', line: 12 };
  const sec = (id: string, urgency: string) => ({ ...issue(`security:${id}`, 'a.js'), kind: 'security' as const, urgency });
  const findings = [sec('7', 'high'), sec('8', 'medium'), { ...issue('7', 'b.js'), urgency: 'critical' }];
  // --fail-on HI: the high security finding trips it; code quality findings never do.
  const failOn = { gate: { kind: 'fail-on' as const, threshold: 'HI' as const, malicious: false }, source: workflow };
  const blocked = pushVerdict({ what: 'staged', files: 2, findings, policies: undefined, gate: failOn });
  assert.ok(blocked.kind === 'blocked');
  assert.deepEqual(blocked.blocking.map((b) => b.issue.id), ['security:7']);
  assert.equal(verdictText(blocked), 'CI would block: 1 finding trips --fail-on HI (.github/workflows/scan.yml:12).');
  const medium = pushVerdict({ what: 'staged', files: 2, findings: findings.slice(1), policies: undefined, gate: failOn });
  assert.equal(verdictText(medium), 'CI would pass --fail-on HI (.github/workflows/scan.yml:12) on the 2 staged files. This covers the staged files only.');
  // What was not seen is never a pass, whatever the gate.
  assert.equal(pushVerdict({ what: 'staged', files: 2, findings: findings.slice(1), policies: 3, gate: failOn, incomplete: 'the security findings could not be read' }).kind, 'unknown');
  // --block-on: the service's answer, its findings by the service's own id (a security one first).
  const blockOn = { gate: { kind: 'block-on' as const, slugs: ['criticals'] }, source: { from: 'setting' as const } };
  const judged = pushVerdict({ what: 'branch', files: 3, findings, policies: 0, gate: blockOn, service: { kind: 'judged', block: true, blocked: 2, issues: [{ id: '7', rules: ['Critical findings'], slugs: ['criticals'] }] } });
  assert.ok(judged.kind === 'blocked');
  assert.deepEqual(judged.blocking.map((b) => [b.issue.id, b.rules]), [['security:7', ['criticals']]]);
  assert.equal(verdictText(judged), 'CI would block: 2 findings break criticals (--block-on criticals in the setting codeScanner.ciGate).');
  const pass = pushVerdict({ what: 'branch', files: 3, findings, policies: 0, gate: blockOn, service: { kind: 'judged', block: false, blocked: 0, issues: [] } });
  assert.equal(verdictText(pass), 'CI would pass --block-on criticals (the setting codeScanner.ciGate) on the 3 changed files.');
  const refused = pushVerdict({ what: 'branch', files: 3, findings, policies: 0, gate: blockOn, service: { kind: 'refused', unknown: ['typo'], inactive: ['old'], nonCi: [] } });
  assert.equal(verdictText(refused), 'Unknown whether CI would block this: the service refuses CI\'s gate --block-on criticals (the setting codeScanner.ciGate): no rule named typo; old not active, so CI would stop there too. To know, correct the rules in the service\'s web app (its blocking rules) or CI\'s --block-on, then check again.');
  assert.equal(pushVerdict({ what: 'branch', files: 3, findings, policies: 0, gate: blockOn, service: { kind: 'not-ready', status: 'pending', waitedMs: 900_000 } }).kind, 'unknown');
  // A command without a gate: CI never fails on findings. One made when CI runs: unknown.
  assert.equal(verdictText(pushVerdict({ what: 'staged', files: 1, findings, policies: 0, gate: { gate: { kind: 'none' }, source: workflow } })), 'CI would pass: its scan (.github/workflows/scan.yml:12) has no --block-on, --fail or --fail-on, so findings never fail it.');
  const dynamic = pushVerdict({ what: 'staged', files: 1, findings, policies: 0, gate: { gate: { kind: 'unreadable', why: 'its --block-on value is made when CI runs (a variable or a secret)' }, source: workflow } });
  assert.match(verdictText(dynamic), /^Unknown whether CI would block this: CI's gate \(\.github\/workflows\/scan\.yml:12\) cannot be read: its --block-on value is made when CI runs .* set codeScanner\.ciGate/);
});

test('a branch judged whole names its commit: scanned anew, or by the service\'s own scan of it', () => {
  const gate = { gate: { kind: 'block-on' as const, slugs: ['criticals'] }, source: { from: 'ci' as const, file: 'Jenkinsfile', line: 3 } };
  const sha = '0123456789abcdef0123456789abcdef01234567';
  const pass = { kind: 'judged' as const, block: false, blocked: 0, issues: [] };
  assert.equal(verdictText(pushVerdict({ what: 'branch', files: 40, findings: [], policies: 0, gate, service: pass, commit: { sha, reused: false } })), 'CI would pass --block-on criticals (Jenkinsfile:3) on commit 0123456, its 40 files, as CI scans it.');
  assert.equal(verdictText(pushVerdict({ what: 'branch', files: 0, findings: [], policies: 0, gate, service: pass, commit: { sha, reused: true } })), 'CI would pass --block-on criticals (Jenkinsfile:3) on commit 0123456, judged on the service\'s own scan of it.');
  const blocked = pushVerdict({ what: 'branch', files: 0, findings: [issue('9', 'a.js')], policies: 0, gate, service: { kind: 'judged', block: true, blocked: 1, issues: [{ id: '9', rules: ['Critical findings'], slugs: ['criticals'] }] }, commit: { sha, reused: true } });
  assert.equal(verdictText(blocked), 'CI would block: 1 finding breaks criticals (--block-on criticals in Jenkinsfile:3). Judged on the service\'s own scan of commit 0123456.');
});

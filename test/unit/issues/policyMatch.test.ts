// Which of the company's policies a finding violates: an active, unarchived policy listing
// its CWE, of its project (or of every project), whose pattern takes its file and whose
// excludes do not. Text of the service's is kept as it is (renderings escape it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PolicySchema, type Policy } from '../../../src/core/api';
import { PolicyMatcher, cweNumber, groupIssues, matchesView, type StoredIssue } from '../../../src/core/issues';

function policy(p: Partial<Policy> & { id: number }): Policy {
  return PolicySchema.parse({ name: `P${p.id}`, cwes: ['CWE-798'], projects: [], active: true, glob_pattern: '**/*', excludes: [], guidance_text: `Guidance ${p.id}`, ...p });
}

function finding(o: Partial<StoredIssue> = {}): StoredIssue {
  return { id: 'i1', path: 'src/config.js', line: 1, classificationId: 'CWE-798', classificationName: 'Hard-coded credentials', classificationDescription: '', urgency: 'high', status: 'open', falsePositive: false, ...o };
}

const names = (m: PolicyMatcher, i: StoredIssue, project?: string) => m.violations(i, project).map((v) => v.name);

test('CWE ids are read in the spellings services use', () => {
  assert.equal(cweNumber('CWE-798'), 798);
  assert.equal(cweNumber('cwe_79'), 79);
  assert.equal(cweNumber(' 022 '), 22);
  assert.equal(cweNumber('SQLI'), undefined);
  assert.equal(cweNumber(undefined), undefined);
});

test('an active policy listing the CWE matches; an inactive, archived or other-CWE one does not', () => {
  const m = new PolicyMatcher([
    policy({ id: 1 }),
    policy({ id: 2, active: false }),
    policy({ id: 3, archived: true }),
    policy({ id: 4, cwes: ['CWE-79'] }),
    policy({ id: 5, cwes: ['798'] }),
  ]);
  assert.deepEqual(names(m, finding()), ['P1', 'P5']);
  assert.deepEqual(m.violations(finding(), undefined)[0], { id: 1, name: 'P1', guidance: 'Guidance 1' });
  assert.deepEqual(names(m, finding({ classificationId: 'QUALITY-1' })), [], 'no CWE, no policy');
});

test('projects: a company-wide policy applies everywhere; a project policy only to its project (the finding\'s, else the folder\'s)', () => {
  const m = new PolicyMatcher([policy({ id: 1, projects: ['payments-api'] }), policy({ id: 2, projects: [] })]);
  assert.deepEqual(names(m, finding(), 'payments-api'), ['P1', 'P2']);
  assert.deepEqual(names(m, finding(), 'web-shop'), ['P2']);
  assert.deepEqual(names(m, finding({ projectName: 'payments-api' }), 'web-shop'), ['P1', 'P2'], 'the service named the finding\'s project');
  assert.deepEqual(names(m, finding(), undefined), ['P2']);
});

test('the glob pattern takes the file, an exclude takes it back; a pattern that cannot be read matches nothing', () => {
  const m = new PolicyMatcher([
    policy({ id: 1, glob_pattern: 'src/**/*.js' }),
    policy({ id: 2, glob_pattern: '**/*.py' }),
    policy({ id: 3, glob_pattern: 'web/**/*.{js,ts}', excludes: ['**/test/**'] }),
    policy({ id: 4, glob_pattern: '' }),
    policy({ id: 5, glob_pattern: 'x'.repeat(5000) }),
    policy({ id: 6, glob_pattern: '**/*', excludes: ['src/**'] }),
    policy({ id: 7, glob_pattern: '**/*' }),
  ]);
  assert.deepEqual(names(m, finding()), ['P1', 'P4', 'P7']);
  assert.deepEqual(names(m, finding({ path: 'web/app/main.ts' })), ['P3', 'P4', 'P6', 'P7']);
  assert.deepEqual(names(m, finding({ path: 'web/test/main.ts' })), ['P4', 'P6', 'P7']);
  assert.deepEqual(names(m, finding({ path: '.config/secret.js' })), ['P4', 'P6', 'P7'], 'dot files are files too');
});

test('long guidance is shortened; the policy filter and grouping by policy read the matches', () => {
  const m = new PolicyMatcher([policy({ id: 1, guidance_text: 'g'.repeat(5000) }), policy({ id: 2, name: 'Secrets' })]);
  const [first] = m.violations(finding(), undefined);
  assert.ok(first!.guidance!.length <= 1000 && first!.guidance!.endsWith('…'));
  const a = { ...finding({ id: 'a' }), policies: m.violations(finding(), undefined) };
  const b = finding({ id: 'b', classificationId: 'CWE-79' });
  assert.equal(matchesView(a, { policyOnly: true }), true);
  assert.equal(matchesView(b, { policyOnly: true }), false);
  const groups = groupIssues([a, b], 'policy');
  assert.deepEqual(groups.map((g) => [g.label, g.issues.map((i) => i.id)]), [['P1', ['a']], ['Secrets', ['a']], ['No policy violated', ['b']]]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  memberLine, memberName, plural, policyDescription, policyDetailRows, policyState, policyTypes, roleLine, rolesSummary,
  sortedMembers, summarizeTeam,
} from '../../../src/core/account/format';
import type { Policy, Team } from '../../../src/core/api';

const member = (id: number, first: string, last: string, email = `${first.toLowerCase() || 'x'}${id}@acme.example`) =>
  ({ id, first_name: first, last_name: last, email });

function team(over: Partial<Team> = {}): Team {
  return {
    id: 1, name: 'Platform', active: true, members: [member(5, 'Alice', 'Anders'), member(6, 'Bob', 'Brown')],
    project_ids: [101, 102], project_tags: [], repo_url_patterns: [], project_count: 2,
    created_at: '2025-01-16T09:00:00Z', updated_at: '2025-01-18T09:00:00Z', ...over,
  };
}

function policy(over: Partial<Policy> = {}): Policy {
  return {
    id: 100, name: 'SQL injection guard', description: 'Stops SQL built from input', guidance_text: 'Use parameters',
    cwes: ['CWE-89'], excludes: [], projects: [], company: 1, active: true, approved: true, approved_by: 1,
    created_at: '2025-02-01T00:00:00Z', glob_pattern: '**/*.py', source_type: 'Web', repo_policy_file: 1, version: 2,
    archived: false, parent_policy: 0, read_only: false, created_by_corgea: false, ...over,
  };
}

test('role lines and summary count users', () => {
  assert.equal(roleLine({ name: 'Admin', user_count: 1 }), 'Admin — 1 user');
  assert.equal(roleLine({ name: 'Developer', user_count: 0 }), 'Developer — 0 users');
  assert.equal(roleLine({ name: 'Viewer', user_count: 12 }), 'Viewer — 12 users');
  assert.equal(rolesSummary([{ user_count: 2 }, { user_count: 3 }]), '2 roles, 5 users in all');
  assert.equal(rolesSummary([]), '0 roles, 0 users in all');
  assert.equal(plural(1, '{0} policy', '{0} policies'), '1 policy');
});

test('member names fall back to the email', () => {
  assert.equal(memberName(member(1, 'Ada', 'Lovelace')), 'Ada Lovelace');
  assert.equal(memberName(member(1, '', '', 'ada@x.example')), 'ada@x.example');
  assert.equal(memberLine(member(1, 'Ada', '', 'ada@x.example')), 'Ada <ada@x.example>');
  assert.equal(memberLine(member(1, '', '', 'ada@x.example')), 'ada@x.example');
});

test('summarizeTeam names the added members and the ones not in the team', () => {
  const t = team({ members: [member(5, 'Alice', 'Anders'), member(6, 'Bob', 'Brown'), member(7, 'Carol', 'Chen')] });
  const s = summarizeTeam(t, [7, 6]);
  assert.equal(s.message, 'Team "Platform" now has 3 members and 2 projects. Members: Carol Chen, Bob Brown.');
  assert.deepEqual(s.added.map((m) => m.id), [7, 6]);
  assert.deepEqual(s.missing, []);

  const partial = summarizeTeam(team({ active: false, project_count: 1 }), [5, 99]);
  assert.equal(partial.message, 'Team "Platform" now has 2 members and 1 project. Members: Alice Anders. Not in the team: #99. The team is inactive.');
  assert.deepEqual(partial.missing, [99]);

  const many = team({ members: [1, 2, 3, 4, 5].map((i) => member(i, `U${i}`, 'X')) });
  assert.match(summarizeTeam(many, [1, 2, 3, 4, 5]).message, /Members: U1 X, U2 X, U3 X and 2 more\.$/);
});

test('members are sorted by name', () => {
  const t = team({ members: [member(3, 'Zed', 'A'), member(1, 'Amy', 'B'), member(2, '', '', 'bo@x.example')] });
  assert.deepEqual(sortedMembers(t).map((m) => m.id), [1, 2, 3]);
});

test('policy description and state reflect flags, most important first', () => {
  const cases: [Partial<Policy>, boolean, string, ReturnType<typeof policyState>][] = [
    [{}, false, 'Web · v2', 'active'],
    [{}, true, 'target · Web · v2', 'active'],
    [{ active: false }, false, 'Web · v2 · inactive', 'inactive'],
    [{ archived: true, active: false }, false, 'Web · v2 · archived', 'archived'],
    [{ approved: false }, false, 'Web · v2 · not approved', 'unapproved'],
    [{ source_type: undefined }, false, 'v2', 'active'],
  ];
  for (const [over, isTarget, desc, state] of cases) {
    const p = policy(over);
    assert.equal(policyDescription(p, { isTarget }), desc, JSON.stringify(over));
    assert.equal(policyState(p), state);
  }
});

test('policy detail rows say company-wide when no project is set', () => {
  const rows = policyDetailRows(policy());
  assert.deepEqual(rows, [
    { label: 'Description', value: 'Stops SQL built from input' },
    { label: 'CWEs', value: 'CWE-89' },
    { label: 'Projects', value: 'all projects (company-wide)' },
    { label: 'Files', value: '**/*.py' },
    { label: 'Status', value: 'active, approved' },
    { label: 'Id', value: '#100 · version 2' },
  ]);
  const other = policyDetailRows(policy({ description: '', cwes: [], projects: ['a', 'b'], glob_pattern: undefined, excludes: ['x/**'], read_only: true, created_by_corgea: true, active: false }));
  assert.deepEqual(other.map((r) => `${r.label}=${r.value}`), [
    'CWEs=none', 'Projects=a, b', 'Excludes=x/**', 'Status=inactive, approved, read-only, created by the service', 'Id=#100 · version 2',
  ]);
});

test('policyTypes lists each source type once, case-insensitively', () => {
  const ps = [policy({ source_type: 'Web' }), policy({ source_type: 'web' }), policy({ source_type: 'API' }), policy({ source_type: undefined })];
  assert.deepEqual(policyTypes(ps), ['API', 'Web']);
});

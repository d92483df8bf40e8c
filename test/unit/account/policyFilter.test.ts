import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeFilter, filterToQuery, isFilterEmpty, parsePolicyFilter, parsePolicyTypes } from '../../../src/core/account/policyFilter';

test('filters turn into queries and descriptions', () => {
  const cases = [
    { f: {}, q: {}, d: '', empty: true },
    { f: { active: true }, q: { active: true }, d: 'active', empty: false },
    { f: { active: false }, q: { active: false }, d: 'inactive', empty: false },
    { f: { types: ['Web', 'API'] }, q: { policyTypes: ['Web', 'API'] }, d: 'Web, API', empty: false },
    { f: { types: [] }, q: {}, d: '', empty: true },
    { f: { project: 'backend' }, q: { project: 'backend' }, d: 'project backend', empty: false },
    { f: { active: true, types: ['Web'], project: 'p' }, q: { active: true, policyTypes: ['Web'], project: 'p' }, d: 'active · Web · project p', empty: false },
  ];
  for (const c of cases) {
    assert.deepEqual(filterToQuery(c.f), c.q, JSON.stringify(c.f));
    assert.equal(describeFilter(c.f), c.d);
    assert.equal(isFilterEmpty(c.f), c.empty);
  }
});

test('policy types are trimmed and deduplicated case-insensitively', () => {
  assert.deepEqual(parsePolicyTypes(' Web , api,WEB,, '), { ok: true, value: ['Web', 'api'] });
  assert.deepEqual(parsePolicyTypes(''), { ok: true, value: [] });
  assert.equal(parsePolicyTypes(5).ok, false);
});

test('parsePolicyFilter reads stored or passed filters defensively', () => {
  assert.deepEqual(parsePolicyFilter(undefined), { ok: true, value: {} });
  assert.deepEqual(parsePolicyFilter({ active: null, types: 'Web', project: ' ' }), { ok: true, value: { types: ['Web'] } });
  assert.deepEqual(parsePolicyFilter({ active: false, project: 'x' }), { ok: true, value: { active: false, project: 'x' } });
  assert.equal(parsePolicyFilter({ active: 'yes' }).ok, false);
  assert.equal(parsePolicyFilter([1]).ok, false);
  assert.equal(parsePolicyFilter({ project: 3 }).ok, false);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMemberIds, parsePolicyIds, parseTeamId, parseUuid } from '../../../src/core/account/ids';

test('parseTeamId accepts positive whole numbers, with or without #', () => {
  const cases: [unknown, number][] = [['42', 42], [' 7 ', 7], ['#3', 3], [12, 12], ['0012', 12]];
  for (const [input, want] of cases) assert.deepEqual(parseTeamId(input), { ok: true, value: want }, String(input));
});

test('parseTeamId explains what is wrong', () => {
  const cases: [unknown, RegExp][] = [
    ['', /Enter the id of the team/],
    ['   ', /Enter the id of the team/],
    [undefined, /Enter the id of the team/],
    ['abc', /"abc" is not a team id/],
    ['0', /"0" is not a team id/],
    ['-4', /"-4" is not a team id/],
    ['4.5', /"4.5" is not a team id/],
    ['1e3', /"1e3" is not a team id/],
    ['99999999999999999999', /is not a team id/],
    [0, /0 is not a team id/],
    [2.5, /is not a team id/],
  ];
  for (const [input, re] of cases) {
    const r = parseTeamId(input);
    assert.equal(r.ok, false, String(input));
    if (!r.ok) assert.match(r.message, re);
  }
});

test('parseMemberIds splits on commas, spaces and semicolons and drops duplicates', () => {
  const cases: [unknown, number[]][] = [
    ['7', [7]],
    ['7, 12', [7, 12]],
    ['7,12,,7', [7, 12]],
    ['7 12;#13', [7, 12, 13]],
    [' 5 ,\n6 ', [5, 6]],
    [[3, '4', 3], [3, 4]],
  ];
  for (const [input, want] of cases) assert.deepEqual(parseMemberIds(input), { ok: true, value: want }, JSON.stringify(input));
});

test('parseMemberIds names the bad id', () => {
  const cases: [unknown, RegExp][] = [
    ['', /Enter one or more user ids/],
    [' , ', /Enter one or more user ids/],
    [[], /Enter one or more user ids/],
    [{}, /Enter one or more user ids/],
    ['7, bob', /"bob" is not a user id/],
    ['7, 0', /"0" is not a user id/],
    ['7, -1', /"-1" is not a user id/],
    [[1, 1.5], /"1.5" is not a user id/],
  ];
  for (const [input, re] of cases) {
    const r = parseMemberIds(input);
    assert.equal(r.ok, false, JSON.stringify(input));
    if (!r.ok) assert.match(r.message, re);
  }
});

test('parseUuid accepts the 8-4-4-4-12 form only', () => {
  const good = '3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f';
  assert.deepEqual(parseUuid(good), { ok: true, value: good });
  assert.deepEqual(parseUuid(` ${good.toUpperCase()} `), { ok: true, value: good.toUpperCase() });
  assert.deepEqual(parseUuid(`{${good}}`), { ok: true, value: good });
  for (const bad of ['3f2b8c1e4d5a4b6c9e7f0a1b2c3d4e5f', '3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5', 'zf2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f', `${good}/x`]) {
    const r = parseUuid(bad);
    assert.equal(r.ok, false, bad);
    if (!r.ok) assert.match(r.message, /is not a UUID/);
  }
  const empty = parseUuid('');
  assert.equal(empty.ok, false);
  if (!empty.ok) assert.match(empty.message, /Enter the integration UUID/);
});

test('parsePolicyIds takes a list of ids', () => {
  assert.deepEqual(parsePolicyIds([1, '2', 1]), { ok: true, value: [1, 2] });
  assert.deepEqual(parsePolicyIds([]), { ok: true, value: [] });
  assert.equal(parsePolicyIds('1,2').ok, false);
  assert.equal(parsePolicyIds([1, 'x']).ok, false);
  assert.equal(parsePolicyIds([0]).ok, false);
});

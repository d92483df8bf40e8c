// Adding a field to a finding takes its storage too: the type checker fails here when
// StoredIssue has a field the results file's schema does not check (core/results/storage.ts),
// naming it; a field that is deliberately not kept is listed with why. At run time, a finding
// with every field set is read back whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredIssue } from '../../../src/core/issues';
import { readStoredIssue, type StoredIssueRecordField } from '../../../src/core/results/storage';

/** Fields of a finding that are made again at each reading, never kept (none today). */
type NotKept = never;

type Unchecked = Exclude<keyof StoredIssue, StoredIssueRecordField | NotKept>;
// A compile error here names a StoredIssue field the stored record's schema lacks: add it there.
const unchecked: [Unchecked] extends [never] ? 'every field is checked' : Unchecked = 'every field is checked';

test('every field of a finding is in the stored record\'s schema, or listed as made again at each reading', () => {
  assert.equal(unchecked, 'every field is checked');
});

test('a finding with every kept field set is read back whole; a damaged one is not read', () => {
  const full: Required<Omit<StoredIssue, NotKept>> = {
    id: 'security:7', kind: 'security', classificationId: 'CWE-89', classificationName: 'SQL Injection', classificationDescription: 'd', urgency: 'HI', status: 'open',
    path: 'src/db.ts', line: 3, falsePositive: false, triageReasoning: 'r', fix: { diff: '--- a\n+++ b\n', explanation: 'e', status: 'ok' }, fixStatus: 'fix_available',
    range: { start: { line: 2, character: 0 }, end: { line: 2, character: 4 } }, lineText: 'x', inArchive: true, stale: false, createdAt: '2026-11-01', slaStatus: 'ok',
    triageStatus: 'tp', fixId: 'f', reachable: true, endpointCount: 2, assignee: { id: '1', email: 'a@b.c', name: 'A' }, fileName: 'db.ts', language: 'TypeScript',
    projectName: 'p', branch: 'main', gitSha: 'abc', scannerMetadata: '{}', isNew: true, policies: [{ id: 1, name: 'P', guidance: 'g' }], explanation: 'x',
    dependency: { name: 'lodash', version: '1', ecosystem: 'npm', fixVersion: '2', cve: 'CVE-1', malicious: true },
    blocksCi: ['criticals'], newInBranch: true,
  };
  assert.deepEqual(readStoredIssue(JSON.parse(JSON.stringify(full))), full);
  assert.equal(readStoredIssue({ ...full, blocksCi: 'criticals' }), undefined, 'a rule list that is not a list');
});

// The single statement of what the client depends on: for each resource, the fields whose
// absence makes a record unreadable. decisions.md allows exactly these; adding a required
// field is a contract decision (change decisions.md and this table together).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import * as S from '../../../src/core/api/schemas';
import { sampleIntegration, sampleIssue, samplePolicy, sampleTeam } from './samples';

const REQUIRED: Record<string, { schema: z.ZodType; sample: unknown; required: string[] }> = {
  QualityIssue: { schema: S.QualityIssueSchema, sample: sampleIssue(), required: ['id', 'location', 'location.file'] },
  SecurityIssue: { schema: S.SecurityIssueSchema, sample: { ...sampleIssue(), scan_id: 's', details: { explanation: 'why' } }, required: ['id', 'location', 'location.file'] },
  DependencyIssue: {
    schema: S.DependencyIssueSchema,
    sample: { id: 'd', created_at: '2026-01-01T00:00:00Z', description: 'x', details: 'y', severity: 'high', classification: 'vulnerable', cve: 'CVE-2021-1', package: { name: 'p', version: '1', ecosystem: 'npm', fix_version: '2' }, location: { path: 'package.json' } },
    required: ['id', 'location', 'location.path'],
  },
  BlockingRules: { schema: S.BlockingRulesSchema, sample: { block: true, blocking_issues: [], total_pages: 1, stats: { blocked_issues: 0 }, status: 'complete' }, required: ['block'] },
  QualityIssuesPage: { schema: S.QualityIssuesPageSchema, sample: { status: 'ok', page: 1, total_pages: 1, total_issues: 1, issues: [sampleIssue()] }, required: ['issues'] },
  Role: { schema: S.RoleSchema, sample: { id: 1, name: 'Admin', user_count: 2, created_at: '2026-01-01T00:00:00Z' }, required: ['name'] },
  RolesPage: { schema: S.RolesPageSchema, sample: { status: 'ok', roles: [], page: 1, total_pages: 1, total_roles: 0 }, required: ['roles'] },
  Team: { schema: S.TeamSchema, sample: sampleTeam(), required: ['id'] },
  TeamResponse: { schema: S.TeamResponseSchema, sample: { team: sampleTeam() }, required: ['team', 'team.id'] },
  Member: { schema: S.MemberSchema, sample: sampleTeam().members[0], required: ['id'] },
  Integration: { schema: S.IntegrationSchema, sample: sampleIntegration(), required: [] },
  IntegrationUpdateResponse: { schema: S.IntegrationUpdateResponseSchema, sample: { status: 'ok', integration: sampleIntegration(), credentials_verified: true }, required: [] },
  Policy: { schema: S.PolicySchema, sample: samplePolicy(), required: ['id', 'name'] },
  PoliciesPage: { schema: S.PoliciesPageSchema, sample: { policies: [], pagination: { total_count: 0, total_pages: 0, current_page: 1, page_size: 30 } }, required: ['policies'] },
  VerifyResponse: { schema: S.VerifyResponseSchema, sample: { status: 'ok', user: { id: 1, email: 'a@b.c', name: 'A', company: { id: 2, name: 'C' } } }, required: ['status'] },
  StartTransferResponse: { schema: S.StartTransferResponseSchema, sample: { transfer_id: 't' }, required: ['transfer_id'] },
};

/** Every object key path of `v` (not into arrays). */
function paths(v: unknown, prefix = ''): string[] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
  return Object.entries(v).flatMap(([k, x]) => [prefix + k, ...paths(x, `${prefix}${k}.`)]);
}

function without(v: unknown, path: string): unknown {
  const copy = structuredClone(v) as Record<string, unknown>;
  const keys = path.split('.');
  let cur = copy;
  for (const k of keys.slice(0, -1)) cur = cur[k] as Record<string, unknown>;
  delete cur[keys[keys.length - 1]];
  return copy;
}

for (const [name, { schema, sample, required }] of Object.entries(REQUIRED)) {
  test(`${name}: the fields a record cannot do without are exactly ${required.length ? required.join(', ') : 'none'}`, () => {
    assert.equal(schema.safeParse(sample).success, true, 'the full sample reads');
    const found = paths(sample).filter((p) => !schema.safeParse(without(sample, p)).success);
    assert.deepEqual(found, required);
  });
}

test('QualityIssue: the file may be named by path or by name, but by one of them', () => {
  const issue = sampleIssue();
  assert.equal(S.QualityIssueSchema.safeParse(without(issue, 'location.file.path')).success, true);
  assert.equal(S.QualityIssueSchema.safeParse(without(issue, 'location.file.name')).success, true);
  assert.equal(S.QualityIssueSchema.safeParse(without(without(issue, 'location.file.name'), 'location.file.path')).success, false);
});

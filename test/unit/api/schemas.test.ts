import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeSchemaError,
  RolesPageSchema,
  QualityIssueSchema,
  PolicySchema,
  TeamSchema,
  IntegrationSchema,
  VerifyResponseSchema,
  PoliciesPageSchema,
  QualityIssuesPageSchema,
} from '../../../src/core/api/schemas';
import { sampleIssue, samplePolicy, sampleTeam, sampleIntegration } from './samples';

function firstError(schema: { safeParse(d: unknown): { success: boolean; error?: unknown } }, data: unknown): string {
  const r = schema.safeParse(data);
  assert.equal(r.success, false, 'expected the data to be rejected');
  return describeSchemaError(r.error as never, data);
}

test('valid samples of every resource parse, and extra fields are kept', () => {
  const issue = QualityIssueSchema.parse({ ...sampleIssue(), brand_new_field: 1 });
  assert.equal((issue as Record<string, unknown>).brand_new_field, 1);
  PolicySchema.parse(samplePolicy());
  TeamSchema.parse(sampleTeam());
  IntegrationSchema.parse(sampleIntegration());
  VerifyResponseSchema.parse({ status: 'ok', user: { id: 1, email: 'a@b.c', name: 'A', company: { id: 2, name: 'C' } } });
  PoliciesPageSchema.parse({ policies: [samplePolicy()], pagination: { total_count: 1, total_pages: 1, current_page: 1, page_size: 30 } });
  QualityIssuesPageSchema.parse({ status: 'ok', page: 1, total_pages: 1, total_issues: 1, issues: [sampleIssue()] });
});

test('optional nested objects accept null or absence', () => {
  const nulls = { ...sampleIssue(), assigned_to: null, reachability: null, auto_fix_suggestion: null, auto_triage: null, scanner_metadata: null, sla_status: null };
  QualityIssueSchema.parse(nulls);
  const { assigned_to: _a, reachability: _r, auto_fix_suggestion: _f, auto_triage: _t, scanner_metadata: _s, ...absent } = sampleIssue();
  QualityIssueSchema.parse(absent);
  PolicySchema.parse({ ...samplePolicy(), approved_by: null, parent_policy: null, repo_policy_file: null });
  const fixWithoutPatch = { ...sampleIssue(), auto_fix_suggestion: { id: 'f', status: 'no_fix', patch: null } };
  QualityIssueSchema.parse(fixWithoutPatch);
});

test('mismatches name the field path and the expected type', () => {
  const role = { id: 1, name: 'Admin', user_count: 2, created_at: '2026-01-01T00:00:00Z' };
  const page = (roles: unknown[]) => ({ status: 'ok', roles, page: 1, total_pages: 1, total_roles: roles.length });
  const cases: [{ safeParse(d: unknown): { success: boolean } }, unknown, string][] = [
    [RolesPageSchema, page([{ ...role, user_count: 'two' }]), 'roles[0].user_count: expected number (got string)'],
    [RolesPageSchema, page([role, { ...role, user_count: 1.5 }]), 'roles[1].user_count: expected integer (got a fractional number)'],
    [RolesPageSchema, page([{ ...role, created_at: 'yesterday' }]), 'roles[0].created_at: expected an ISO 8601 date-time'],
    [RolesPageSchema, { ...page([]), total_pages: undefined }, 'total_pages: expected number (missing)'],
    [RolesPageSchema, [], '(response body): expected object (got array)'],
    [QualityIssueSchema, { ...sampleIssue(), location: { ...sampleIssue().location, line_number: null } }, 'location.line_number: expected number (got null)'],
    [QualityIssueSchema, { ...sampleIssue(), classification: undefined }, 'classification: expected object (missing)'],
    [QualityIssueSchema, { ...sampleIssue(), urgency: 3 }, 'urgency: expected string (got number)'],
    [QualityIssueSchema, { ...sampleIssue(), auto_fix_suggestion: { id: 'x', status: 'fix_available', patch: { explanation: 'e' } } }, 'auto_fix_suggestion.patch.diff: expected string (missing)'],
    [QualityIssueSchema, { ...sampleIssue(), reachability: { is_reachable: 'yes', endpoint_count: 1 } }, 'reachability.is_reachable: expected boolean (got string)'],
    [TeamSchema, { ...sampleTeam(), members: [{ id: 1, email: 'a@b.c', first_name: 'A' }] }, 'members[0].last_name: expected string (missing)'],
    [PolicySchema, { ...samplePolicy(), cwes: 'CWE-79' }, 'cwes: expected array (got string)'],
    [IntegrationSchema, { ...sampleIntegration(), expired: 'no' }, 'expired: expected boolean (got string)'],
  ];
  for (const [schema, data, want] of cases) assert.equal(firstError(schema, data), want);
});

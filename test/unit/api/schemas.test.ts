// How answers are read (decisions.md, "What the service's own public clients show about
// real answers"): only what is needed to show a thing is required; everything else may be
// null, absent or odd and reads as undefined; lists keep the readable records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeSchemaError,
  readEach,
  RolesPageSchema,
  QualityIssueSchema,
  QualityIssuesPageSchema,
  PolicySchema,
  TeamSchema,
  IntegrationSchema,
  VerifyResponseSchema,
  PoliciesPageSchema,
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

test('optional fields read as undefined when null, absent or of another type', () => {
  const odd = {
    ...sampleIssue(),
    id: 12345,
    urgency: 3,
    classification: { id: 'CWE-95', name: null, description: null },
    sla_status: null,
    assigned_to: 'nobody',
    reachability: { is_reachable: 'yes', endpoint_count: '2' },
    auto_fix_suggestion: { status: 'no_fix' },
    auto_triage: { false_positive_detection: null },
    scanner_metadata: [],
    created_at: 'yesterday',
    location: { file: { name: 'app.js', path: null }, project: null, line_number: '12' },
  };
  const i = QualityIssueSchema.parse(odd);
  assert.equal(i.id, '12345', 'ids need not be UUIDs (nor strings)');
  assert.equal(i.urgency, undefined);
  assert.equal(i.classification?.name, undefined);
  assert.equal(i.assigned_to, undefined);
  assert.equal(i.reachability?.is_reachable, undefined);
  assert.equal(i.reachability?.endpoint_count, 2);
  assert.deepEqual({ ...i.auto_fix_suggestion }, { status: 'no_fix' });
  assert.equal(i.scanner_metadata, undefined);
  assert.equal(i.location.file.name, 'app.js');
  assert.equal(i.location.line_number, 12);
  assert.equal(i.created_at, 'yesterday', 'dates are kept as text and judged where they are shown');
  const p = PolicySchema.parse({ id: 1, name: 'P', cwes: 'CWE-79', active: 'yes', version: null, projects: ['a', 3, 'b'] });
  assert.equal(p.cwes, undefined);
  assert.equal(p.active, undefined);
  assert.deepEqual(p.projects, ['a', 'b'], 'readable list items are kept');
  const t = TeamSchema.parse({ id: 1, members: [{ id: 2 }, { email: 'no-id@x' }, { id: 3, email: null }] });
  assert.deepEqual(t.members?.map((m) => m.id), [2, 3]);
  IntegrationSchema.parse({});
  VerifyResponseSchema.parse({ status: 'ok', user: { company: null } });
});

test('one unreadable record is left out and described, the others are read', () => {
  const raw = [sampleIssue(), { ...sampleIssue(), id: 'broken', location: null }, { ...sampleIssue(), id: undefined }, { ...sampleIssue(), id: 'x2' }];
  const { items, unreadable } = readEach(QualityIssueSchema, raw);
  assert.deepEqual(items.map((i) => i.id), [sampleIssue().id, 'x2']);
  assert.deepEqual(unreadable, [
    { index: 1, id: 'broken', reason: 'location: expected object (got null)' },
    { index: 2, reason: 'id: expected a string or a number (missing)' },
  ]);
});

test('mismatches of required fields name the field path and the expected type, never the value', () => {
  const cases: [{ safeParse(d: unknown): { success: boolean } }, unknown, string][] = [
    [RolesPageSchema, { roles: 'none' }, 'roles: expected array (got string)'],
    [RolesPageSchema, [], '(response body): expected object (got array)'],
    [QualityIssuesPageSchema, { status: 'ok' }, 'issues: expected array (missing)'],
    [QualityIssueSchema, { ...sampleIssue(), location: { file: {} } }, 'location.file.path: expected string (missing, and no location.file.name either)'],
    [QualityIssueSchema, { ...sampleIssue(), location: { file: { path: ' ', name: '' } } }, 'location.file.path: expected string (missing, and no location.file.name either)'],
    [PolicySchema, { ...samplePolicy(), name: 42 }, 'name: expected string (got number)'],
    [PolicySchema, { ...samplePolicy(), id: 1.5 }, 'id: expected integer (got a fractional number)'],
    [VerifyResponseSchema, { user: {} }, 'status: expected string (missing)'],
  ];
  for (const [schema, data, want] of cases) assert.equal(firstError(schema, data), want);
});

// zod schemas mirroring the resource tables of the service spec field by field. Objects
// are loose: fields the spec does not list are kept and never rejected, so a newer
// server does not break this client. Optional nested objects that a real server sends
// as null (nobody assigned, no fix, no parent policy, ...) accept null or absence; the
// fields the extension relies on (ids, classification, location, urgency, status) are
// required, so a response without them fails loudly instead of showing half an issue.

import { z } from 'zod';

/** ISO 8601 date-time: any string Date.parse understands (servers vary in precision/offset). */
const dateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'expected an ISO 8601 date-time' });
const int = z.int();
const optionalNullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

// ---- Role (CompanyRole)
export const RoleSchema = z.looseObject({
  id: int,
  name: z.string(),
  user_count: int,
  created_at: dateTime,
});

export const RolesPageSchema = z.looseObject({
  status: z.string(),
  roles: z.array(RoleSchema),
  page: int,
  total_pages: int,
  total_roles: int,
});

// ---- Team and Member
export const MemberSchema = z.looseObject({
  id: int,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});

export const TeamSchema = z.looseObject({
  id: int,
  name: z.string(),
  active: z.boolean(),
  members: z.array(MemberSchema),
  project_ids: z.array(int),
  project_tags: z.array(z.string()),
  repo_url_patterns: z.array(z.string()),
  project_count: int,
  created_at: dateTime,
  updated_at: dateTime,
});

export const TeamResponseSchema = z.looseObject({ team: TeamSchema });

// ---- Pipeline-provider integration (secure_token is write-only and never returned)
export const IntegrationSchema = z.looseObject({
  id: int,
  uuid: z.string(),
  type: z.string(),
  name: z.string(),
  account_id: z.string(),
  account_name: optionalNullable(z.string()),
  org_allowlist: z.array(z.string()),
  base_url: optionalNullable(z.string()),
  gateway_prefix: optionalNullable(z.string()),
  expired: z.boolean(),
  created_at: dateTime,
  updated_at: dateTime,
});

export const IntegrationUpdateResponseSchema = z.looseObject({
  status: z.string(),
  integration: IntegrationSchema,
  credentials_verified: z.boolean(),
});

// ---- Policy
export const PolicySchema = z.looseObject({
  id: int,
  name: z.string(),
  description: optionalNullable(z.string()),
  guidance_text: optionalNullable(z.string()),
  cwes: z.array(z.string()),
  excludes: z.array(z.string()),
  projects: z.array(z.string()),
  company: int,
  active: z.boolean(),
  approved: z.boolean(),
  approved_by: optionalNullable(int),
  created_at: dateTime,
  glob_pattern: optionalNullable(z.string()),
  source_type: optionalNullable(z.string()),
  repo_policy_file: optionalNullable(int),
  version: int,
  archived: z.boolean(),
  parent_policy: optionalNullable(int),
  read_only: z.boolean(),
  created_by_corgea: z.boolean(),
});

export const PaginationSchema = z.looseObject({
  total_count: int,
  total_pages: int,
  current_page: int,
  page_size: int,
});

export const PoliciesPageSchema = z.looseObject({
  policies: z.array(PolicySchema),
  pagination: PaginationSchema,
});

// ---- Code quality issue
export const ClassificationSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: optionalNullable(z.string()),
});

export const IssueLocationSchema = z.looseObject({
  file: z.looseObject({
    name: z.string(),
    language: optionalNullable(z.string()),
    path: z.string(),
  }),
  project: z.looseObject({
    name: z.string(),
    branch: optionalNullable(z.string()),
    git_sha: optionalNullable(z.string()),
  }),
  line_number: int,
});

export const AutoTriageSchema = z.looseObject({
  false_positive_detection: optionalNullable(
    z.looseObject({
      status: z.string(),
      reasoning: optionalNullable(z.string()),
    }),
  ),
});

export const AutoFixSuggestionSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  patch: optionalNullable(
    z.looseObject({
      diff: z.string(),
      explanation: optionalNullable(z.string()),
    }),
  ),
});

export const AssigneeSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
});

export const ReachabilitySchema = z.looseObject({
  is_reachable: z.boolean(),
  endpoint_count: int,
});

export const QualityIssueSchema = z.looseObject({
  id: z.string(),
  classification: ClassificationSchema,
  urgency: z.string(),
  created_at: dateTime,
  status: z.string(),
  sla_status: optionalNullable(z.string()),
  location: IssueLocationSchema,
  auto_triage: optionalNullable(AutoTriageSchema),
  auto_fix_suggestion: optionalNullable(AutoFixSuggestionSchema),
  assigned_to: optionalNullable(AssigneeSchema),
  scanner_metadata: optionalNullable(z.record(z.string(), z.unknown())),
  reachability: optionalNullable(ReachabilitySchema),
});

export const QualityIssuesPageSchema = z.looseObject({
  status: z.string(),
  page: int,
  total_pages: int,
  total_issues: int,
  issues: z.array(QualityIssueSchema),
});

// ---- Verified user and /verify
export const VerifiedUserSchema = z.looseObject({
  id: int,
  email: z.string(),
  name: z.string(),
  company: z.looseObject({ id: int, name: z.string() }),
});

export const VerifyResponseSchema = z.looseObject({
  status: z.string(),
  user: VerifiedUserSchema.optional(),
});

// ---- Upload transfer values
export const StartTransferResponseSchema = z.looseObject({
  transfer_id: z.string().min(1),
});

/** Body of any successful PATCH; which kind of answer it is depends on header and fields. */
export const ChunkResponseSchema = z.looseObject({
  status: z.string().optional(),
  message: z.string().optional(),
  scan_id: optionalNullable(z.union([z.string().min(1), int])),
  project_id: optionalNullable(z.union([z.string(), int])),
});

export type Role = z.infer<typeof RoleSchema>;
export type RolesPage = z.infer<typeof RolesPageSchema>;
export type Member = z.infer<typeof MemberSchema>;
export type Team = z.infer<typeof TeamSchema>;
export type Integration = z.infer<typeof IntegrationSchema>;
export type Policy = z.infer<typeof PolicySchema>;
export type Pagination = z.infer<typeof PaginationSchema>;
export type PoliciesPage = z.infer<typeof PoliciesPageSchema>;
export type QualityIssue = z.infer<typeof QualityIssueSchema>;
export type QualityIssuesPage = z.infer<typeof QualityIssuesPageSchema>;
export type VerifiedUser = z.infer<typeof VerifiedUserSchema>;

/** `roles[0].user_count` style path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out === '' ? '(response body)' : out;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && !Number.isInteger(v)) return 'a fractional number';
  return typeof v;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

/**
 * First schema mismatch as "path: expected X, got Y". Only types are described, never
 * values, so nothing the server sent (or a secret) ends up in an error message.
 */
export function describeSchemaError(error: z.ZodError, data: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'does not match the expected shape';
  const where = formatPath(issue.path);
  if (issue.code === 'invalid_type') {
    const expected = issue.expected === 'int' ? 'integer' : issue.expected;
    const actual = valueAt(data, issue.path);
    const got = actual === undefined ? 'missing' : `got ${describeValue(actual)}`;
    return `${where}: expected ${expected} (${got})`;
  }
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

// zod schemas for the service's answers, in two parts per resource (decisions.md, "What
// the service's own public clients show about real answers"):
//
//  - what we REQUIRE: only the fields needed to show or use a thing at all (an issue's id
//    and file; a policy's id and name). A record without them is unreadable; lists leave
//    it out and count it (readEach) instead of failing the page.
//  - what we READ IF PRESENT: every other field of the spec's tables. It may be null,
//    absent or of another type in practice; then it reads as undefined and never fails
//    the answer. Enumerations are open strings.
//
// Objects are loose: fields the spec does not list are kept. test/unit/api/requiredFields
// lists the required fields per resource and fails when one is added without a decision.
//
// Each is built when first used (z.lazy): built together they held the editor's extension
// host while the extension loaded, before any answer had to be read.

import { z } from 'zod';

/** Read if present: null, absence or another type read as undefined. */
function present<T extends z.ZodType>(t: T) {
  return t.optional().catch(undefined);
}

/** A list of which only the readable items are kept; anything but an array reads as undefined. */
function listOf<T extends z.ZodType>(item: T) {
  return z.unknown().optional().transform((v): z.output<T>[] | undefined => {
    if (!Array.isArray(v)) return undefined;
    const out: z.output<T>[] = [];
    for (const x of v) {
      const r = item.safeParse(x);
      if (r.success) out.push(r.data);
    }
    return out;
  });
}

const str = z.string();
const int = z.int();
/** Whole numbers, also when a server sends them as digit strings. */
const wholeNumber = z.union([z.int(), z.string().regex(/^-?\d+$/).transform(Number)]);
/** An id of any scalar shape (not necessarily a UUID), as text. */
const anyId = z.union([z.string().min(1), z.number()]).transform(String);

// ---- Role (CompanyRole)
export const RoleSchema = z.lazy(() => z.looseObject({
  name: str,
  id: present(int),
  user_count: present(wholeNumber),
  created_at: present(str),
}));

export const RolesPageSchema = z.lazy(() => z.looseObject({
  roles: z.array(z.unknown()),
  status: present(str),
  page: present(wholeNumber),
  total_pages: present(wholeNumber),
  total_roles: present(wholeNumber),
}));

// ---- Team and Member
export const MemberSchema = z.lazy(() => z.looseObject({
  id: int,
  email: present(str),
  first_name: present(str),
  last_name: present(str),
}));

export const TeamSchema = z.lazy(() => z.looseObject({
  id: int,
  name: present(str),
  active: present(z.boolean()),
  members: listOf(MemberSchema),
  project_ids: listOf(int),
  project_tags: listOf(str),
  repo_url_patterns: listOf(str),
  project_count: present(wholeNumber),
  created_at: present(str),
  updated_at: present(str),
}));

export const TeamResponseSchema = z.lazy(() => z.looseObject({ team: TeamSchema }));

// ---- Pipeline-provider integration (secure_token is write-only and never returned)
export const IntegrationSchema = z.lazy(() => z.looseObject({
  id: present(int),
  uuid: present(str),
  type: present(str),
  name: present(str),
  account_id: present(z.union([str, z.number()]).transform(String)),
  account_name: present(str),
  org_allowlist: listOf(str),
  base_url: present(str),
  gateway_prefix: present(str),
  expired: present(z.boolean()),
  created_at: present(str),
  updated_at: present(str),
}));

export const IntegrationUpdateResponseSchema = z.lazy(() => z.looseObject({
  status: present(str),
  integration: present(IntegrationSchema),
  credentials_verified: present(z.boolean()),
}));

// ---- Policy
export const PolicySchema = z.lazy(() => z.looseObject({
  id: int,
  name: str,
  description: present(str),
  guidance_text: present(str),
  cwes: listOf(str),
  excludes: listOf(str),
  projects: listOf(str),
  company: present(int),
  active: present(z.boolean()),
  approved: present(z.boolean()),
  approved_by: present(int),
  created_at: present(str),
  glob_pattern: present(str),
  source_type: present(str),
  repo_policy_file: present(int),
  version: present(wholeNumber),
  archived: present(z.boolean()),
  parent_policy: present(int),
  read_only: present(z.boolean()),
  created_by_corgea: present(z.boolean()),
}));

export const PaginationSchema = z.lazy(() => z.looseObject({
  total_count: present(wholeNumber),
  total_pages: present(wholeNumber),
  current_page: present(wholeNumber),
  page_size: present(wholeNumber),
}));

export const PoliciesPageSchema = z.lazy(() => z.looseObject({
  policies: z.array(z.unknown()),
  pagination: present(PaginationSchema),
}));

// ---- A scan's findings: the security, code quality and dependency lists
export const ClassificationSchema = z.lazy(() => z.looseObject({
  id: present(str),
  name: present(str),
  description: present(str),
}));

export const IssueLocationSchema = z.lazy(() => z.looseObject({
  file: z.looseObject({
    path: present(str),
    name: present(str),
    language: present(str),
  }),
  project: present(z.looseObject({
    name: present(str),
    branch: present(str),
    git_sha: present(str),
  })),
  line_number: present(wholeNumber),
}));

export const AutoTriageSchema = z.lazy(() => z.looseObject({
  false_positive_detection: present(z.looseObject({
    status: present(str),
    reasoning: present(str),
  })),
}));

export const AutoFixSuggestionSchema = z.lazy(() => z.looseObject({
  id: present(anyId),
  status: present(str),
  patch: present(z.looseObject({
    diff: str,
    explanation: present(str),
  })),
}));

export const AssigneeSchema = z.lazy(() => z.looseObject({
  id: present(anyId),
  email: present(str),
  name: present(str),
}));

export const ReachabilitySchema = z.lazy(() => z.looseObject({
  is_reachable: present(z.boolean()),
  endpoint_count: present(wholeNumber),
}));

/** The spec's "Code quality issue" fields; the security list adds its own (decisions.md). */
function codeIssueFields() {
  return {
    id: anyId,
    location: IssueLocationSchema,
    classification: present(ClassificationSchema),
    urgency: present(str),
    created_at: present(str),
    status: present(str),
    sla_status: present(str),
    auto_triage: present(AutoTriageSchema),
    auto_fix_suggestion: present(AutoFixSuggestionSchema),
    assigned_to: present(AssigneeSchema),
    scanner_metadata: present(z.record(z.string(), z.unknown())),
    reachability: present(ReachabilitySchema),
  };
}

/** Needed to show a finding: its file, by path or at least by name. */
function needsFile(issue: { location: { file: { path?: string; name?: string } } }, ctx: z.RefinementCtx): void {
  const f = issue.location.file;
  if (!f.path?.trim() && !f.name?.trim()) {
    ctx.addIssue({ code: 'custom', path: ['location', 'file', 'path'], message: 'expected string (missing, and no location.file.name either)' });
  }
}

export const QualityIssueSchema = z.lazy(() => z.looseObject(codeIssueFields()).superRefine(needsFile));

/** A security (SAST) finding: the code quality shape, plus `scan_id` and `details: {explanation}`. */
export const SecurityIssueSchema = z.lazy(() => z.looseObject({
  ...codeIssueFields(),
  scan_id: present(anyId),
  details: present(z.looseObject({ explanation: present(str) })),
}).superRefine(needsFile));

/** A dependency (SCA) finding (decisions.md): a package in a manifest or lock file, no line. */
export const DependencyIssueSchema = z.lazy(() => z.looseObject({
  id: anyId,
  location: z.looseObject({ path: str }),
  created_at: present(str),
  description: present(str),
  // A string in the service's CLI; an object with an explanation read too.
  details: present(z.union([str, z.looseObject({ explanation: present(str) })])),
  severity: present(str),
  classification: present(str),
  cve: present(str),
  package: present(z.looseObject({
    name: present(str),
    version: present(str),
    ecosystem: present(str),
    fix_version: present(str),
  })),
}));

export const QualityIssuesPageSchema = z.lazy(() => z.looseObject({
  issues: z.array(z.unknown()),
  status: present(str),
  page: present(wholeNumber),
  total_pages: present(wholeNumber),
  total_issues: present(wholeNumber),
}));

// ---- CI's gate: GET /scan/{scan_id}/check_blocking_rules (decisions.md, "The service's gate")
export const BlockingRulesSchema = z.lazy(() => z.looseObject({
  block: z.boolean(),
  blocking_issues: listOf(z.looseObject({
    id: anyId,
    triggered_by_rules: listOf(str),
    triggered_by_slugs: listOf(str),
  })),
  total_pages: present(wholeNumber),
  stats: present(z.looseObject({ blocked_issues: present(wholeNumber) })),
  status: present(str),
}));

/** The 400 that names the `block_on` rules the service refused, and why. */
export const BlockOnRefusalSchema = z.lazy(() => z.looseObject({
  message: present(str),
  unknown_slugs: listOf(str),
  inactive_slugs: listOf(str),
  non_ci_slugs: listOf(str),
}));

// ---- Verified user and /verify
export const VerifiedUserSchema = z.lazy(() => z.looseObject({
  id: present(int),
  email: present(str),
  name: present(str),
  company: present(z.looseObject({ id: present(int), name: present(str) })),
}));

export const VerifyResponseSchema = z.lazy(() => z.looseObject({
  status: str,
  user: present(VerifiedUserSchema),
}));

// ---- Upload transfer values
export const StartTransferResponseSchema = z.lazy(() => z.looseObject({
  transfer_id: anyId,
}));

/** Body of any successful PATCH; which kind of answer it is depends on header and fields. */
export const ChunkResponseSchema = z.lazy(() => z.looseObject({
  status: present(str),
  message: present(str),
  scan_id: present(z.union([z.string().min(1), int])),
  project_id: present(z.union([z.string(), int])),
}));

// ---- A scan's state (GET /scan/{scan_id}; decisions.md, the scan lifecycle)
export const ScanErrorSchema = z.lazy(() => z.looseObject({
  scan_type: present(str),
  level: present(str),
  location: present(str),
  message: present(str),
}));

export const ScanStatusSchema = z.lazy(() => z.looseObject({
  status: str,
  id: present(anyId),
  project: present(str),
  branch: present(str),
  created_at: present(str),
  failed_reason: present(str),
  scan_errors: listOf(ScanErrorSchema),
}));

/** One scan of a project's list (decisions.md, "The service's scans of a commit"); a record that does not read is left out. */
export const ProjectScanSchema = z.lazy(() => z.looseObject({
  id: anyId,
  status: str,
  git_sha: present(str),
  worktree_dirty: present(z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])),
  branch: present(str),
  created_at: present(str),
}));

export const ProjectScansSchema = z.lazy(() => z.looseObject({
  scans: listOf(ProjectScanSchema),
  total_pages: present(wholeNumber),
}));

export type Role = z.infer<typeof RoleSchema>;
export type RolesPage = z.infer<typeof RolesPageSchema>;
export type Member = z.infer<typeof MemberSchema>;
export type Team = z.infer<typeof TeamSchema>;
export type Integration = z.infer<typeof IntegrationSchema>;
export type Policy = z.infer<typeof PolicySchema>;
export type Pagination = z.infer<typeof PaginationSchema>;
export type PoliciesPage = z.infer<typeof PoliciesPageSchema>;
export type QualityIssue = z.infer<typeof QualityIssueSchema>;
export type SecurityIssue = z.infer<typeof SecurityIssueSchema>;
export type DependencyIssue = z.infer<typeof DependencyIssueSchema>;
export type QualityIssuesPage = z.infer<typeof QualityIssuesPageSchema>;
export type VerifiedUser = z.infer<typeof VerifiedUserSchema>;
export type ScanStatusAnswer = z.infer<typeof ScanStatusSchema>;

/** A record of a list that could not be read: where it was and why (types only, never values). */
export interface Unreadable {
  index: number;
  /** The record's id, when it had a readable one. */
  id?: string;
  reason: string;
}

/** Parses each item on its own: readable ones are returned, the others described. */
export function readEach<S extends z.ZodType>(schema: S, raw: readonly unknown[]): { items: z.output<S>[]; unreadable: Unreadable[] } {
  const items: z.output<S>[] = [];
  const unreadable: Unreadable[] = [];
  raw.forEach((value, index) => {
    const r = schema.safeParse(value);
    if (r.success) {
      items.push(r.data);
      return;
    }
    const id = (value as { id?: unknown } | null)?.id;
    unreadable.push({
      index,
      ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id).slice(0, 100) } : {}),
      reason: describeSchemaError(r.error, value),
    });
  });
  return { items, unreadable };
}

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
  if (issue.code === 'invalid_union') {
    const actual = valueAt(data, issue.path);
    return `${where}: expected a string or a number (${actual === undefined ? 'missing' : `got ${describeValue(actual)}`})`;
  }
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

// Shapes shared by the reference service's modules: the seed file, the persisted state
// and the records tests read back through `scans()` and `/__admin/scans`.

export type Permission =
  | 'user_management.view_permissiongroup'
  | 'integrations.manage_integration'
  | 'teams.manage_team'
  | 'policies.view_policy'
  | 'scans.view_scan'
  | 'scans.create_scan';

export interface SeedCompany {
  id: number;
  name: string;
  features: { roles: boolean; blast: boolean };
}

export interface SeedUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company: number;
  active: boolean;
  role: number | null;
  permissions: Permission[];
  api_token: string | null;
  /** What tests use this user for. */
  purpose?: string;
}

export interface SeedRole {
  id: number;
  company: number;
  name: string;
  saml_managed: boolean;
  created_at: string;
}

export interface SeedTeam {
  id: number;
  company: number;
  name: string;
  active: boolean;
  members: number[];
  project_ids: number[];
  project_tags: string[];
  repo_url_patterns: string[];
  project_count: number;
  created_at: string;
  updated_at: string;
}

export interface SeedIntegration {
  id: number;
  uuid: string;
  company: number;
  type: string;
  name: string;
  account_id: string;
  account_name: string;
  org_allowlist: string[];
  base_url: string;
  gateway_prefix: string;
  expired: boolean;
  secure_token: string;
  created_at: string;
  updated_at: string;
}

export interface SeedPolicy {
  id: number;
  name: string;
  description: string;
  guidance_text: string;
  cwes: string[];
  excludes: string[];
  projects: string[];
  company: number;
  active: boolean;
  approved: boolean;
  approved_by: number;
  created_at: string;
  glob_pattern: string;
  source_type: string;
  repo_policy_file: number;
  version: number;
  archived: boolean;
  parent_policy: number;
  read_only: boolean;
  created_by_corgea: boolean;
}

/** Tokens a test needs, by scenario. */
export interface SeedTokens {
  demo: string;
  noPermissions: string;
  readOnly: string;
  inactive: string;
  noRolesFeature: string;
  noBlast: string;
  otherCompany: string;
}

export interface Seed {
  $comment?: string[];
  jwt_secret: string;
  tokens: SeedTokens;
  /** User ids by scenario (for issueJwt). */
  user_ids: Record<keyof SeedTokens, number>;
  /** Secure tokens the simulated pipeline provider knows: token -> provider account id. */
  provider_tokens: Record<string, string>;
  companies: SeedCompany[];
  users: SeedUser[];
  roles: SeedRole[];
  teams: SeedTeam[];
  integrations: SeedIntegration[];
  policies: SeedPolicy[];
  blocking_rules: SeedBlockingRule[];
}

export type TransferStatus = 'open' | 'completed';

export interface TransferState {
  id: string;
  company: number;
  user: number;
  archiveName: string;
  /** Upload-Length fixed by the first PATCH; null until then. */
  length: number | null;
  /** Committed bytes; the data file is truncated to this on load. */
  offset: number;
  status: TransferStatus;
  scanId: string | null;
  createdAt: string;
  /** CORGEA-SOURCE value of every accepted PATCH, in order. */
  chunkSources: string[];
  /** Real answers: the cookie pinning the transfer to "this instance"; a chunk without it reaches another one. */
  affinity?: string;
}

export type ScanStatus = 'running' | 'completed' | 'failed';

/** One entry of a scan's `scan_errors` (decisions.md, the scan lifecycle). */
export interface ScanErrorRecord {
  scan_type: string;
  level: string;
  location: string | null;
  message: string;
}

/** How the next scans end, armed through the admin API (real answer shapes play them out). */
export interface PlannedOutcome {
  /** The scan fails with this `failed_reason`, without findings. */
  failedReason?: string;
  /** The scan completes with these `scan_errors` besides its own `info` line. */
  scanErrors?: ScanErrorRecord[];
  /** Only a scan of this project takes it (folders of a workspace are scanned side by side). */
  project?: string;
}

export interface ScanRecord {
  id: string;
  projectId: number;
  projectName: string;
  transferId: string;
  company: number;
  user: number;
  archiveName: string;
  archivePath: string;
  archiveSize: number;
  /** Every form part of the completing PATCH, verbatim (chunk_data excluded). */
  formParts: Record<string, string>;
  /** Upload headers of the completing PATCH. */
  uploadHeaders: { offset: string; length: string; name: string };
  /** CORGEA-SOURCE of the completing request ("api" when absent). */
  clientSource: string;
  branch: string | null;
  repoUrl: string | null;
  sha: string | null;
  dirty: boolean | null;
  metadata: Record<string, unknown> | null;
  scanConfigs: string[];
  targetPolicies: number[];
  partial: boolean;
  filesToScan: string[];
  /** Every file entry of the archive (directories excluded), archive-relative. */
  files: string[];
  status: ScanStatus;
  error: string | null;
  /** What a limit of the service left unscanned, reported in `scan_errors`. */
  limitErrors?: ScanErrorRecord[];
  /** How long the scan runs, when the answer mode set it (else the service's scanDurationMs). */
  processingMs?: number;
  /** Armed through the admin API: how this scan ends. */
  planned?: PlannedOutcome | null;
  createdAt: string;
  completedAt: string | null;
  issueCount: number;
}

export interface QualityIssue {
  id: string;
  classification: { id: string; name: string; description: string };
  urgency: 'critical' | 'high' | 'medium' | 'low';
  created_at: string;
  status: string;
  sla_status: string;
  location: {
    file: { name: string; language: string; path: string };
    project: { name: string; branch: string; git_sha: string };
    line_number: number;
  };
  auto_triage: { false_positive_detection: { status: string; reasoning: string } };
  auto_fix_suggestion: {
    id: string;
    status: string;
    patch: { diff: string; explanation: string } | null;
  };
  assigned_to: { id: string; email: string; name: string } | null;
  scanner_metadata: Record<string, unknown>;
  reachability: { is_reachable: boolean; endpoint_count: number };
}

/**
 * A CI blocking rule (decisions.md, "The service's gate"): named by its slug in
 * `--block-on`, scoped to CI or to pull requests, active or not; it blocks the findings of
 * the lists it names that match it.
 */
export interface SeedBlockingRule {
  id: number;
  company: number;
  slug: string;
  name: string;
  applies_to: 'ci' | 'pull_request';
  active: boolean;
  match: { lists: ListId[]; urgency_at_least?: 'critical' | 'high' | 'medium' | 'low'; malicious?: boolean; classification?: string };
}

/** A scan's lists of findings (decisions.md, "Every list the service keeps"). */
export type ListId = 'security' | 'quality' | 'dependency';
export const LIST_IDS: readonly ListId[] = ['security', 'quality', 'dependency'];

/** A security finding: the code quality shape plus its scan and an explanation. */
export interface SecurityIssue extends QualityIssue {
  scan_id: string;
  details: { explanation: string } | null;
}

/** A dependency (SCA) finding, as the service's CLI reads it (decisions.md). */
export interface DependencyFinding {
  id: string;
  created_at: string;
  description: string | null;
  details: string | null;
  severity: string | null;
  classification: string | null;
  cve: string | null;
  package: { name: string; version: string; ecosystem: string; fix_version: string | null };
  location: { path: string };
}

/** A finding of any list, as stored (injected ones may have any shape). */
export type ServiceFinding = QualityIssue | DependencyFinding;

/** Everything the service persists in its data directory. */
export interface PersistedState {
  version: 1;
  transfers: Record<string, TransferState>;
  scans: Record<string, ScanRecord>;
  /** companyId:projectName -> project id */
  projects: Record<string, number>;
  nextProjectId: number;
  /** Mutated seed resources (team members, integration fields) so a restart keeps them. */
  teams: Record<string, SeedTeam>;
  integrations: Record<string, SeedIntegration>;
}

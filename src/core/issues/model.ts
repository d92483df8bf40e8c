import type { DependencyIssue, SecurityIssue } from '../api/schemas';
import { MAX_FIX_DIFF_CHARS } from '../fixes/applyFix';
import { findingKey, type FindingKind } from './kinds';
import { normalizeUrgency } from './severity';
import { l10n } from '../text/l10n';

/**
 * The editor's own record of one finding, normalised from the service's quality issue so
 * that what is persisted per workspace does not depend on the wire schema.
 */
export interface Position { line: number; character: number }
export interface Range { start: Position; end: Position }

export interface StoredIssue {
  /** The finding's key in the editor: its service id, told apart by its list (kinds.ts). */
  id: string;
  /** The service's list it came from; absent: code quality (a finding kept from before the lists were told apart). */
  kind?: FindingKind;
  classificationId: string;
  classificationName: string;
  classificationDescription: string;
  urgency: string;
  status: string;
  /** Path relative to the scanned folder (the archive root), `/`-separated. */
  path: string;
  /** 1-based line as reported by the service. */
  line: number;
  falsePositive: boolean;
  triageReasoning?: string;
  fix?: { diff: string; explanation: string; status: string };
  /** The auto-fix status as the service sent it, also when it offers no patch (`no_fix`, `unsupported`, …). */
  fixStatus?: string;
  /** Where the finding is now in the user's text (0-based), following edits since the scan. */
  range?: Range;
  /** The text of the finding's line when it was placed, to find the line again after a whole-text replacement (revert, formatter). */
  lineText?: string;
  /** Whether the file was in the archive the scan uploaded; fixes are only offered for such files. */
  inArchive?: boolean;
  /**
   * The file changed since the scan and this finding could not be placed again (it was
   * never placed in this editor, so its line text is unknown): shown in the tree, marked,
   * but not put at a line that may be wrong.
   */
  stale?: boolean;
  // The rest of the spec's fields, for the details view (every one may be missing).
  createdAt?: string;
  slaStatus?: string;
  triageStatus?: string;
  fixId?: string;
  reachable?: boolean;
  endpointCount?: number;
  assignee?: { id?: string; email?: string; name?: string };
  fileName?: string;
  language?: string;
  projectName?: string;
  branch?: string;
  gitSha?: string;
  /** scanner_metadata as JSON text, shortened to MAX_METADATA_CHARS. */
  scannerMetadata?: string;
  /** Not in the folder's findings before its latest full scan (src/core/results/baseline.ts). */
  isNew?: boolean;
  /** The company's active policies this finding violates (policyMatch.ts), as last matched. */
  policies?: PolicyViolation[];
  /** Among what would block CI by its gate: the rules (slugs, or the gate's flags) it trips. */
  blocksCi?: string[];
  /** Among what would block CI: not in the base commit's scan (branchNew.ts), so this branch brought it. */
  newInBranch?: boolean;
  /** A security finding's explanation (`details.explanation`), the service's text. */
  explanation?: string;
  /** A dependency finding's package (the service's words, untrusted). */
  dependency?: DependencyFacts;
}

/** What a dependency finding says about its package. */
export interface DependencyFacts {
  name: string;
  /** The version installed, as the service read it. */
  version?: string;
  /** npm, PyPI, Maven, Go… as the service names it. */
  ecosystem?: string;
  /** The version that fixes it ("upgrade to X"); the service sends no diff for it. */
  fixVersion?: string;
  cve?: string;
  /** The service classifies the package as malicious: said as such, at critical. */
  malicious?: true;
}

/** A policy a finding violates: its id, name and guidance (the service's text, untrusted). */
export interface PolicyViolation {
  id: number;
  name: string;
  guidance?: string;
  /** The policy is `approved: false`: it is shown, but would not block CI (decisions.md). */
  unapproved?: true;
}

/** Scanner metadata kept per finding (it is persisted with the results of the workspace). */
export const MAX_METADATA_CHARS = 4000;

/** A fix is offered only for a file the scan uploaded (the service could name any path). */
export function isFixable(issue: StoredIssue): boolean {
  return !!issue.fix && issue.inArchive === true;
}

/**
 * Partial at every depth, every field possibly null: a finding as an odd service, an older
 * store or a test may give it. Lists are taken as they are.
 */
type Loose<T> = T extends readonly unknown[] ? T
  : T extends object ? { [K in keyof T as string extends K ? never : K]?: Loose<T[K]> | null } : T;

/**
 * A service finding of the security or code quality list as this module reads it: the
 * schema's type (SecurityIssueSchema, the quality shape and more), with only `id` required.
 * A field added to the schema is seen here at once.
 */
export type QualityIssueLike = Loose<SecurityIssue> & { id: string };

/** A copy without the keys whose value is undefined (keeps the persisted state small). */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

function metadataText(m: Record<string, unknown> | null | undefined): string | undefined {
  if (!m || Object.keys(m).length === 0) return undefined;
  let text: string;
  try {
    text = JSON.stringify(m, null, 2);
  } catch {
    return undefined;
  }
  return text.length > MAX_METADATA_CHARS ? `${text.slice(0, MAX_METADATA_CHARS - 1)}…` : text;
}

/** Auto-triage statuses that mean "not a real finding". `valid` is the spec's example of the opposite. */
const FALSE_POSITIVE_STATUSES = new Set(['false_positive', 'falsepositive', 'invalid', 'false positive']);

export function isFalsePositiveStatus(status: string | null | undefined): boolean {
  return !!status && FALSE_POSITIVE_STATUSES.has(status.trim().toLowerCase());
}

/** Strips `./` and leading slashes so paths compare equal however the service spelled them. */
export function normalizeIssuePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

/**
 * One copy of each text that many findings repeat (classification, urgency, status, file,
 * project): parsed JSON gives every finding its own copies, and 50,000 findings kept them
 * all (32 MB of heap for 50,000 findings, 22 MB with them shared), more for every garbage
 * collection to copy while they arrive. Bounded: a new set once full.
 */
const SHARED_MAX = 20_000;
let shared = new Map<string, string>();

function share<T extends string | undefined>(s: T): T {
  if (s === undefined || s.length > 500) return s;
  const known = shared.get(s);
  if (known !== undefined) return known as T;
  if (shared.size >= SHARED_MAX) shared = new Map();
  shared.set(s, s);
  return s;
}

/** Longest text kept of any one field of a finding (as scanner_metadata's 64 KB of JSON). */
export const MAX_FIELD_CHARS = 64 * 1024;
/** A path longer than this is no file's path: the finding is not read. */
const MAX_PATH_CHARS = 4096;

/** A text field, shortened to MAX_FIELD_CHARS (marked) when longer. */
function capped<T extends string | undefined | null>(s: T, max = MAX_FIELD_CHARS): T {
  return (typeof s === 'string' && s.length > max ? `${s.slice(0, max - 1)}…` : s) as T;
}

/**
 * A finding of the security or the code quality list (both in the spec's "Code quality
 * issue" shape; a security finding may add `details.explanation`).
 */
export function toStoredIssue(q: QualityIssueLike, kind: Exclude<FindingKind, 'dependency'> = 'quality'): StoredIssue | undefined {
  const rawPath = q.location?.file?.path ?? q.location?.file?.name;
  if (!q.id || !rawPath || rawPath.length > MAX_PATH_CHARS) return undefined;
  const explanation = q.details?.explanation;
  const fp = q.auto_triage?.false_positive_detection;
  const patch = q.auto_fix_suggestion?.patch;
  const line = q.location?.line_number;
  // A diff is kept whole or not at all: shortened it would be another change. One too big to
  // apply (applyFix.ts) is no fix.
  const tooBig = !!patch?.diff && patch.diff.length > MAX_FIX_DIFF_CHARS;
  return {
    id: findingKey(kind, capped(q.id, 500)),
    kind,
    classificationId: share(capped(q.classification?.id ?? 'unclassified', 500)),
    classificationName: share(capped(q.classification?.name ?? q.classification?.id ?? l10n.t('Unclassified issue'), 2000)),
    classificationDescription: share(capped(q.classification?.description ?? '')),
    urgency: normalizeUrgency(capped(q.urgency, 100)),
    status: share(capped((q.status ?? 'unknown').toLowerCase(), 100)),
    path: share(normalizeIssuePath(rawPath)),
    line: typeof line === 'number' && Number.isFinite(line) && line >= 1 ? Math.floor(line) : 1,
    falsePositive: isFalsePositiveStatus(fp?.status),
    triageReasoning: capped(fp?.reasoning ?? undefined),
    fix: patch?.diff && !tooBig
      ? { diff: patch.diff, explanation: capped(patch.explanation ?? ''), status: capped(q.auto_fix_suggestion?.status ?? '', 100) }
      : undefined,
    fixStatus: tooBig ? 'fix_too_large' : capped(q.auto_fix_suggestion?.status ?? undefined, 100),
    ...compact({
      createdAt: capped(q.created_at ?? undefined, 100),
      slaStatus: capped(q.sla_status ?? undefined, 100),
      triageStatus: capped(fp?.status ?? undefined, 100),
      fixId: capped(q.auto_fix_suggestion?.id ?? undefined, 500),
      reachable: q.reachability?.is_reachable ?? undefined,
      endpointCount: q.reachability?.endpoint_count ?? undefined,
      assignee: q.assigned_to ? compact({ id: capped(q.assigned_to.id ?? undefined, 500), email: capped(q.assigned_to.email ?? undefined, 500), name: capped(q.assigned_to.name ?? undefined, 500) }) : undefined,
      fileName: share(capped(q.location?.file?.name ?? undefined, MAX_PATH_CHARS)),
      language: share(capped(q.location?.file?.language ?? undefined, 100)),
      projectName: share(capped(q.location?.project?.name ?? undefined, 500)),
      branch: share(capped(q.location?.project?.branch ?? undefined, 500)),
      gitSha: share(capped(q.location?.project?.git_sha ?? undefined, 200)),
      scannerMetadata: metadataText(q.scanner_metadata),
      explanation: typeof explanation === 'string' && explanation.trim() ? capped(explanation) : undefined,
    }),
  };
}

/** A service dependency finding as this module reads it: the schema's type, only `id` required. */
export type DependencyIssueLike = Loose<DependencyIssue> & { id: string };

/** First line of a text, when it is short enough to name a finding. */
function titleOf(text: string | null | undefined): string | undefined {
  const first = text?.trim().split(/\r?\n/, 1)[0]?.trim();
  return first && first.length <= 200 ? first : undefined;
}

/**
 * A finding of the dependency list (decisions.md, "A dependency finding"). It names a
 * manifest or lock file and no line: placement puts it on the line naming the package
 * (manifests.ts). A malicious package is critical whatever its severity says.
 */
export function toStoredDependency(d: DependencyIssueLike): StoredIssue | undefined {
  const rawPath = d.location?.path;
  if (!d.id || !rawPath || rawPath.length > MAX_PATH_CHARS) return undefined;
  const pkg = d.package;
  const name = capped(pkg?.name?.trim() || l10n.t('an unnamed package'), 500);
  const classification = capped(d.classification?.trim() || undefined, 200);
  const malicious = classification?.toLowerCase() === 'malicious';
  const cve = capped(d.cve?.trim() || undefined, 200);
  const details = typeof d.details === 'string' ? d.details : d.details?.explanation ?? undefined;
  const title = titleOf(d.description);
  return {
    id: findingKey('dependency', capped(d.id, 500)),
    kind: 'dependency',
    classificationId: share(cve ?? (malicious ? 'malicious' : classification ?? 'vulnerable-dependency')),
    classificationName: share(malicious
      ? l10n.t('Malicious package {0}', name)
      : title ? capped(title, 2000) : l10n.t('Vulnerable package {0}', name)),
    classificationDescription: capped(details?.trim() || (title ? '' : d.description?.trim()) || ''),
    urgency: malicious ? 'critical' : normalizeUrgency(capped(d.severity, 100)),
    // The dependency list has no status.
    status: '',
    path: share(normalizeIssuePath(rawPath)),
    line: 1,
    falsePositive: false,
    dependency: compact({
      name,
      version: capped(pkg?.version?.trim() || undefined, 200),
      ecosystem: share(capped(pkg?.ecosystem?.trim() || undefined, 100)),
      fixVersion: capped(pkg?.fix_version?.trim() || undefined, 200),
      cve,
      malicious: malicious ? true as const : undefined,
    }),
    ...compact({ createdAt: capped(d.created_at ?? undefined, 100) }),
  };
}

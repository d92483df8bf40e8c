// Answer shapes. By default the service answers exactly as the spec's examples do ("seed"
// shapes). In "real" shapes it answers the way the service's own public clients show real
// answers look (decisions.md, "What the service's own public clients show about real
// answers"), so tests cover both: short urgency codes in mixed case, ids that are not
// UUIDs, null descriptions, branches and commits, fix suggestions without an id (and,
// without a fix, without a patch and with statuses such as no_fix), `message` instead of
// `error` in 400 bodies, and a `Warning: 299` deprecation header on every answer.
// Independently, "gone" makes every API route answer 410 (this API version retired).
import type { ServerResponse } from 'node:http';
import type { DependencyFinding, ListId, QualityIssue } from './types';

export type Shapes = 'seed' | 'real';

export interface AnswerMode {
  shapes: Shapes;
  gone: boolean;
  /**
   * How long a scan started from now on runs, in ms (default: the service's scanDurationMs).
   * Real answers: a scan is `queued`, then `processing`, and lists no findings until it is
   * `complete` (decisions.md, the scan lifecycle).
   */
  processingMs?: number;
  /** The lists of findings this service has (default all three): a list left out answers 404, as a service without it. */
  lists?: ListId[];
}

export const DEPRECATION_WARNING = '299 - "API v1 is deprecated and will be retired on 2027-06-30; update your client"';

const CODES: Record<string, string> = { critical: 'CR', high: 'HI', medium: 'ME', low: 'LO' };

/** A small stable number per issue, to vary which optional fields are missing. */
function spread(id: string): number {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}

/** Not a UUID, and a number: stable per issue (every route that names the issue names it so). */
export function realIssueId(id: string): number {
  return Number.parseInt(String(id).replace(/-/g, '').slice(0, 12), 16);
}

/** The issue as the real service might send it: same finding, other shapes. */
export function realIssue(issue: QualityIssue): Record<string, unknown> {
  // Issues injected through the admin API may have any shape: they are sent as they are.
  if (typeof issue.id !== 'string' || !issue.location?.project) return issue as unknown as Record<string, unknown>;
  const h = spread(String(issue.id));
  const code = CODES[issue.urgency] ?? issue.urgency;
  const fix = issue.auto_fix_suggestion;
  const out: Record<string, unknown> = {
    ...issue,
    id: realIssueId(issue.id),
    urgency: h % 2 ? code : code.toLowerCase(),
    classification: issue.classification ? { ...issue.classification, description: null } : null,
    location: { ...issue.location, project: { ...issue.location.project, branch: null, git_sha: null } },
    sla_status: h % 3 === 0 ? null : issue.sla_status,
    auto_triage: issue.auto_triage?.false_positive_detection
      ? { false_positive_detection: { status: issue.auto_triage.false_positive_detection.status, reasoning: h % 2 ? null : issue.auto_triage.false_positive_detection.reasoning } }
      : null,
    auto_fix_suggestion: fix?.patch
      ? { status: fix.status, patch: fix.patch }
      : { status: h % 3 === 0 ? 'unsupported' : 'no_fix' },
    reachability: h % 4 === 0 ? null : issue.reachability,
    scanner_metadata: h % 5 === 0 ? null : issue.scanner_metadata,
  };
  if (issue.assigned_to === null) delete out.assigned_to;
  return out;
}

/** A dependency finding as the real service might send it: same finding, other shapes. */
export function realDependency(d: DependencyFinding): Record<string, unknown> {
  if (typeof d.id !== 'string' || !d.package) return d as unknown as Record<string, unknown>;
  const h = spread(d.id);
  const out: Record<string, unknown> = {
    ...d,
    id: realIssueId(d.id),
    severity: d.severity ? (h % 2 ? CODES[d.severity] ?? d.severity : d.severity.toUpperCase()) : null,
    details: h % 3 === 0 ? null : d.details,
  };
  if (d.cve === null) delete out.cve;
  return out;
}

const MODE = Symbol('answerMode');

/** Remembers the mode on the response, so every way of answering follows it. */
export function markResponse(res: ServerResponse, mode: AnswerMode): void {
  (res as unknown as Record<symbol, AnswerMode>)[MODE] = mode;
  if (mode.shapes === 'real') res.setHeader('Warning', DEPRECATION_WARNING);
}

/** The body of an error answer: `{error}`, or `{message}` for a 400 in real shapes. */
export function errorBody(res: ServerResponse, status: number, message: string): Record<string, string> {
  const mode = (res as unknown as Record<symbol, AnswerMode | undefined>)[MODE];
  return mode?.shapes === 'real' && status === 400 ? { message } : { error: message };
}

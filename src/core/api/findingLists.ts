// A scan's three lists of findings (decisions.md, "Every list the service keeps"): security
// (`GET /scan/{id}/issues`), code quality (`/issues/quality`, the spec's route) and
// dependencies (`/issues/sca`). Each is read the same way, page by page and whole; each
// record is checked on its own, so one odd record never fails its page.
import { mapInSlices } from '../async';
import { parse } from './decode';
import { ServiceError } from './errors';
import { checkPage, checkPageSize, LIMITS } from './limits';
import { checkPageLength, collectPages } from './paging';
import { checkScanId } from './scanStatus';
import {
  DependencyIssueSchema,
  QualityIssueSchema,
  QualityIssuesPageSchema,
  SecurityIssueSchema,
  readEach,
  type DependencyIssue,
  type QualityIssue,
  type SecurityIssue,
  type Unreadable,
} from './schemas';
import type { Call, RetryNotice, Transport } from './transport';

/** A scan's lists of findings (decisions.md): security, code quality, dependencies. */
export type FindingList = 'security' | 'quality' | 'dependency';
type FindingKind = FindingList;

/** A record of each list as it is read. */
export interface ListRecord { security: SecurityIssue; quality: QualityIssue; dependency: DependencyIssue }

interface ListRoute { suffix: string; endpoint: string; operation: string; pageSize: { min: number; max: number } }

/**
 * Where each list is and how big a page may be: the spec bounds the quality list's pages
 * at 50; for the other two the service's own CLI asks 30 at a time, known to be answered.
 */
export const LIST_ROUTES: Record<FindingKind, ListRoute> = {
  security: { suffix: 'issues', endpoint: 'GET /scan/{scan_id}/issues', operation: 'listSecurityIssues', pageSize: { min: 1, max: 30 } },
  quality: { suffix: 'issues/quality', endpoint: 'GET /scan/{scan_id}/issues/quality', operation: 'listQualityIssues', pageSize: LIMITS.qualityPageSize },
  dependency: { suffix: 'issues/sca', endpoint: 'GET /scan/{scan_id}/issues/sca', operation: 'listDependencyIssues', pageSize: { min: 1, max: 30 } },
};

const SCHEMAS = {
  security: SecurityIssueSchema,
  quality: QualityIssueSchema,
  dependency: DependencyIssueSchema,
} as const;

export interface ListQuery { classification?: string; page?: number; pageSize?: number; signal?: AbortSignal; onRetry?: (r: RetryNotice) => void; retries?: number; retryBaseDelayMs?: number }

export interface ListPage<T> {
  issues: T[];
  unreadable: Unreadable[];
  /** Records on the page as sent, before a classification filter left some out (paging counts these). */
  received: number;
  /** The answer's size in bytes. */
  bytes: number;
  page?: number;
  total_pages?: number;
  total_issues?: number;
}

export interface AllOfList<T> {
  issues: T[];
  totalIssues: number;
  unreadable: Unreadable[];
  /** Issues `convert` left out. */
  dropped: number;
  /** Findings not read because the list passed the bounds of one scan (findings or bytes). */
  notRead?: number;
  unchanged?: boolean;
}

export interface ListAllQuery extends Omit<ListQuery, 'page'> {
  /** The total of the caller's last complete read: when page 1 says the same, nothing more is read. */
  unchangedIfTotal?: number;
}

/** decisions.md: a case-insensitive partial match on the classification's id or name. */
export function matchesClassification(issue: Pick<QualityIssue, 'classification'>, needle: string): boolean {
  const n = needle.trim().toLowerCase();
  if (!n) return true;
  const c = issue.classification;
  return !!c && [c.id, c.name].some((v) => typeof v === 'string' && v.toLowerCase().includes(n));
}

/** The same for a dependency finding, whose classification is its CVE, its word (malicious) or its description. */
function matchesDependency(issue: DependencyIssue, needle: string): boolean {
  const n = needle.trim().toLowerCase();
  return !n || [issue.cve, issue.classification, issue.description, issue.package?.name].some((v) => typeof v === 'string' && v.toLowerCase().includes(n));
}

function matches<K extends FindingKind>(list: K, issue: ListRecord[K], needle: string): boolean {
  return list === 'dependency' ? matchesDependency(issue as DependencyIssue, needle) : matchesClassification(issue as QualityIssue, needle);
}

/** One page of a list. The service ignores parameters it does not know, so a classification filter is applied to the answer too. */
export async function listPage<K extends FindingKind>(transport: Transport, list: K, scanId: string, q: ListQuery = {}): Promise<ListPage<ListRecord[K]>> {
  const route = LIST_ROUTES[list];
  const op = route.operation;
  checkScanId(op, scanId);
  checkPage(op, q.page);
  checkPageSize(op, q.pageSize, route.pageSize);
  const call: Call = {
    operation: op,
    method: 'GET',
    path: `/scan/${encodeURIComponent(scanId)}/${route.suffix}`,
    endpoint: route.endpoint,
    query: { classification: (list !== 'dependency' && q.classification) || undefined, page: str(q.page), page_size: str(q.pageSize) },
    signal: q.signal,
    idempotent: true,
    onRetry: q.onRetry,
    retries: q.retries,
    retryBaseDelayMs: q.retryBaseDelayMs,
  };
  return transport.send(call, (a) => {
    const page = parse(call, a, QualityIssuesPageSchema);
    checkPageLength(call, page.issues.length, q.pageSize ?? route.pageSize.max);
    const { items, unreadable } = readEach(SCHEMAS[list], page.issues) as { items: ListRecord[K][]; unreadable: Unreadable[] };
    const issues = q.classification ? items.filter((i) => matches(list, i, q.classification!)) : items;
    return { issues, unreadable, received: page.issues.length, bytes: a.bytes ?? 0, page: page.page, total_pages: page.total_pages, total_issues: page.total_issues };
  });
}

export interface ListBounds { maxPages: number; maxFindings: number; maxBytes: number }

/**
 * Every page of a list. While a scan still runs, new findings are inserted at the top
 * (newest first) and push older ones onto the next page, so ids are de-duplicated. With
 * `convert`, each page's findings are converted as the page arrives (undefined: left out,
 * counted in `dropped`): tens of thousands of parsed records then die young instead of
 * living until the last page, each one copied by every garbage collection meanwhile.
 */
export async function listAll<K extends FindingKind, T extends { id: string }>(
  transport: Transport, list: K, scanId: string, bounds: ListBounds, q: ListAllQuery & { convert: (issue: ListRecord[K]) => T | undefined },
): Promise<AllOfList<T>> {
  const route = LIST_ROUTES[list];
  const pageSize = q.pageSize ?? route.pageSize.max;
  checkPageSize(route.operation, pageSize, route.pageSize);
  let totalIssues: number | undefined;
  let dropped = 0;
  const unreadable: Unreadable[] = [];
  const { convert, unchangedIfTotal, ...query } = q;
  let read = 0;
  let bytes = 0;
  const full = () => read >= bounds.maxFindings || bytes >= bounds.maxBytes;
  const { items, stoppedEarly } = await collectPages(route.endpoint, route.operation, pageSize, bounds.maxPages, async (page) => {
    // Past the bounds of one list no further page is asked for; what was not read is counted.
    if (page > 1 && full()) return { items: [], read: 0, totalPages: undefined };
    const r = await listPage(transport, list, scanId, { ...query, page, pageSize });
    read += r.received;
    bytes += r.bytes;
    if (page === 1 || r.total_issues !== undefined) totalIssues = r.total_issues ?? totalIssues;
    unreadable.push(...r.unreadable);
    const pageItems: T[] = [];
    for (const issue of r.issues) {
      const converted = convert(issue);
      if (converted) pageItems.push(converted);
      else dropped++;
    }
    return { items: pageItems, read: r.received, totalPages: r.total_pages };
  }, unchangedIfTotal === undefined ? undefined : () => totalIssues === unchangedIfTotal);
  // The same total as the caller's last complete read: the caller keeps what it has.
  if (stoppedEarly) return { issues: [], totalIssues: totalIssues!, unreadable: [], dropped: 0, unchanged: true };
  // In slices: at 50,000 findings one pass held the extension host ~20 ms.
  const seen = new Set<string>();
  const firsts = await mapInSlices(items, (i) => (seen.has(i.id) ? undefined : (seen.add(i.id), i)));
  const issues = firsts.filter((i) => i !== undefined);
  const unreadableIds = new Set<string>();
  const distinct = unreadable.filter((u) => u.id === undefined || (unreadableIds.has(u.id) ? false : (unreadableIds.add(u.id), true)));
  const total = totalIssues ?? issues.length + distinct.length + dropped;
  const notRead = full() ? Math.max(0, total - issues.length - distinct.length - dropped) : 0;
  return { issues, totalIssues: total, unreadable: distinct, dropped, ...(notRead ? { notRead } : {}) };
}

/** A 404 on a list's route: the service has no such list (for a scan it reports done; decisions.md). */
export function isAbsentList(e: unknown): boolean {
  return e instanceof ServiceError && e.kind === 'not-found';
}

function str(n: number | undefined): string | undefined {
  return n === undefined ? undefined : String(n);
}

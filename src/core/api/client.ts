// Typed client for the seven operations of the service spec. Every request carries the
// auth header chosen from the token's shape and `CORGEA-SOURCE: vscode`; every answer is
// checked against the zod schemas, and every failure is a ServiceError.

import { mapInSlices } from '../async';
import type { Network } from '../network';
import type { KeyHeaders } from './auth';
import type { CookieJar } from './cookies';
import { normalizeBaseUrl } from './baseUrl';
import { badResponse, parse } from './decode';
import { ClientValidationError, ServiceError } from './errors';
import { integrationBody, type IntegrationUpdate } from './integration';
import { checkMemberIds, checkPage, checkPageSize, checkTeamId, checkUuid, joinCommaList, LIMITS } from './limits';
import {
  IntegrationUpdateResponseSchema,
  PoliciesPageSchema,
  PolicySchema,
  QualityIssueSchema,
  QualityIssuesPageSchema,
  RoleSchema,
  RolesPageSchema,
  TeamResponseSchema,
  VerifyResponseSchema,
  readEach,
  type Integration,
  type Pagination,
  type Policy,
  type QualityIssue,
  type Role,
  type Team,
  type Unreadable,
  type VerifiedUser,
} from './schemas';
import { Transport, type Answer, type Call, type RequestLogEntry, type RetryNotice } from './transport';
import type { ChunkRequest, ChunkResult } from './chunk';
import { checkPageLength, collectPages } from './paging';
import { checkScanId, readScanStatus, type ScanStatusResult } from './scanStatus';
import { readOffset, sendChunk, startTransfer } from './transfers';
import { l10n } from '../text/l10n';

export type { IntegrationUpdate } from './integration';
export type { UploadFields, ChunkRequest, ChunkResult } from './chunk';
export type { RequestLogEntry } from './transport';
export type { ScanStatusResult } from './scanStatus';

export interface ClientOptions {
  baseUrl: string;
  token: string;
  /** Per request (for uploads: longest pause without progress). Default 30000. */
  timeoutMs?: number;
  logger?: (e: RequestLogEntry) => void;
  userAgent?: string;
  /** Extra attempts for idempotent requests (GET, HEAD) after 429/5xx/network/timeout. Default 2; 0 disables. */
  maxRetries?: number;
  /** First backoff delay for those retries. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** A 429 whose Retry-After is longer than this is reported instead of waited out. Default 10000 ms. */
  maxRetryWaitMs?: number;
  /** Safety stop for listAll*: a server that never reaches its last page. Default 2000. */
  maxPages?: number;
  /** Proxies and certificate trust (the editor's network settings); the environment's when not given. */
  network?: Network;
  /** Answers bigger than this are refused (bad-response). Default 32 MB. */
  maxResponseBytes?: number;
  /** Called with the text of each `Warning: 299` header the service sends (deprecations). */
  onServiceWarning?: (text: string) => void;
  /** Most findings / bytes of answers read for one scan (MAX_FINDINGS_PER_SCAN, MAX_SCAN_BYTES). */
  maxScanFindings?: number;
  maxScanBytes?: number;
  /** Which headers carry an API key: both (default), or one alone (to learn which the service accepts). */
  keyHeaders?: KeyHeaders;
}

export interface PolicyQuery {
  project?: string;
  policyTypes?: string[];
  active?: boolean;
  page?: number;
  pageSize?: number;
  signal?: AbortSignal;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  userAgent: 'code-scanner-vscode',
  maxRetries: 2,
  retryBaseDelayMs: 500,
  maxRetryWaitMs: 10_000,
  maxPages: 2000,
};

const enc = encodeURIComponent;

/** Pages as read: the readable records under their usual names, and the others described. */
export interface RolesResult { roles: Role[]; unreadable: Unreadable[]; page?: number; total_pages?: number; total_roles?: number }
export interface PoliciesResult { policies: Policy[]; unreadable: Unreadable[]; pagination?: Pagination }
export interface ListAllOptions { classification?: string; pageSize?: number; signal?: AbortSignal; unchangedIfTotal?: number; onRetry?: (r: RetryNotice) => void; retries?: number }

export interface AllQualityIssues<T> {
  issues: T[];
  totalIssues: number;
  unreadable: Unreadable[];
  /** Issues `convert` left out. */
  dropped: number;
  /** Findings not read because the scan's answers passed MAX_FINDINGS_PER_SCAN or MAX_SCAN_BYTES. */
  notRead?: number;
  unchanged?: boolean;
}

/** Most findings read of one scan: a repository with more is not one person's review. */
export const MAX_FINDINGS_PER_SCAN = 100_000;
/** Most bytes of answers read for one scan's findings. */
export const MAX_SCAN_BYTES = 256 * 1024 * 1024;

export interface QualityIssuesResult {
  issues: QualityIssue[];
  unreadable: Unreadable[];
  /** Records on the page as sent, before a classification filter left some out (paging counts these). */
  received: number;
  /** The answer's size in bytes. */
  bytes: number;
  page?: number;
  total_pages?: number;
  total_issues?: number;
}

/** The one way a Transport is made from the client's options (the defaults filled in). */
function transportFor(opts: ClientOptions): Transport {
  return new Transport({
    baseUrl: normalizeBaseUrl(opts.baseUrl),
    token: (opts.token ?? '').trim(),
    timeoutMs: opts.timeoutMs ?? DEFAULTS.timeoutMs,
    userAgent: opts.userAgent ?? DEFAULTS.userAgent,
    logger: opts.logger,
    maxRetries: opts.maxRetries ?? DEFAULTS.maxRetries,
    retryBaseDelayMs: opts.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
    maxRetryWaitMs: opts.maxRetryWaitMs ?? DEFAULTS.maxRetryWaitMs,
    network: opts.network,
    maxResponseBytes: opts.maxResponseBytes,
    onServiceWarning: opts.onServiceWarning,
    keyHeaders: opts.keyHeaders,
  });
}

export class ServiceClient {
  readonly baseUrl: string;
  private readonly transport: Transport;
  private readonly maxPages: number;
  private readonly maxScanFindings: number;
  private readonly maxScanBytes: number;

  constructor(opts: ClientOptions) {
    this.baseUrl = normalizeBaseUrl(opts.baseUrl);
    this.maxPages = opts.maxPages ?? DEFAULTS.maxPages;
    this.maxScanFindings = opts.maxScanFindings ?? MAX_FINDINGS_PER_SCAN;
    this.maxScanBytes = opts.maxScanBytes ?? MAX_SCAN_BYTES;
    this.transport = transportFor(opts);
  }

  // ---- verify

  async verify(opts: { userInfo?: boolean; signal?: AbortSignal } = {}): Promise<{ status: 'ok'; user?: VerifiedUser }> {
    const call: Call = {
      operation: 'verify',
      method: 'GET',
      path: '/verify',
      endpoint: 'GET /verify',
      query: { user_info: opts.userInfo ? 'true' : undefined },
      signal: opts.signal,
      idempotent: true,
    };
    return this.transport.send(call, (a) => {
      const body = parse(call, a, VerifyResponseSchema);
      if (body.status !== 'ok') {
        // Some deployments answer 200 {status: "error"} instead of 401.
        throw new ServiceError({
          kind: 'unauthorized',
          operation: 'verify',
          status: a.status,
          message: l10n.t('The API key was rejected (missing, invalid or expired). Sign in again.'),
        });
      }
      if (opts.userInfo && !body.user) throw badResponse(call, l10n.t('user: expected object (missing)'));
      return body.user ? { status: 'ok' as const, user: body.user } : { status: 'ok' as const };
    });
  }

  // ---- roles

  async listRoles(q: { page?: number; pageSize?: number; signal?: AbortSignal } = {}): Promise<RolesResult> {
    const op = 'listRoles';
    checkPage(op, q.page);
    checkPageSize(op, q.pageSize, LIMITS.rolesPageSize);
    const call: Call = {
      operation: op,
      method: 'GET',
      path: '/roles',
      endpoint: 'GET /roles',
      query: { page: str(q.page), page_size: str(q.pageSize) },
      signal: q.signal,
      idempotent: true,
    };
    return await this.transport.send(call, (a) => {
      const page = parse(call, a, RolesPageSchema);
      checkPageLength(call, page.roles.length, q.pageSize ?? LIMITS.rolesPageSize.max);
      const { items, unreadable } = readEach(RoleSchema, page.roles);
      return { roles: items, unreadable, page: page.page, total_pages: page.total_pages, total_roles: page.total_roles };
    });
  }

  async listAllRoles(q: { pageSize?: number; signal?: AbortSignal } = {}): Promise<Role[]> {
    const pageSize = q.pageSize ?? LIMITS.rolesPageSize.max;
    checkPageSize('listRoles', pageSize, LIMITS.rolesPageSize);
    const { items } = await collectPages('GET /roles', 'listRoles', pageSize, this.maxPages, async (page) => {
      const r = await this.listRoles({ page, pageSize, signal: q.signal });
      return { items: r.roles, read: r.roles.length + r.unreadable.length, totalPages: r.total_pages };
    });
    return items;
  }

  // ---- teams

  async addTeamMembers(teamId: number, memberIds: number[], signal?: AbortSignal): Promise<Team> {
    const op = 'addTeamMembers';
    checkTeamId(op, teamId);
    checkMemberIds(op, memberIds);
    const call: Call = {
      operation: op,
      method: 'POST',
      path: `/teams/${teamId}/members`,
      endpoint: 'POST /teams/{team_id}/members',
      json: { member_ids: memberIds },
      signal,
    };
    return (await this.transport.send(call, (a) => parse(call, a, TeamResponseSchema))).team;
  }

  // ---- integrations

  async updateIntegration(
    uuid: string,
    fields: IntegrationUpdate,
    signal?: AbortSignal,
  ): Promise<{ integration: Integration | undefined; credentialsVerified: boolean | undefined }> {
    const op = 'updateIntegration';
    checkUuid(op, uuid);
    const body = integrationBody(op, fields);
    const call: Call = {
      operation: op,
      method: 'PATCH',
      path: `/integrations/pipelineprovider/${enc(uuid)}`,
      endpoint: 'PATCH /integrations/pipelineprovider/{integration_uuid}',
      json: body,
      signal,
      secrets: fields.secureToken ? [fields.secureToken] : [],
    };
    const r = await this.transport.send(call, (a) => parse(call, a, IntegrationUpdateResponseSchema));
    return { integration: r.integration, credentialsVerified: r.credentials_verified };
  }

  // ---- policies

  async listPolicies(q: PolicyQuery = {}): Promise<PoliciesResult> {
    const op = 'listPolicies';
    checkPage(op, q.page);
    checkPageSize(op, q.pageSize, LIMITS.policiesPageSize);
    if (q.project !== undefined && (typeof q.project !== 'string' || q.project.trim() === '')) {
      throw new ClientValidationError(op, l10n.t('The project filter must be a non-empty project name.'));
    }
    const types = q.policyTypes && q.policyTypes.length > 0 ? joinCommaList(op, l10n.t('Policy type'), q.policyTypes) : undefined;
    const call: Call = {
      operation: op,
      method: 'GET',
      path: '/policies',
      endpoint: 'GET /policies',
      query: {
        project: q.project,
        policy_type: types,
        active: q.active === undefined ? undefined : String(q.active),
        page: str(q.page),
        page_size: str(q.pageSize),
      },
      signal: q.signal,
      idempotent: true,
    };
    return await this.transport.send(call, (a) => {
      const page = parse(call, a, PoliciesPageSchema);
      checkPageLength(call, page.policies.length, q.pageSize ?? LIMITS.policiesPageSize.max);
      const { items, unreadable } = readEach(PolicySchema, page.policies);
      return { policies: items, unreadable, pagination: page.pagination };
    });
  }

  async listAllPolicies(q: Omit<PolicyQuery, 'page'> = {}): Promise<Policy[]> {
    const pageSize = q.pageSize ?? LIMITS.policiesPageSize.max;
    checkPageSize('listPolicies', pageSize, LIMITS.policiesPageSize);
    const { items } = await collectPages('GET /policies', 'listPolicies', pageSize, this.maxPages, async (page) => {
      const r = await this.listPolicies({ ...q, page, pageSize });
      return { items: r.policies, read: r.policies.length + r.unreadable.length, totalPages: r.pagination?.total_pages };
    });
    return items;
  }

  // ---- quality issues

  async listQualityIssues(
    scanId: string,
    q: { classification?: string; page?: number; pageSize?: number; signal?: AbortSignal; onRetry?: (r: RetryNotice) => void; retries?: number } = {},
  ): Promise<QualityIssuesResult> {
    const op = 'listQualityIssues';
    checkScanId(op, scanId);
    checkPage(op, q.page);
    checkPageSize(op, q.pageSize, LIMITS.qualityPageSize);
    const call: Call = {
      operation: op,
      method: 'GET',
      path: `/scan/${enc(scanId)}/issues/quality`,
      endpoint: 'GET /scan/{scan_id}/issues/quality',
      query: { classification: q.classification || undefined, page: str(q.page), page_size: str(q.pageSize) },
      signal: q.signal,
      idempotent: true,
      onRetry: q.onRetry,
      retries: q.retries,
    };
    return await this.transport.send(call, (a) => {
      const page = parse(call, a, QualityIssuesPageSchema);
      checkPageLength(call, page.issues.length, q.pageSize ?? LIMITS.qualityPageSize.max);
      const { items, unreadable } = readEach(QualityIssueSchema, page.issues);
      // No public client confirms the filter's name and the service ignores unknown
      // parameters (decisions.md): the answer is filtered here too.
      const issues = q.classification ? items.filter((i) => matchesClassification(i, q.classification!)) : items;
      return { issues, unreadable, received: page.issues.length, bytes: a.bytes ?? 0, page: page.page, total_pages: page.total_pages, total_issues: page.total_issues };
    });
  }

  /**
   * Every page of a scan's issues. While a scan still runs, new issues are inserted at the
   * top (newest first) and push older ones onto the next page, so ids are de-duplicated.
   * An issue that cannot be read is left out and described in `unreadable`; the rest are
   * returned (decisions.md: one odd record never fails the page).
   */
  listAllQualityIssues(scanId: string, q?: ListAllOptions): Promise<AllQualityIssues<QualityIssue>>;
  /**
   * With `convert`, each page's issues are converted as the page arrives (undefined: left
   * out, counted in `dropped`): tens of thousands of parsed records then die young instead
   * of living until the last page, each one copied by every garbage collection meanwhile.
   */
  listAllQualityIssues<T extends { id: string }>(scanId: string, q: ListAllOptions & { convert: (issue: QualityIssue) => T | undefined }): Promise<AllQualityIssues<T>>;
  async listAllQualityIssues(
    scanId: string,
    q: ListAllOptions & { convert?: (issue: QualityIssue) => { id: string } | undefined } = {},
  ): Promise<AllQualityIssues<{ id: string }>> {
    const pageSize = q.pageSize ?? LIMITS.qualityPageSize.max;
    checkPageSize('listQualityIssues', pageSize, LIMITS.qualityPageSize);
    let totalIssues: number | undefined;
    let dropped = 0;
    const unreadable: Unreadable[] = [];
    const { convert, ...query } = q;
    let read = 0;
    let bytes = 0;
    const full = () => read >= this.maxScanFindings || bytes >= this.maxScanBytes;
    const { items, stoppedEarly } = await collectPages('GET /scan/{scan_id}/issues/quality', 'listQualityIssues', pageSize, this.maxPages, async (page) => {
      // Past the bounds of one scan no further page is asked for; what was not read is counted.
      if (page > 1 && full()) return { items: [], read: 0, totalPages: undefined };
      const r = await this.listQualityIssues(scanId, { ...query, page, pageSize });
      read += r.received;
      bytes += r.bytes;
      if (page === 1 || r.total_issues !== undefined) totalIssues = r.total_issues ?? totalIssues;
      unreadable.push(...r.unreadable);
      let pageItems: { id: string }[] = r.issues;
      if (convert) {
        pageItems = [];
        for (const issue of r.issues) {
          const converted = convert(issue);
          if (converted) pageItems.push(converted);
          else dropped++;
        }
      }
      return { items: pageItems, read: r.received, totalPages: r.total_pages };
    }, q.unchangedIfTotal === undefined ? undefined : () => totalIssues === q.unchangedIfTotal);
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

  // ---- the web app

  /**
   * The service's web app version (decisions.md: `GET /api/version`, outside `/api/v1`, no
   * credentials): the text, null when the service says it has none, undefined when it has no
   * such route (404: an older web app).
   */
  async webAppVersion(signal?: AbortSignal): Promise<string | null | undefined> {
    const base = new URL(this.baseUrl).pathname.replace(/\/+$/, '');
    const call: Call = {
      operation: 'webAppVersion',
      method: 'GET',
      path: `${base.replace(/\/v1$/, '')}/version`,
      endpoint: 'GET /api/version',
      outsideBase: true,
      signal,
      idempotent: true,
    };
    try {
      return await this.transport.send(call, (a) => {
        const v = (a.body as { version?: unknown } | undefined)?.version;
        return typeof v === 'string' && v.trim() ? v.trim().slice(0, 100) : null;
      });
    } catch (err) {
      if (err instanceof ServiceError && err.kind === 'not-found') return undefined;
      throw err;
    }
  }

  // ---- a scan's state

  /** See readScanStatus. */
  getScanStatus(scanId: string, q: { signal?: AbortSignal; onRetry?: (r: RetryNotice) => void; retries?: number } = {}): Promise<ScanStatusResult | undefined> {
    return readScanStatus(this.transport, scanId, q);
  }

  // ---- uploads

  /** `cookies`: the transfer's jar (affinity cookies the service sets are kept in it). */
  startTransfer(archiveName: string, o: { signal?: AbortSignal; cookies?: CookieJar } = {}): Promise<{ transferId: string }> {
    return startTransfer(this.transport, archiveName, o);
  }

  readOffset(transferId: string, o: { signal?: AbortSignal; onRetry?: (r: RetryNotice) => void; cookies?: CookieJar; retries?: number } = {}): Promise<number> {
    return readOffset(this.transport, transferId, o);
  }

  sendChunk(transferId: string, chunk: ChunkRequest): Promise<ChunkResult> {
    return sendChunk(this.transport, transferId, chunk);
  }


}

/** A raw request for tests and diagnostics (e.g. to send a deliberately broken JSON body). */
export async function rawServiceRequest(
  opts: ClientOptions,
  call: Omit<Call, 'endpoint'> & { endpoint?: string },
): Promise<Answer> {
  const t = transportFor({ ...opts, maxRetries: 0, retryBaseDelayMs: 0, maxRetryWaitMs: 0 });
  return t.send({ ...call, endpoint: call.endpoint ?? `${call.method} ${call.path}` });
}

/** decisions.md: a case-insensitive partial match on the classification's id or name. */
export function matchesClassification(issue: Pick<QualityIssue, 'classification'>, needle: string): boolean {
  const n = needle.trim().toLowerCase();
  if (!n) return true;
  const c = issue.classification;
  return !!c && [c.id, c.name].some((v) => typeof v === 'string' && v.toLowerCase().includes(n));
}


function str(n: number | undefined): string | undefined {
  return n === undefined ? undefined : String(n);
}




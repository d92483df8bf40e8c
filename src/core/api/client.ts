// Typed client for the seven operations of the service spec. Every request carries the
// auth header chosen from the token's shape and `CORGEA-SOURCE: vscode`; every answer is
// checked against the zod schemas, and every failure is a ServiceError.

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
import { listAll, listPage, type AllOfList, type ListAllQuery, type ListPage, type ListQuery, type ListRecord } from './findingLists';
import type { FindingList as FindingKind } from './findingLists';
import { readScanStatus, type ScanStatusResult } from './scanStatus';
import { checkBlockingRules, type BlockingAnswer } from './blockingRules';
import { findReusableScan } from './commitScans';
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
export type ListAllOptions = ListAllQuery;

export type AllQualityIssues<T> = AllOfList<T>;

/** Most findings read of one of a scan's lists: a repository with more is not one person's review. */
export const MAX_FINDINGS_PER_SCAN = 100_000;
/** Most bytes of answers read for one of a scan's lists. */
export const MAX_SCAN_BYTES = 256 * 1024 * 1024;

export type QualityIssuesResult = ListPage<QualityIssue>;

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

  // ---- a scan's findings (findingLists.ts)

  /** One page of one of a scan's lists. */
  listIssues<K extends FindingKind>(list: K, scanId: string, q: ListQuery = {}): Promise<ListPage<ListRecord[K]>> {
    return listPage(this.transport, list, scanId, q);
  }

  /** Every page of one of a scan's lists, each record converted as its page arrives (undefined: left out). */
  listAllIssues<K extends FindingKind, T extends { id: string }>(list: K, scanId: string, q: ListAllQuery & { convert: (issue: ListRecord[K]) => T | undefined }): Promise<AllOfList<T>> {
    return listAll(this.transport, list, scanId, { maxPages: this.maxPages, maxFindings: this.maxScanFindings, maxBytes: this.maxScanBytes }, q);
  }

  /** The spec's operation: one page of the code quality list. */
  listQualityIssues(scanId: string, q: ListQuery = {}): Promise<QualityIssuesResult> {
    return this.listIssues('quality', scanId, q);
  }

  /** Every page of the code quality list (listAllIssues). */
  listAllQualityIssues(scanId: string, q?: ListAllOptions): Promise<AllQualityIssues<QualityIssue>>;
  listAllQualityIssues<T extends { id: string }>(scanId: string, q: ListAllOptions & { convert: (issue: QualityIssue) => T | undefined }): Promise<AllQualityIssues<T>>;
  listAllQualityIssues(scanId: string, q: ListAllOptions & { convert?: (issue: QualityIssue) => { id: string } | undefined } = {}): Promise<AllQualityIssues<{ id: string }>> {
    return this.listAllIssues('quality', scanId, { ...q, convert: q.convert ?? ((i) => i) });
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

  // ---- CI's gate (blockingRules.ts)

  checkBlockingRules(scanId: string, q: Parameters<typeof checkBlockingRules>[2] = {}): Promise<BlockingAnswer> {
    return checkBlockingRules(this.transport, scanId, q);
  }

  // ---- a scan's state

  /** See commitScans.ts. */
  findReusableScan(project: string, sha: string, signal?: AbortSignal): ReturnType<typeof findReusableScan> {
    return findReusableScan(this.transport, project, sha, signal);
  }

  /** See readScanStatus. */
  getScanStatus(scanId: string, q: { signal?: AbortSignal; onRetry?: (r: RetryNotice) => void; retries?: number; retryBaseDelayMs?: number } = {}): Promise<ScanStatusResult | undefined> {
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



function str(n: number | undefined): string | undefined {
  return n === undefined ? undefined : String(n);
}




// /__admin/<secret>: scan records, transfer bytes, request log, fault switches and
// injected findings for code that runs outside the service's process (VS Code integration
// tests, the demo). Guarded although the service listens on loopback only: a web page the
// developer visits could otherwise reach it from the browser (cross-site requests, or DNS
// rebinding with a foreign Host name), so requests must name a loopback host, must not
// come from another site, and must carry the secret `npm run service` prints.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceCore } from './core';
import { LIST_IDS, type ListId, type PlannedOutcome, type SeedPolicy, type ServiceFinding } from './types';
import { HttpError, drain, readJson, sendError, sendJson } from './http';

export function scanList(core: ServiceCore) {
  return Object.values(core.store.state.scans)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((s) => structuredClone(s));
}

function applyFaultCommand(core: ServiceCore, cmd: unknown): void {
  if (!cmd || typeof cmd !== 'object') throw new HttpError(400, 'body must be a JSON object {action, route, count, ...}');
  const c = cmd as Record<string, unknown>;
  const route = String(c.route ?? '');
  const count = c.count === undefined ? 1 : Number(c.count);
  try {
    switch (c.action) {
      case 'failNext':
        core.faults.failNext(route, count, {
          status: Number(c.status),
          retryAfterSec: c.retryAfterSec === undefined ? undefined : Number(c.retryAfterSec),
          body: c.body,
        });
        break;
      case 'resetNext':
        core.faults.resetNext(route, count, { afterBodyBytes: c.afterBodyBytes === undefined ? undefined : Number(c.afterBodyBytes) });
        break;
      case 'delayNext':
        core.faults.delayNext(route, count, Number(c.ms));
        break;
      case 'malformedNext':
        core.faults.malformedNext(route, count);
        break;
      case 'clear':
        core.faults.clear();
        core.plannedOutcomes.length = 0;
        break;
      default:
        throw new Error('action must be one of failNext, resetNext, delayNext, malformedNext, clear');
    }
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  }
}

const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?$/i;

/** Why an admin request is refused, or undefined when it may proceed. Exported for tests. */
export function adminRefusal(req: IncomingMessage, secret: string, givenSecret: string | undefined): string | undefined {
  const host = req.headers.host ?? '';
  if (!LOOPBACK_HOST.test(host)) return `admin requests must address a loopback host, not "${host.slice(0, 100)}"`;
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return 'cross-site admin requests are refused';
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    let originHost = '';
    try { originHost = new URL(origin).host; } catch { /* refused below */ }
    if (originHost !== host) return 'cross-origin admin requests are refused';
  } else if (origin === 'null') {
    return 'cross-origin admin requests are refused';
  }
  const a = Buffer.from(givenSecret ?? '');
  const b = Buffer.from(secret);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return 'the admin secret is missing or wrong (use the admin URL the service printed)';
  return undefined;
}

/** Adds raw issues (any shape, as a hostile or unusual service would send) to a scan. */
async function injectIssues(core: ServiceCore, scanId: string, body: unknown): Promise<number> {
  const scan = core.store.scan(scanId);
  if (!scan) throw new HttpError(404, `scan ${scanId} not found`);
  const { issues, list = 'quality' } = (body ?? {}) as { issues?: unknown; list?: unknown };
  if (!Array.isArray(issues) || !issues.every((i) => i && typeof i === 'object')) throw new HttpError(400, 'body must be {issues: [objects], list?}');
  if (!(LIST_IDS as readonly unknown[]).includes(list)) throw new HttpError(400, `list must be one of ${LIST_IDS.join(', ')}`);
  const now = new Date().toISOString();
  const raw = issues.map((i) => ({ created_at: now, ...(i as object) }) as unknown as ServiceFinding);
  await core.store.addIssues(scanId, raw, list as ListId);
  scan.issueCount = core.store.countOf(scanId);
  await core.store.persist();
  return raw.length;
}

function setMode(core: ServiceCore, body: unknown): void {
  const b = (body ?? {}) as { shapes?: unknown; gone?: unknown; processingMs?: unknown; lists?: unknown };
  if (b.lists !== undefined && b.lists !== null && !(Array.isArray(b.lists) && b.lists.every((l) => (LIST_IDS as readonly unknown[]).includes(l)))) {
    throw new HttpError(400, `lists must be an array of ${LIST_IDS.join(', ')}, or null for all of them`);
  }
  if (b.shapes !== undefined && b.shapes !== 'seed' && b.shapes !== 'real') throw new HttpError(400, 'shapes must be "seed" or "real"');
  if (b.gone !== undefined && typeof b.gone !== 'boolean') throw new HttpError(400, 'gone must be true or false');
  const ms = b.processingMs;
  if (ms !== undefined && ms !== null && !(typeof ms === 'number' && Number.isInteger(ms) && ms >= 0)) {
    throw new HttpError(400, 'processingMs must be a whole number of milliseconds, or null for the default');
  }
  if (b.shapes !== undefined) core.mode.shapes = b.shapes;
  if (b.gone !== undefined) core.mode.gone = b.gone;
  if (ms !== undefined) core.mode.processingMs = ms ?? undefined;
  if (b.lists !== undefined) core.mode.lists = (b.lists as ListId[] | null) ?? undefined;
}

/** `{failedReason?, scanErrors?, count?, project?}`: how the next `count` scans (of `project`, when given) end. */
export function planOutcomes(core: ServiceCore, body: unknown): void {
  const b = (body ?? {}) as { failedReason?: unknown; scanErrors?: unknown; count?: unknown; project?: unknown };
  const count = b.count === undefined ? 1 : b.count;
  if (!Number.isInteger(count) || (count as number) < 1) throw new HttpError(400, 'count must be a positive integer');
  if (b.failedReason !== undefined && typeof b.failedReason !== 'string') throw new HttpError(400, 'failedReason must be a string');
  if (b.project !== undefined && (typeof b.project !== 'string' || !b.project)) throw new HttpError(400, 'project must be a project name');
  if (b.scanErrors !== undefined && !(Array.isArray(b.scanErrors) && b.scanErrors.every((e) => e && typeof e === 'object'))) {
    throw new HttpError(400, 'scanErrors must be an array of {scan_type, level, location, message}');
  }
  const outcome: PlannedOutcome = {
    failedReason: b.failedReason as string | undefined,
    // Given as they are: a hostile or unusual service may send any shape.
    scanErrors: b.scanErrors as PlannedOutcome['scanErrors'],
    ...(b.project ? { project: b.project as string } : {}),
  };
  for (let i = 0; i < (count as number); i++) core.plannedOutcomes.push(structuredClone(outcome));
}

/**
 * Adds policies to a company (`{add: [{company, name, cwes, ...}]}`, the rest of each filled
 * as the seed's are) or removes them (`{remove: [ids]}`), so a test can give its project
 * the policies it needs and take them away again.
 */
function changePolicies(core: ServiceCore, body: unknown): { added: number[]; removed: number } {
  const b = (body ?? {}) as { add?: unknown; remove?: unknown };
  const added: number[] = [];
  let removed = 0;
  if (Array.isArray(b.remove)) {
    const ids = new Set(b.remove.filter((x): x is number => typeof x === 'number'));
    const before = core.seed.policies.length;
    core.seed.policies = core.seed.policies.filter((p) => !ids.has(p.id));
    removed = before - core.seed.policies.length;
  }
  if (Array.isArray(b.add)) {
    for (const raw of b.add) {
      const p = (raw ?? {}) as Partial<SeedPolicy>;
      if (typeof p.company !== 'number' || typeof p.name !== 'string' || !Array.isArray(p.cwes)) throw new HttpError(400, 'each policy needs company (number), name and cwes');
      const id = Math.max(0, ...core.seed.policies.map((x) => x.id)) + 1;
      core.seed.policies.unshift({
        id, description: '', guidance_text: '', excludes: [], projects: [], active: true, approved: true, approved_by: 1,
        created_at: new Date().toISOString(), glob_pattern: '**/*', source_type: 'Web', repo_policy_file: 0, version: 1,
        archived: false, parent_policy: 0, read_only: false, created_by_corgea: false, ...p, company: p.company, name: p.name, cwes: p.cwes,
      } as SeedPolicy);
      added.push(id);
    }
  }
  return { added, removed };
}

export async function handleAdmin(core: ServiceCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [, , given, ...rest] = url.pathname.replace(/\/+$/, '').split('/');
  const refused = adminRefusal(req, core.opts.adminSecret, given === undefined ? undefined : decodeURIComponent(given));
  if (refused) {
    await drain(req);
    sendError(res, 403, refused);
    return;
  }
  const path = ['/__admin', ...rest].join('/');
  const method = req.method ?? 'GET';
  try {
    if (method === 'GET' && path === '/__admin/scans') {
      sendJson(res, 200, scanList(core));
    } else if (method === 'GET' && path.startsWith('/__admin/scans/')) {
      const id = decodeURIComponent(path.slice('/__admin/scans/'.length));
      const scan = core.store.scan(id);
      if (!scan) throw new HttpError(404, `scan ${id} not found`);
      sendJson(res, 200, { ...scan, issues: core.store.issuesOf(id), securityIssues: core.store.issuesOf(id, 'security'), dependencyIssues: core.store.issuesOf(id, 'dependency') });
    } else if (method === 'GET' && path === '/__admin/transfers') {
      sendJson(res, 200, Object.values(core.store.state.transfers));
    } else if (method === 'GET' && path === '/__admin/requests') {
      sendJson(res, 200, core.requestLog);
    } else if (method === 'GET' && path === '/__admin/seed') {
      sendJson(res, 200, core.seed);
    } else if (method === 'POST' && path.startsWith('/__admin/scans/') && path.endsWith('/issues')) {
      const id = decodeURIComponent(path.slice('/__admin/scans/'.length, -'/issues'.length));
      sendJson(res, 200, { status: 'ok', added: await injectIssues(core, id, await readJson(req)) });
    } else if (method === 'POST' && path.startsWith('/__admin/scans/') && path.endsWith('/finish')) {
      const id = decodeURIComponent(path.slice('/__admin/scans/'.length, -'/finish'.length));
      await drain(req);
      if (!core.runner.hurry(id)) throw new HttpError(409, `scan ${id} is not running`);
      sendJson(res, 200, { status: 'ok' });
    } else if (method === 'GET' && path === '/__admin/mode') {
      sendJson(res, 200, core.mode);
    } else if (method === 'POST' && path === '/__admin/mode') {
      setMode(core, await readJson(req));
      sendJson(res, 200, core.mode);
    } else if (method === 'POST' && path === '/__admin/scan-outcomes') {
      planOutcomes(core, await readJson(req));
      sendJson(res, 200, { status: 'ok', planned: core.plannedOutcomes.length });
    } else if (method === 'POST' && path === '/__admin/policies') {
      sendJson(res, 200, { status: 'ok', ...changePolicies(core, await readJson(req)) });
    } else if (method === 'POST' && path === '/__admin/faults') {
      applyFaultCommand(core, await readJson(req));
      sendJson(res, 200, { status: 'ok' });
    } else if (method === 'GET' && path === '/__admin') {
      sendJson(res, 200, { status: 'ok', endpoints: ['GET scans', 'GET scans/{id}', 'POST scans/{id}/issues', 'POST scans/{id}/finish', 'GET transfers', 'GET requests', 'GET seed', 'GET mode', 'POST mode', 'POST scan-outcomes', 'POST policies', 'POST faults'] });
    } else {
      await drain(req);
      sendError(res, 404, `no such admin endpoint: ${method} ${path}`);
    }
  } catch (e) {
    await drain(req);
    if (e instanceof HttpError) sendError(res, e.status, e.message);
    else sendError(res, 500, (e as Error).message);
  }
}

// /__admin: scan records, transfer bytes, request log and fault switches for code that
// runs outside the service's process (VS Code integration tests, the demo). No auth:
// the service listens on loopback only and holds test data.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceCore } from './core';
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
        break;
      default:
        throw new Error('action must be one of failNext, resetNext, delayNext, malformedNext, clear');
    }
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  }
}

export async function handleAdmin(core: ServiceCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const path = url.pathname.replace(/\/+$/, '');
  const method = req.method ?? 'GET';
  try {
    if (method === 'GET' && path === '/__admin/scans') {
      sendJson(res, 200, scanList(core));
    } else if (method === 'GET' && path.startsWith('/__admin/scans/')) {
      const id = decodeURIComponent(path.slice('/__admin/scans/'.length));
      const scan = core.store.scan(id);
      if (!scan) throw new HttpError(404, `scan ${id} not found`);
      sendJson(res, 200, { ...scan, issues: core.store.issuesOf(id) });
    } else if (method === 'GET' && path === '/__admin/transfers') {
      sendJson(res, 200, Object.values(core.store.state.transfers));
    } else if (method === 'GET' && path === '/__admin/requests') {
      sendJson(res, 200, core.requestLog);
    } else if (method === 'GET' && path === '/__admin/seed') {
      sendJson(res, 200, core.seed);
    } else if (method === 'POST' && path === '/__admin/faults') {
      applyFaultCommand(core, await readJson(req));
      sendJson(res, 200, { status: 'ok' });
    } else if (method === 'GET' && path === '/__admin') {
      sendJson(res, 200, { status: 'ok', endpoints: ['GET scans', 'GET scans/{id}', 'GET transfers', 'GET requests', 'GET seed', 'POST faults'] });
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

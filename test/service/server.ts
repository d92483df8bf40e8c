// Request dispatch: route lookup (404/405), fault injection, authentication, permission,
// handler, and turning every failure into a JSON answer instead of a crash.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { handleAdmin } from './admin';
import { requirePermission, type Principal } from './auth';
import type { ServiceCore } from './core';
import type { Fault } from './faults';
import { HttpError, drain, sendError, sendJson } from './http';
import { findRoute } from './routes';
import type { Route } from './routes/context';
import { markResponse } from './shapes';
import { BodyAbortedError } from './uploads/multipart';

export const API_PREFIX = '/api/v1';
export const WEB_APP_VERSION_PATH = '/api/version';
/** What real answers report as the web app's version. */
export const WEB_APP_VERSION = 'v1.71.3';

/**
 * The body as handlers read it. With a reset fault armed, the connection is destroyed once
 * `resetAfter` bytes went through (or at the end of a shorter body), before any handler
 * could see the end of the body, so nothing of the request is committed.
 */
function bodyStream(req: IncomingMessage, resetAfter?: number): Readable {
  let seen = 0;
  const cut = (cb: (e?: Error | null) => void) => {
    req.socket.destroy();
    cb(new BodyAbortedError('connection reset by fault'));
  };
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (resetAfter !== undefined && seen + chunk.length >= resetAfter) {
        const keep = resetAfter - seen;
        seen = resetAfter;
        if (keep > 0) this.push(chunk.subarray(0, keep));
        cut(cb);
        return;
      }
      seen += chunk.length;
      cb(null, chunk);
    },
    flush(cb) {
      if (resetAfter !== undefined) cut(cb);
      else cb();
    },
  });
  t.on('error', () => undefined);
  req.on('error', (e) => t.destroy(e));
  req.on('close', () => {
    if (!req.complete) t.destroy(new BodyAbortedError('client closed the connection mid-body'));
  });
  req.pipe(t);
  return t;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Answers the request as the fault says; returns true when the fault handled it. */
async function applyFault(fault: Fault, route: Route, req: IncomingMessage, res: ServerResponse, body: Readable): Promise<boolean> {
  switch (fault.kind) {
    case 'delay':
      await sleep(fault.ms);
      return false;
    case 'reset':
      if (fault.afterBodyBytes === 0 || route.method === 'GET' || route.method === 'HEAD') {
        req.socket.destroy();
        return true;
      }
      return false;
    case 'fail': {
      await drain(body);
      const headers: Record<string, string> = {};
      if (fault.retryAfterSec !== undefined) headers['Retry-After'] = String(fault.retryAfterSec);
      sendJson(res, fault.status, fault.body ?? { error: `injected fault: HTTP ${fault.status}` }, headers);
      return true;
    }
    case 'malformed': {
      await drain(body);
      const text = '{"status": "ok", "trunc';
      if (route.method === 'HEAD') {
        res.writeHead(200, { 'Upload-Offset': 'not-a-number', 'Content-Type': 'application/json' });
        res.end();
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(text.length) });
        res.end(text);
      }
      return true;
    }
  }
}

export function requestListener(core: ServiceCore) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    dispatch(core, req, res).catch((e: unknown) => {
      // Last resort: a bug in a handler must not take the service down.
      console.error('[reference-service] unhandled error:', e);
      if (!res.headersSent && !res.destroyed) sendError(res, 500, 'internal server error');
      else res.destroy();
    });
  };
}

async function dispatch(core: ServiceCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://localhost');
  } catch {
    await drain(req);
    sendError(res, 400, 'malformed request URL');
    return;
  }
  if (url.pathname === '/__admin' || url.pathname.startsWith('/__admin/')) {
    await handleAdmin(core, req, res, url);
    return;
  }
  const method = req.method ?? 'GET';
  const rawSource = req.headers['corgea-source'];
  const source = typeof rawSource === 'string' && rawSource !== '' ? rawSource : 'api';
  let routeId: string | null = null;
  let principal: Principal | undefined;
  // On close, so a connection a fault reset is in the log too (status 0: no answer).
  res.once('close', () => core.logRequest({
    method, path: url.pathname, route: routeId, status: res.writableFinished ? res.statusCode : 0,
    source: typeof rawSource === 'string' ? rawSource : null,
    auth: principal?.scheme ?? (req.headers.authorization || req.headers['service-token'] || req.headers['corgea-token'] ? 'unverified' : 'none'), at: new Date().toISOString(),
  }));

  // The web app's version, outside the API and without credentials (decisions.md); the seed
  // does not show it, so only real answers have it (404 otherwise: "an older web app").
  if (url.pathname === WEB_APP_VERSION_PATH && method === 'GET' && core.mode.shapes === 'real') {
    routeId = 'webAppVersion';
    await drain(req);
    sendJson(res, 200, { version: WEB_APP_VERSION });
    return;
  }
  const path = url.pathname.startsWith(`${API_PREFIX}/`) ? url.pathname.slice(API_PREFIX.length) : undefined;
  const found = path === undefined ? { allowed: [] as string[] } : findRoute(method, path, core.mode);
  if (!found.match) {
    await drain(req);
    if (found.allowed.length) sendError(res, 405, `method ${method} not allowed here; use ${found.allowed.join(', ')}`, { Allow: found.allowed.join(', ') });
    else sendError(res, 404, `no such endpoint: ${method} ${url.pathname}`);
    return;
  }
  const { route, params } = found.match;
  routeId = route.id;
  markResponse(res, core.mode);
  if (core.mode.gone) {
    await drain(req);
    sendError(res, 410, 'this API version is no longer supported; update your client');
    return;
  }
  const fault = core.faults.take(route.id);
  const body = bodyStream(req, fault?.kind === 'reset' ? fault.afterBodyBytes : undefined);
  if (fault && (await applyFault(fault, route, req, res, body))) return;

  try {
    principal = core.dir.authenticate(req, core.mode.shapes === 'real' ? 'corgea-token' : 'service-token');
  } catch (e) {
    await drain(body);
    const msg = e instanceof HttpError ? e.message : 'authentication failed';
    if (route.verifyStyle401) sendJson(res, 401, { status: 'error' });
    else sendError(res, 401, msg);
    return;
  }
  try {
    if (route.permission) requirePermission(principal, route.permission);
    await route.handler({ req, res, url, params, body, source, principal, core });
  } catch (e) {
    if (e instanceof BodyAbortedError || req.socket.destroyed) {
      res.destroy();
      return;
    }
    await drain(body);
    if (e instanceof HttpError) {
      sendError(res, e.status, e.message, e.headers);
    } else {
      console.error(`[reference-service] ${method} ${url.pathname} failed:`, e);
      sendError(res, 500, 'internal server error');
    }
  }
}

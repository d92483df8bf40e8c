// A scriptable HTTP server on 127.0.0.1 for wire-level client tests: it records every
// request (headers, raw body) and answers with whatever the test's handler returns.
// Used where the reference service cannot misbehave in the needed way (echoing the
// token, never-ending paging, HTTP-date Retry-After, missing headers).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  /** Destroy the socket instead of answering. */
  destroy?: boolean;
  delayMs?: number;
}

export interface Stub {
  baseUrl: string;
  origin: string;
  requests: Recorded[];
  handle(fn: (r: Recorded) => Reply): void;
  close(): Promise<void>;
}

export async function startStub(): Promise<Stub> {
  let handler: (r: Recorded) => Reply = () => ({ status: 500, json: { error: 'no handler' } });
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', path: u.pathname, query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(rec);
      const reply = handler(rec);
      const send = () => {
        if (reply.destroy) {
          req.socket.destroy();
          return;
        }
        const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(req.method === 'HEAD' ? undefined : body);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  // Idle connections stay open for the whole test file: a server closing one just as the
  // client reuses it (its keep-alive timeout, late on a busy machine) is a race no test asks for.
  server.keepAliveTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    requests,
    handle(fn) {
      handler = fn;
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

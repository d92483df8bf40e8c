// A real HTTP proxy for tests (the maintained `proxy` package), with what a test needs to
// see: an access log of every CONNECT and plain request (target, user, whether it was let
// through), optional Basic authentication, and a hosts map so a name like scanner.test
// reaches the loopback reference service while the client cannot resolve it itself.
// `closingProxy` is a hostile one: it accepts a CONNECT and closes the socket at once.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';

export interface ProxyLogEntry {
  method: string;
  /** `host:port` for CONNECT, the absolute URL otherwise, as the client asked. */
  target: string;
  /** The Basic user name the client sent, if any. */
  user?: string;
  allowed: boolean;
}

export interface TestProxy {
  url: string;
  port: number;
  log: ProxyLogEntry[];
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** Require these Basic credentials (407 otherwise). */
  auth?: { user: string; password: string };
  /** Host names the proxy resolves itself, e.g. `{ 'scanner.test': '127.0.0.1' }`. */
  hosts?: Record<string, string>;
}

function basicUser(req: http.IncomingMessage): { user: string; password: string } | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(req.headers['proxy-authorization'] ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const at = text.indexOf(':');
  return at < 0 ? undefined : { user: text.slice(0, at), password: text.slice(at + 1) };
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

function closer(server: http.Server): () => Promise<void> {
  return () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

export async function startTestProxy(opts: TestProxyOptions = {}): Promise<TestProxy> {
  const log: ProxyLogEntry[] = [];
  const server = createProxy(http.createServer()) as http.Server & { authenticate?: (req: http.IncomingMessage) => boolean };
  const allowed = (req: http.IncomingMessage) => {
    if (!opts.auth) return true;
    const given = basicUser(req);
    return given?.user === opts.auth.user && given.password === opts.auth.password;
  };
  server.authenticate = allowed;
  const record = (req: http.IncomingMessage) => {
    log.push({ method: req.method ?? '', target: req.url ?? '', user: basicUser(req)?.user, allowed: allowed(req) });
  };
  // Ahead of the proxy's own listeners: log what the client asked, then apply the hosts map.
  server.prependListener('connect', (req: http.IncomingMessage) => {
    record(req);
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const mapped = opts.hosts?.[host.toLowerCase()];
    if (mapped) req.url = `${mapped}:${port}`;
  });
  server.prependListener('request', (req: http.IncomingMessage) => record(req));
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, log, close: closer(server) };
}

/** A proxy that answers every CONNECT by closing the socket. */
export async function startClosingProxy(): Promise<TestProxy> {
  const log: ProxyLogEntry[] = [];
  const server = http.createServer((req, res) => { res.writeHead(502).end(); });
  server.on('connect', (req: http.IncomingMessage, socket) => {
    log.push({ method: 'CONNECT', target: req.url ?? '', allowed: false });
    socket.destroy();
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, log, close: closer(server) };
}

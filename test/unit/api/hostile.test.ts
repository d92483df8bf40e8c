// A hostile or broken service and the user's network: answers without end, uploads that
// never finish, proxies that must not see loopback traffic, secrets echoed back.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createProxy } from 'proxy';
import { ServiceClient, isServiceError } from '../../../src/core/api';
import { MAX_BYTES_FACTOR, MAX_REQUESTS_PER_CHUNK, UploadInterruptedError, uploadArchive } from '../../../src/core/upload/engine';
import { MemoryTransferStore } from '../../../src/core/upload/transferStore';
import { startReferenceService, type ReferenceService } from '../../service';
import { makeArchive, SMALL_CHUNK } from '../upload/fixtures';
import { startStub, type Stub } from './stubServer';

const TOKEN = 'hostile-test-token-1234567890';

describe('a hostile service', () => {
  let stub: Stub;
  before(async () => { stub = await startStub(); });
  after(async () => { await stub.close(); });

  test('an answer larger than the limit is refused while it streams, not read whole', async () => {
    const big = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // no length: streamed
      const piece = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 400 && res.write(piece)) sent++;
        if (sent < 400) res.once('drain', pump); else res.end();
      };
      pump();
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (big.address() as AddressInfo).port;
      const client = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, maxRetries: 0, maxResponseBytes: 4 * 1024 * 1024 });
      const err = await client.verify().catch((e: unknown) => e);
      assert.ok(isServiceError(err) && err.kind === 'bad-response', String(err));
      assert.match(err.message, /more than 4 MB/);
    } finally {
      big.closeAllConnections();
      big.close();
    }
  });

  test('a declared Content-Length above the default limit is refused before reading', async () => {
    const liar = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(400 * 1024 * 1024) });
      res.write('{"status":"ok"');
    });
    await new Promise<void>((r) => liar.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (liar.address() as AddressInfo).port;
      const client = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, maxRetries: 0, timeoutMs: 5000 });
      const err = await client.verify().catch((e: unknown) => e);
      assert.ok(isServiceError(err) && err.kind === 'bad-response', String(err));
      assert.match(err.message, /more than 32 MB/);
    } finally {
      liar.closeAllConnections();
      liar.close();
    }
  });

  test('the token echoed back re-cased, percent-encoded or in base64 never reaches the error', async () => {
    const echoes = [TOKEN.toUpperCase(), encodeURIComponent(TOKEN), Buffer.from(`user:${TOKEN}`).toString('base64')];
    for (const echo of echoes) {
      stub.handle(() => ({ status: 403, json: { error: `token ${echo} is not allowed` } }));
      const client = new ServiceClient({ baseUrl: stub.baseUrl, token: TOKEN, maxRetries: 0 });
      const err = await client.listRoles().catch((e: unknown) => e);
      assert.ok(isServiceError(err));
      assert.ok(!err.message.includes(echo) && !(err.serverMessage ?? '').includes(echo), err.message);
      assert.match(err.message, /\*\*\*/);
    }
  });

  describe('an upload the service never lets finish', () => {
    let archive: Awaited<ReturnType<typeof makeArchive>>;
    before(async () => { archive = await makeArchive(); });
    after(async () => { await archive.cleanup(); });

    const start = (r: { method: string; path: string }) => (r.method === 'POST' && r.path.endsWith('/start-scan') ? { json: { status: 'ok', transfer_id: 't1' } } : undefined);

    test('rewinding to offset 0 after every accepted chunk stops within the byte budget', async () => {
      let accepted = false;
      stub.requests.length = 0;
      stub.handle((r) => {
        const s = start(r);
        if (s) return s;
        if (r.method === 'HEAD') return { headers: { 'Upload-Offset': '0' } };
        const offset = Number(r.headers['upload-offset']);
        accepted = !accepted;
        if (accepted) return { headers: { 'Upload-Offset': String(offset + SMALL_CHUNK) }, json: { status: 'ok', message: 'chunk' } };
        return { status: 409, headers: { 'Upload-Offset': '0' }, json: { error: 'offset mismatch' } };
      });
      const client = new ServiceClient({ baseUrl: stub.baseUrl, token: TOKEN, maxRetries: 0 });
      const err = await uploadArchive({ client, archive: archive.archive, fields: {}, store: new MemoryTransferStore(), chunkSize: SMALL_CHUNK, baseDelayMs: 1 }).catch((e: unknown) => e);
      assert.ok(err instanceof UploadInterruptedError, String(err));
      assert.match(err.message, /kept asking for data again/);
      const sent = stub.requests.filter((r) => r.method === 'PATCH').length;
      const chunks = Math.ceil(archive.archive.size / SMALL_CHUNK);
      assert.ok(sent <= MAX_REQUESTS_PER_CHUNK * chunks + 32, `${sent} PATCH requests`);
      const bodyBytes = stub.requests.filter((r) => r.method === 'PATCH').reduce((n, r) => n + r.body.length, 0);
      assert.ok(bodyBytes <= (MAX_BYTES_FACTOR + 1) * archive.archive.size + 2 * SMALL_CHUNK + sent * 4096, `${bodyBytes} bytes sent`);
    });

    test('a service that takes one byte per request stops within the request budget', async () => {
      stub.requests.length = 0;
      stub.handle((r) => {
        const s = start(r);
        if (s) return s;
        if (r.method === 'HEAD') return { headers: { 'Upload-Offset': '0' } };
        return { headers: { 'Upload-Offset': String(Number(r.headers['upload-offset']) + 1) }, json: { status: 'ok', message: 'one byte' } };
      });
      const client = new ServiceClient({ baseUrl: stub.baseUrl, token: TOKEN, maxRetries: 0 });
      const err = await uploadArchive({ client, archive: archive.archive, fields: {}, store: new MemoryTransferStore(), chunkSize: SMALL_CHUNK, baseDelayMs: 1 }).catch((e: unknown) => e);
      assert.ok(err instanceof UploadInterruptedError, String(err));
      const chunks = Math.ceil(archive.archive.size / SMALL_CHUNK);
      assert.ok(stub.requests.length <= MAX_REQUESTS_PER_CHUNK * chunks + 32 + 2, `${stub.requests.length} requests`);
    });
  });

  test('a page holding more findings than asked for is refused, not read', async () => {
    stub.handle(() => ({ json: { status: 'ok', page: 1, total_pages: 1, total_issues: 5000, issues: Array.from({ length: 5000 }, (_, i) => ({ id: `f${i}`, location: { file: { path: 'a.js' } } })) } }));
    const c = new ServiceClient({ baseUrl: stub.baseUrl, token: TOKEN, maxRetries: 0 });
    const err = await c.listAllQualityIssues('s').catch((e: unknown) => e);
    assert.ok(isServiceError(err) && err.kind === 'bad-response', String(err));
    assert.match(err.message, /a page held 5000 records where at most 50 were asked for/);
  });

  test('one scan is read up to its bounds of findings and bytes; how many were not read is said', async () => {
    const page = (n: number) => ({ json: { status: 'ok', page: n, total_pages: 1_000_000, total_issues: 50_000_000, issues: Array.from({ length: 50 }, (_, i) => ({ id: `p${n}-${i}`, location: { file: { path: 'a.js' } } })) } });
    stub.handle((r) => page(Number(r.query.get('page'))));
    stub.requests.length = 0;
    const byCount = await new ServiceClient({ baseUrl: stub.baseUrl, token: TOKEN, maxRetries: 0, maxPages: 1_000_000, maxScanFindings: 500 }).listAllQualityIssues('s');
    assert.ok(byCount.issues.length >= 500 && byCount.issues.length <= 500 + 4 * 50, `${byCount.issues.length} read`);
    assert.equal(byCount.notRead, 50_000_000 - byCount.issues.length);
    assert.ok(stub.requests.length <= 15, `${stub.requests.length} requests`);
    stub.requests.length = 0;
    const byBytes = await new ServiceClient({ baseUrl: stub.baseUrl, token: TOKEN, maxRetries: 0, maxPages: 1_000_000, maxScanBytes: 20_000 }).listAllQualityIssues('s');
    assert.ok(byBytes.notRead && byBytes.notRead > 0);
    assert.ok(stub.requests.length <= 12, `${stub.requests.length} requests`);
  });

});

describe('the user\'s network: a proxy in the environment', () => {
  let service: ReferenceService;
  let proxy: http.Server;
  let proxyUrl: string;
  const seen: string[] = [];
  const saved: Record<string, string | undefined> = {};
  const VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'NO_PROXY', 'no_proxy'];

  before(async () => {
    service = await startReferenceService();
    proxy = createProxy(http.createServer());
    proxy.on('request', (req: http.IncomingMessage) => seen.push(`${req.method} ${req.url}`));
    proxy.on('connect', (req: http.IncomingMessage) => seen.push(`CONNECT ${req.url}`));
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    for (const v of VARS) saved[v] = process.env[v];
    for (const v of VARS) delete process.env[v];
    process.env.HTTP_PROXY = proxyUrl;
    process.env.HTTPS_PROXY = proxyUrl;
  });
  after(async () => {
    for (const v of VARS) { if (saved[v] === undefined) delete process.env[v]; else process.env[v] = saved[v]; }
    proxy.closeAllConnections();
    proxy.close();
    await service.close();
  });

  test('a loopback service is reached directly: the proxy never sees the request or the token', async () => {
    seen.length = 0;
    const client = new ServiceClient({ baseUrl: service.baseUrl, token: service.demoToken, maxRetries: 0 });
    const res = await client.verify({ userInfo: true });
    assert.equal(res.status, 'ok');
    const local = new ServiceClient({ baseUrl: service.baseUrl.replace('127.0.0.1', 'localhost'), token: service.demoToken, maxRetries: 0 });
    await local.verify();
    assert.deepEqual(seen, []);
  });

  test('a remote service goes through the proxy (so the check above can fail)', async () => {
    seen.length = 0;
    const client = new ServiceClient({ baseUrl: 'https://scanner.invalid/api/v1', token: service.demoToken, maxRetries: 0, timeoutMs: 5000 });
    await client.verify().catch(() => undefined);
    assert.deepEqual(seen, ['CONNECT scanner.invalid:443']);
  });
});

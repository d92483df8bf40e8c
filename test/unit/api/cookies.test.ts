// Affinity cookies (decisions.md): the cookies the service sets on a transfer's requests go
// back with that transfer's later requests only, to the same origin, within their path and
// expiry; they are kept with the saved transfer so a resume reaches the same instance, and
// never appear in a message. Against a stub that records them and the reference service in
// real answer shapes, which answers a chunk without its cookie as another instance would.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ServiceClient, ServiceError, TransferCookies } from '../../../src/core/api';
import { resumeUpload, uploadArchive } from '../../../src/core/upload/engine';
import { MemoryTransferStore } from '../../../src/core/upload/transferStore';
import { startReferenceService, type ReferenceService } from '../../service';
import { SAMPLE_FILES, buildArchive } from '../service/wire';
import { startStub, type Reply, type Stub } from './stubServer';

describe('a transfer\'s cookies, on their own', () => {
  const origin = 'https://scanner.example';
  const at = (p: string) => new URL(`${origin}${p}`);

  test('sent back within their path, longest path first; not to another origin; a secure one only over https', () => {
    const jar = new TransferCookies(origin);
    jar.take(at('/api/v1/start-scan'), ['lb=one; Path=/api/v1/start-scan', 'wide=two; Path=/', 'narrow=three; Path=/api/v1/other', 'sec=four; Secure']);
    assert.equal(jar.header(at('/api/v1/start-scan/t1/')), 'lb=one; sec=four; wide=two');
    assert.equal(jar.header(at('/api/v1/start-scanner')), 'sec=four; wide=two', 'a path is matched segment by segment');
    assert.equal(jar.header(new URL('https://other.example/api/v1/start-scan/t1/')), undefined, 'never to another host');
    assert.equal(jar.header(new URL('http://scanner.example/api/v1/start-scan/t1/')), undefined, 'another scheme is another origin');
    const plain = new TransferCookies('http://127.0.0.1:8080');
    plain.take(new URL('http://127.0.0.1:8080/api/v1/start-scan'), ['sec=x; Secure', 'ok=y']);
    assert.equal(plain.header(new URL('http://127.0.0.1:8080/api/v1/start-scan/t/')), 'ok=y', 'a secure cookie set over http is refused');
  });

  test('a cookie from another origin is not taken; a Domain attribute does not widen it', () => {
    const jar = new TransferCookies(origin);
    jar.take(new URL('https://evil.example/x'), ['stolen=1; Path=/']);
    jar.take(at('/api/v1/start-scan'), ['lb=1; Domain=example; Path=/']);
    assert.equal(jar.size, 1);
    assert.equal(jar.header(new URL('https://sub.scanner.example/')), undefined);
  });

  test('expiry: Max-Age and Expires are honoured, a past one deletes, session cookies stay for the transfer', () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    const jar = new TransferCookies(origin, [], () => now);
    jar.take(at('/a'), ['short=1; Max-Age=60; Path=/', 'dated=2; Expires=Wed, 25 Nov 2026 13:00:00 GMT; Path=/', 'session=3; Path=/']);
    assert.equal(jar.header(at('/a')), 'short=1; dated=2; session=3');
    now += 61_000;
    assert.equal(jar.header(at('/a')), 'dated=2; session=3');
    jar.take(at('/a'), ['dated=gone; Max-Age=0; Path=/']);
    assert.equal(jar.header(at('/a')), 'session=3');
    now += 24 * 3600_000;
    assert.equal(jar.header(at('/a')), 'session=3');
    assert.deepEqual(new TransferCookies(origin, jar.toJSON()).header(at('/a')), 'session=3', 'kept and read back');
  });

  test('a flood of cookies and giant values are not kept', () => {
    const jar = new TransferCookies(origin);
    jar.take(at('/'), [...Array.from({ length: 50 }, (_, i) => `c${i}=v; Path=/`), `big=${'x'.repeat(5000)}; Path=/`, '=nameless', 'bad']);
    assert.equal(jar.size, 10);
    assert.ok(!jar.header(at('/'))!.includes('big='));
  });
});

describe('affinity cookies on the wire', () => {
  let stub: Stub;
  before(async () => { stub = await startStub(); });
  after(() => stub.close());

  test('set on start, sent on HEAD and PATCH of that transfer, redacted from any message', async () => {
    const secret = 'affinity-Zq81-secret';
    let n = 0;
    stub.handle((r): Reply => {
      if (r.method === 'POST') return { headers: { 'set-cookie': `lb=${secret}; Path=/api/v1/start-scan; HttpOnly` }, json: { status: 'ok', transfer_id: 'tr-1' } };
      if (r.method === 'HEAD') return { headers: { 'upload-offset': '0' } };
      return ++n === 1 ? { status: 400, json: { error: `instance for lb=${secret} is draining` } } : { json: { scan_id: 's-1' } };
    });
    const c = new ServiceClient({ baseUrl: stub.baseUrl, token: 'stub-api-key-1234', maxRetries: 0 });
    const cookies = new TransferCookies(new URL(stub.baseUrl).origin);
    await c.startTransfer('p.zip', { cookies });
    await c.readOffset('tr-1', { cookies });
    const err = await c.sendChunk('tr-1', { offset: 0, totalLength: 1, archiveName: 'p.zip', body: Buffer.from('x'), bodyLength: 1, fields: {}, cookies }).catch((e: unknown) => e);
    assert.ok(err instanceof ServiceError);
    assert.ok(!`${err.message} ${err.serverMessage} ${err.stack}`.includes(secret), 'the cookie never shows in a message');
    await c.sendChunk('tr-1', { offset: 0, totalLength: 1, archiveName: 'p.zip', body: Buffer.from('x'), bodyLength: 1, fields: {}, cookies });
    const sent = stub.requests.map((r) => [r.method, r.headers.cookie]);
    assert.deepEqual(sent, [['POST', undefined], ['HEAD', `lb=${secret}`], ['PATCH', `lb=${secret}`], ['PATCH', `lb=${secret}`]]);
    stub.requests.length = 0;
    await c.verify().catch(() => undefined);
    assert.equal(stub.requests[0]?.headers.cookie, undefined, 'no other request carries it');
  });
});

describe('affinity cookies against the reference service (real answers)', () => {
  let svc: ReferenceService;
  let dir: string;
  let archive: Buffer;
  before(async () => {
    svc = await startReferenceService({ scanDurationMs: 20, shapes: 'real' });
    dir = await fsp.mkdtemp(path.join(tmpdir(), 'cookies-'));
    archive = await buildArchive('zip', { ...SAMPLE_FILES, 'pad.bin.txt': 'p'.repeat(4000) });
  });
  after(async () => {
    await svc.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const client = () => new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken, retryBaseDelayMs: 1 });
  async function archiveRef() {
    const p = path.join(dir, 'a.zip');
    await fsp.writeFile(p, archive);
    const { createHash } = await import('node:crypto');
    return { path: p, name: 'a.zip', size: archive.length, sha256: createHash('sha256').update(archive).digest('hex') };
  }

  test('an upload in chunks reaches the same instance every time: one transfer, no restart', async () => {
    const store = new MemoryTransferStore();
    const before = svc.requests().length;
    const out = await uploadArchive({ client: client(), archive: await archiveRef(), fields: {}, store, chunkSize: 1024 });
    assert.equal(out.kind, 'complete');
    const calls = svc.requests().slice(before);
    assert.equal(calls.filter((c) => c.route === 'startScan').length, 1, 'no transfer had to be started again');
    assert.ok(calls.filter((c) => c.route === 'patchChunk').every((c) => c.status === 200), JSON.stringify(calls));
    assert.equal(await store.load(), undefined, 'the transfer and its cookies are dropped once it ends');
  });

  test('a resume after a reload sends the saved cookies again and reaches the same instance', async () => {
    const store = new MemoryTransferStore();
    svc.faults.failNext('patchChunk', 2, { status: 503 });
    const stopped = await uploadArchive({ client: client(), archive: await archiveRef(), fields: {}, store, chunkSize: 1024, maxRetries: 1, baseDelayMs: 1 }).catch((e: unknown) => e);
    assert.ok(stopped instanceof Error && /resumed/.test(stopped.message), String(stopped));
    const saved = await store.load();
    assert.equal(saved?.cookies?.length, 1, 'the cookie is kept with the saved transfer');
    assert.equal(saved?.origin, new URL(svc.baseUrl).origin);
    const before = svc.requests().length;
    // A new client and engine run, as after a window reload.
    const out = await resumeUpload({ client: client(), store, chunkSize: 1024 });
    assert.equal(out.kind, 'complete');
    const calls = svc.requests().slice(before);
    assert.equal(calls.filter((c) => c.route === 'startScan').length, 0, 'the saved transfer went on');
    assert.ok(!calls.some((c) => c.status === 404), JSON.stringify(calls));
  });

  test('without its cookie a chunk reaches another instance, which does not know the transfer', async () => {
    const c = client();
    const cookies = new TransferCookies(new URL(svc.baseUrl).origin);
    const { transferId } = await c.startTransfer('a.zip', { cookies });
    assert.equal(await c.readOffset(transferId), 0);
    const lost = await c.sendChunk(transferId, { offset: 0, totalLength: 1, archiveName: 'a.zip', body: Buffer.from('x'), bodyLength: 1, fields: {} }).catch((e: unknown) => e);
    assert.ok(lost instanceof ServiceError && lost.kind === 'not-found', String(lost));
  });
});

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ServiceClient, type ChunkRequest, type ChunkResult } from '../../../src/core/api';
import type { BuiltArchive } from '../../../src/core/archive/zip';
import { HELD_BYTES, openTransfer, resumeUpload, uploadArchive, UploadInterruptedError, type UploadProgress } from '../../../src/core/upload/engine';
import { SLICE_BYTES } from '../../../src/core/upload/chunkReader';
import { FileTransferStore, MemoryTransferStore } from '../../../src/core/upload/transferStore';
import { startReferenceService, type ReferenceService } from '../../service';
import { SMALL_CHUNK, demoClient, makeArchive, sha256, storedScan } from './fixtures';
import { incompressible } from '../workspace/helpers';

/** A client that runs `hook` before each PATCH, to disturb the service at a precise moment. */
class HookedClient extends ServiceClient {
  calls = 0;
  constructor(
    service: ReferenceService,
    private readonly hook: (n: number, transferId: string, chunk: ChunkRequest) => Promise<void>,
    /** Runs once the service has answered the chunk. */
    private readonly afterHook?: (transferId: string, chunk: ChunkRequest) => void,
  ) {
    super({ baseUrl: service.baseUrl, token: service.demoToken, timeoutMs: 10_000 });
  }
  override async sendChunk(transferId: string, chunk: ChunkRequest): Promise<ChunkResult> {
    await this.hook(++this.calls, transferId, chunk);
    const result = await super.sendChunk(transferId, chunk);
    this.afterHook?.(transferId, chunk);
    return result;
  }
}

let service: ReferenceService;
let archive: BuiltArchive;
let cleanup: () => Promise<void>;
const fast = { chunkSize: SMALL_CHUNK, baseDelayMs: 5 };

before(async () => {
  service = await startReferenceService();
  ({ archive, cleanup } = await makeArchive());
  assert.ok(archive.size > 4 * SMALL_CHUNK, 'the fixture archive must span several chunks');
});
after(async () => {
  await cleanup();
  await service.close();
});

/** Asserts the service stored exactly our archive, both as the scan's file and as the transfer's bytes. */
function assertIdentical(svc: ReferenceService, scanId: string): void {
  const { scan, sha256: stored } = storedScan(svc, scanId);
  assert.equal(stored, archive.sha256, 'scan archive differs from the local archive');
  assert.equal(scan.archiveSize, archive.size);
  const bytes = svc.transferBytes(scan.transferId);
  assert.ok(bytes, 'transfer bytes missing');
  assert.equal(sha256(bytes), archive.sha256, 'transfer bytes differ from the local archive');
}

describe('upload engine: the service holds a byte-identical archive after each fault', () => {
  const cases: { name: string; arm: (s: ReferenceService) => void; seen: (statuses: number[], log: { method: string }[]) => boolean }[] = [
    { name: 'HTTP 500 on two chunks', arm: (s) => s.faults.failNext('patchChunk', 2, { status: 500 }), seen: (st) => st.filter((x) => x === 500).length === 2 },
    {
      name: 'HTTP 503 on a chunk and on the offset read',
      arm: (s) => {
        s.faults.failNext('patchChunk', 1, { status: 503 });
        s.faults.failNext('headTransfer', 1, { status: 503 });
      },
      seen: (st) => st.filter((x) => x === 503).length === 2,
    },
    { name: 'HTTP 503 when starting the transfer', arm: (s) => s.faults.failNext('startScan', 1, { status: 503 }), seen: (st) => st.includes(503) },
    { name: 'HTTP 502 three times in a row', arm: (s) => s.faults.failNext('patchChunk', 3, { status: 502 }), seen: (st) => st.filter((x) => x === 502).length === 3 },
    {
      name: 'a garbled (non-JSON) chunk answer: the offset is read again',
      arm: (s) => s.faults.malformedNext('patchChunk', 1),
      seen: (_st, log) => log.filter((r) => r.method === 'HEAD').length === 2,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const before = service.requests().length;
      c.arm(service);
      const store = new MemoryTransferStore();
      const out = await uploadArchive({ client: demoClient(service), archive, fields: { projectName: 'faults' }, store, ...fast });
      assert.equal(out.kind, 'complete');
      assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
      const log = service.requests().slice(before);
      assert.ok(c.seen(log.map((r) => r.status), log), 'the fault did not happen');
      assert.equal(await store.load(), undefined, 'a completed upload leaves nothing to resume');
      service.faults.clear();
    });
  }

  test('HTTP 429 with Retry-After: waits as told, then continues', async () => {
    const before = service.requests().length;
    service.faults.failNext('patchChunk', 1, { status: 429, retryAfterSec: 1 });
    const out = await uploadArchive({ client: demoClient(service), archive, fields: {}, store: new MemoryTransferStore(), ...fast });
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
    const log = service.requests().slice(before);
    const i = log.findIndex((r) => r.status === 429);
    assert.ok(i >= 0 && i + 1 < log.length, 'the 429 was not answered');
    const gap = Date.parse(log[i + 1].at) - Date.parse(log[i].at);
    assert.ok(gap >= 950, `the next request came ${gap} ms after the 429, before Retry-After (1 s) elapsed`);
  });

  test('connection reset in the middle of a chunk body', async () => {
    service.faults.resetNext('patchChunk', 1, { afterBodyBytes: 20_000 });
    let chunks = 0;
    const client = new HookedClient(service, async () => void chunks++);
    const out = await uploadArchive({ client, archive, fields: {}, store: new MemoryTransferStore(), ...fast });
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
    assert.equal(chunks, Math.ceil(archive.size / SMALL_CHUNK) + 1, 'exactly one chunk should have been sent twice');
  });

  test('connection reset in the middle of a chunk of several slices: the retry sends the same bytes', async () => {
    // A chunk of four slices goes out slice by slice, read as the request takes them; the
    // retry sends them again from the reader's buffer (chunkReader.test.ts covers a retry of
    // a chunk read in part). The connection drops in the middle of the second slice.
    const chunkSize = 4 * SLICE_BYTES;
    const big = await makeArchive({ 'data/more.dat': incompressible(chunkSize * 1.5) });
    try {
      service.faults.resetNext('patchChunk', 1, { afterBodyBytes: Math.round(SLICE_BYTES * 1.5) });
      let chunks = 0;
      const client = new HookedClient(service, async () => void chunks++);
      const out = await uploadArchive({ client, archive: big.archive, fields: {}, store: new MemoryTransferStore(), chunkSize, baseDelayMs: 5 });
      assert.equal(out.kind, 'complete');
      const { sha256: stored } = storedScan(service, out.kind === 'complete' ? out.scanId : '');
      assert.equal(stored, big.archive.sha256);
      assert.equal(chunks, Math.ceil(big.archive.size / chunkSize) + 1, 'exactly one chunk should have been sent twice');
    } finally {
      await big.cleanup();
    }
  });

  test('HTTP 409: a chunk sent from a stale offset continues from the server offset', async () => {
    const before = service.requests().length;
    // Before the engine's second PATCH, the same chunk reaches the service from elsewhere
    // (say a duplicated request), so the engine's request carries a stale offset.
    const client: HookedClient = new HookedClient(service, async (n, id, chunk) => {
      if (n !== 2) return;
      const buf = Buffer.alloc(chunk.bodyLength);
      const fh = await fsp.open(archive.path, 'r');
      await fh.read(buf, 0, buf.length, chunk.offset);
      await fh.close();
      await ServiceClient.prototype.sendChunk.call(client, id, { ...chunk, body: buf });
    });
    const out = await uploadArchive({ client, archive, fields: {}, store: new MemoryTransferStore(), ...fast });
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
    assert.ok(service.requests().slice(before).some((r) => r.status === 409), 'no 409 happened');
  });

  test('the service restarts on the same data directory during the upload', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-restart-'));
    let svc = await startReferenceService({ dataDir });
    const port = Number(new URL(svc.origin).port);
    let restarted: Promise<void> | undefined;
    const client = new HookedClient(svc, async (n) => {
      if (n !== 3) return;
      await svc.close();
      // Back on the same port a little later: the engine meanwhile meets refused connections.
      restarted = new Promise((r) => setTimeout(r, 150)).then(async () => {
        svc = await startReferenceService({ dataDir, port });
      });
    });
    try {
      const out = await uploadArchive({ client, archive, fields: {}, store: new MemoryTransferStore(), chunkSize: SMALL_CHUNK, baseDelayMs: 50, maxRetries: 8 });
      await restarted;
      assert.equal(out.kind, 'complete');
      assertIdentical(svc, out.kind === 'complete' ? out.scanId : '');
      assert.ok(!svc.requests().some((r) => r.method === 'POST'), 'the restarted service saw a new transfer start instead of a resume');
    } finally {
      await restarted;
      await svc.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('upload engine: interruption and resume', () => {
  test('process restart: a new engine resumes from the saved transfer on a restarted service (new address)', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'resume-'));
    const storePath = path.join(dir, 'transfer.json');
    let svc = await startReferenceService({ dataDir: path.join(dir, 'data') });
    try {
      const ac = new AbortController();
      await assert.rejects(
        uploadArchive({
          client: demoClient(svc), archive, fields: { projectName: 'resume' }, store: new FileTransferStore(storePath), ...fast, signal: ac.signal, folder: '/ws',
          onProgress: (p) => p.sentBytes >= 2 * SMALL_CHUNK && ac.abort(),
        }),
        (e: unknown) => e instanceof UploadInterruptedError && e.resumable && e.cancelled && /resumed/.test(e.message),
      );
      const saved = await new FileTransferStore(storePath).load();
      assert.ok(saved, 'the transfer was not saved');
      assert.equal(saved.folder, '/ws');
      const heldBefore = svc.transferBytes(saved.transferId)?.length ?? 0;
      assert.ok(heldBefore > 0 && heldBefore < archive.size, 'the first process should have stopped part-way');

      await svc.close();
      svc = await startReferenceService({ dataDir: path.join(dir, 'data') });
      const progress: UploadProgress[] = [];
      const out = await resumeUpload({ client: demoClient(svc), store: new FileTransferStore(storePath), ...fast, onProgress: (p) => progress.push(p) });
      assert.equal(out.kind, 'complete');
      assertIdentical(svc, out.kind === 'complete' ? out.scanId : '');
      assert.equal(storedScan(svc, out.kind === 'complete' ? out.scanId : '').scan.transferId, saved.transferId);
      assert.ok(!svc.requests().some((r) => r.method === 'POST'), 'resume must not start a new transfer');
      assert.equal(progress[0].sentBytes, heldBefore, 'progress starts from what the service already holds');
      assert.equal(await new FileTransferStore(storePath).load(), undefined);
    } finally {
      await svc.close();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  test('cancel then resume with the same archive: one transfer, identical bytes', async () => {
    const before = service.requests().length;
    const store = new MemoryTransferStore();
    const ac = new AbortController();
    const err = await uploadArchive({ client: demoClient(service), archive, fields: {}, store, ...fast, signal: ac.signal, onProgress: (p) => p.sentBytes >= SMALL_CHUNK && ac.abort() }).catch((e: unknown) => e);
    assert.ok(err instanceof UploadInterruptedError && err.cancelled, `expected a cancelled interruption, got ${String(err)}`);
    assert.ok(await store.load(), 'cancellation must leave the transfer resumable');
    const out = await uploadArchive({ client: demoClient(service), archive, fields: {}, store, ...fast });
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
    assert.equal(service.requests().slice(before).filter((r) => r.method === 'POST').length, 1, 'the second call must resume, not restart');
  });

  test('after the bounded retries it stops with a resumable error, and resume completes it', async () => {
    service.faults.failNext('patchChunk', 50, { status: 500 });
    const store = new MemoryTransferStore();
    const err = await uploadArchive({ client: demoClient(service), archive, fields: {}, store, ...fast, maxRetries: 2 }).catch((e: unknown) => e);
    assert.ok(err instanceof UploadInterruptedError, `expected UploadInterruptedError, got ${String(err)}`);
    assert.equal(err.cancelled, false);
    assert.match(err.message, /can be resumed/);
    assert.ok(await store.load());
    service.faults.clear();
    const out = await resumeUpload({ client: demoClient(service), store, ...fast });
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
  });

  test('resume refuses when the archive changed since the upload started', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'changed-'));
    const copy = path.join(dir, archive.name);
    await fsp.copyFile(archive.path, copy);
    const store = new MemoryTransferStore();
    const ac = new AbortController();
    await uploadArchive({ client: demoClient(service), archive: { ...archive, path: copy }, fields: {}, store, ...fast, signal: ac.signal, onProgress: (p) => p.sentBytes > 0 && ac.abort() }).catch(() => undefined);
    assert.ok(await store.load());
    const buf = await fsp.readFile(copy);
    buf[buf.length - 30] ^= 0xff; // same size, different content
    await fsp.writeFile(copy, buf);
    const before = service.requests().length;
    await assert.rejects(resumeUpload({ client: demoClient(service), store, ...fast }), /changed since the upload started/);
    assert.equal(service.requests().length, before, 'nothing may be sent for a changed archive');
    assert.equal(await store.load(), undefined);
    await fsp.rm(dir, { recursive: true, force: true });
  });

  test('"already in progress" is reported as its own outcome, not as a failure', async () => {
    const store = new MemoryTransferStore();
    const out = await uploadArchive({ client: demoClient(service), archive, fields: {}, store, ...fast });
    assert.equal(out.kind, 'complete');
    const scan = storedScan(service, out.kind === 'complete' ? out.scanId : '').scan;
    // The completing answer was "lost": the saved transfer is still there on the next try.
    await store.save({ transferId: scan.transferId, archivePath: archive.path, archiveName: archive.name, size: archive.size, sha256: archive.sha256, fields: {}, createdAt: new Date().toISOString() });
    const again = await resumeUpload({ client: demoClient(service), store, ...fast });
    assert.equal(again.kind, 'in-progress');
    assert.match(again.kind === 'in-progress' ? again.message : '', /already in progress/);
    assert.equal(await store.load(), undefined);
  });

  test('progress counts up to the total with a rate', async () => {
    const progress: UploadProgress[] = [];
    const out = await uploadArchive({ client: demoClient(service), archive, fields: {}, store: new MemoryTransferStore(), ...fast, onProgress: (p) => progress.push(p) });
    assert.equal(out.kind, 'complete');
    assert.ok(progress.length >= 2);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].sentBytes >= progress[i - 1].sentBytes, 'progress went backwards without a fault');
    assert.ok(progress.every((p) => p.totalBytes === archive.size));
    assert.equal(progress.at(-1)!.sentBytes, archive.size);
    assert.ok(progress.at(-1)!.bytesPerSecond > 0);
  });

  test('a saved transfer the service no longer knows is started again, once', async () => {
    const before = service.requests().length;
    const store = new MemoryTransferStore({
      transferId: 'c0ffee00-0000-4000-8000-000000000000', archivePath: archive.path, archiveName: archive.name,
      size: archive.size, sha256: archive.sha256, fields: {}, createdAt: new Date().toISOString(),
    });
    const out = await uploadArchive({ client: demoClient(service), archive, fields: {}, store, ...fast });
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
    const log = service.requests().slice(before);
    assert.ok(log.some((r) => r.method === 'PATCH' && r.status === 404), 'the stale transfer was not tried');
    assert.equal(log.filter((r) => r.method === 'POST').length, 1);
  });

  test('an archive cut short while it is uploaded stops the upload with what to do, without retrying', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'shortened-'));
    const copy = path.join(dir, archive.name);
    await fsp.copyFile(archive.path, copy);
    try {
      // Before the third chunk, the archive loses its end from the middle of that chunk on.
      const client = new HookedClient(service, async (n) => { if (n === 3) await fsp.truncate(copy, 2 * SMALL_CHUNK + 1000); });
      const err = await uploadArchive({ client, archive: { ...archive, path: copy }, fields: {}, store: new MemoryTransferStore(), ...fast }).catch((e: unknown) => e);
      assert.ok(err instanceof Error && !(err instanceof UploadInterruptedError), `expected a plain error, got ${String(err)}`);
      assert.match(err.message, /is shorter than expected; package the workspace again/);
      assert.equal(client.calls, 3, 'a chunk that cannot be read is not sent again');
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  test('resume with nothing saved says so', async () => {
    await assert.rejects(resumeUpload({ client: demoClient(service), store: new MemoryTransferStore() }), /no interrupted upload/);
  });
});

describe('upload engine: holding back the last bytes (a re-scan waiting for late watcher reports)', () => {
  test('everything but the last bytes is on the service while the hold lasts; the scan starts once it is over', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => { release = r; });
    let offsetDuringHold: number | undefined;
    // The hold ends once the service has taken what the engine may send (its answer to that
    // chunk): the offset read then says what it holds while the rest waits.
    const client = new HookedClient(service, async (_n, _transferId, chunk) => {
      if (chunk.offset + chunk.bodyLength === archive.size && offsetDuringHold === undefined) {
        assert.fail('the last bytes went out before the hold was over');
      }
    }, (transferId, chunk) => {
      if (chunk.offset + chunk.bodyLength === archive.size - HELD_BYTES) {
        void demoClient(service).readOffset(transferId).then((o) => { offsetDuringHold = o; release(); });
      }
    });
    const before = service.scans().length;
    // One chunk would hold the whole archive: the hold still lets all but HELD_BYTES go ahead.
    const out = await uploadArchive({ client, archive, fields: { projectName: 'held' }, store: new MemoryTransferStore(), chunkSize: archive.size, holdLast: hold });
    assert.equal(offsetDuringHold, archive.size - HELD_BYTES, 'the service held all but the last bytes while the hold lasted');
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
    assert.equal(service.scans().length, before + 1);
  });

  test('a hold that fails stops the upload with its error, before the last bytes: the service scans nothing', async () => {
    const before = service.scans().length;
    const seen: number[] = [];
    const client = new HookedClient(service, async (_n, _t, chunk) => { seen.push(chunk.offset + chunk.bodyLength); });
    const store = new MemoryTransferStore();
    const late = new Error('a file was written late');
    const holdLast = new Promise<void>((_r, reject) => setTimeout(() => reject(late), 50));
    const err = await uploadArchive({ client, archive, fields: { projectName: 'held' }, store, ...fast, holdLast }).catch((e: unknown) => e);
    assert.equal(err, late);
    assert.ok(!seen.includes(archive.size), 'the request completing the archive was never made');
    assert.ok(Math.max(...seen) >= archive.size - HELD_BYTES, 'all but the held bytes had gone out');
    assert.equal(service.scans().length, before, 'no scan started');
  });

  test('a hold already over when the last chunk comes costs no extra request', async () => {
    const client = new HookedClient(service, async () => undefined);
    const out = await uploadArchive({ client, archive, fields: { projectName: 'held' }, store: new MemoryTransferStore(), chunkSize: archive.size, holdLast: Promise.resolve() });
    assert.equal(out.kind, 'complete');
    assert.equal(client.calls, 1);
  });
});

test('a hold that fails while the transfer is still starting is neither lost nor unhandled', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    service.faults.delayNext('startScan', 1, 200);
    const late = new Error('a file was written late');
    const err = await uploadArchive({
      client: demoClient(service), archive, fields: { projectName: 'held' }, store: new MemoryTransferStore(), ...fast, holdLast: Promise.reject(late),
    }).catch((e: unknown) => e);
    assert.equal(err, late);
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});

describe('upload engine: a transfer opened while the archive was made (openTransfer)', () => {
  test('is the one the upload takes: one start, one offset read, then only chunks', async () => {
    const before = service.requests().length;
    const opened = openTransfer(demoClient(service), archive.name);
    const o = await opened;
    assert.ok(o, 'the transfer opened');
    assert.equal(o.offset, 0);
    const store = new MemoryTransferStore();
    const out = await uploadArchive({ client: demoClient(service), archive, fields: { projectName: 'opened' }, store, ...fast, opened });
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
    assert.equal(storedScan(service, out.kind === 'complete' ? out.scanId : '').scan.transferId, o.transferId);
    const routes = service.requests().slice(before).map((r) => r.route);
    assert.deepEqual(routes.slice(0, 2), ['startScan', 'headTransfer']);
    assert.deepEqual(new Set(routes.slice(2)), new Set(['patchChunk']), JSON.stringify(routes));
  });

  test('one that did not start costs nothing more: the upload starts its own, with its retries', async () => {
    service.faults.failNext('startScan', 2, { status: 503 });
    const before = service.requests().length;
    const opened = openTransfer(demoClient(service), archive.name);
    assert.equal(await opened, undefined);
    const retries: string[] = [];
    const out = await uploadArchive({
      client: demoClient(service), archive, fields: { projectName: 'opened' }, store: new MemoryTransferStore(), ...fast, opened, onRetry: (r) => retries.push(r.reason),
    });
    assert.equal(out.kind, 'complete');
    assertIdentical(service, out.kind === 'complete' ? out.scanId : '');
    const starts = service.requests().slice(before).filter((r) => r.route === 'startScan').map((r) => r.status);
    assert.deepEqual(starts, [503, 503, 200]);
    assert.equal(retries.length, 1, 'the upload retried its own start once');
  });

  test('one for another archive name is left alone', async () => {
    const opened = openTransfer(demoClient(service), 'other.zip');
    const o = await opened;
    assert.ok(o);
    const out = await uploadArchive({ client: demoClient(service), archive, fields: { projectName: 'opened' }, store: new MemoryTransferStore(), ...fast, opened });
    assert.equal(out.kind, 'complete');
    assert.notEqual(storedScan(service, out.kind === 'complete' ? out.scanId : '').scan.transferId, o.transferId);
  });

  test('a start whose offset read failed is asked its offset again before the first chunk', async () => {
    service.faults.failNext('headTransfer', 1, { status: 400 });
    const before = service.requests().length;
    const opened = openTransfer(demoClient(service), archive.name);
    const o = await opened;
    assert.ok(o && o.offset === undefined);
    const out = await uploadArchive({ client: demoClient(service), archive, fields: { projectName: 'opened' }, store: new MemoryTransferStore(), ...fast, opened });
    assert.equal(out.kind, 'complete');
    const routes = service.requests().slice(before).map((r) => `${r.route} ${r.status}`);
    assert.deepEqual(routes.slice(0, 4), ['startScan 200', 'headTransfer 400', 'headTransfer 200', 'patchChunk 200'], JSON.stringify(routes));
  });
});

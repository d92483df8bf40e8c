// Requests through real network parts: the reference service over HTTPS with a certificate
// from a private CA made at test time, a real proxy (with Basic authentication and its own
// access log), and a hostile proxy that closes every tunnel. No mocks.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ServiceClient, ServiceError } from '../../../src/core/api';
import { ENVIRONMENT_ONLY, Network, type NetworkSettings } from '../../../src/core/network';
import { makeTestCa, TEST_HOST, type TestCa } from '../../network/testCa';
import { startClosingProxy, startTestProxy, type TestProxy } from '../../network/testProxy';
import { startReferenceService, type ReferenceService } from '../../service';
import { promises as fsp } from 'node:fs';
import { ArchivedFiles } from '../../../src/core/scan/archivedFiles';
import { scanFolder } from '../../../src/core/scan/pipeline';
import { MemoryTransferStore } from '../../../src/core/upload/transferStore';
import { selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { git, writeTree } from '../workspace/helpers';

function settings(over: { proxy?: Partial<NetworkSettings['proxy']>; trust?: Partial<NetworkSettings['trust']> } = {}): NetworkSettings {
  return {
    proxy: { ...ENVIRONMENT_ONLY.proxy, ...over.proxy },
    trust: { systemCertificates: true, strictSSL: true, ...over.trust },
  };
}

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof ServiceError, `expected a ServiceError, got ${String(err)}`);
  return err;
}

describe('the user\'s network, with real parts', () => {
  let svc: ReferenceService;
  let ca: TestCa;
  let other: TestCa;
  let dir: string;
  let proxy: TestProxy;
  const networks: Network[] = [];
  /** Environments without the machine's own proxy or CA variables. */
  const clean: NodeJS.ProcessEnv = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'network-test-'));
    ca = makeTestCa(join(dir, 'ca'));
    other = makeTestCa(join(dir, 'other'), 'Some Other CA');
    svc = await startReferenceService({ tls: { cert: ca.cert, key: ca.key } });
    proxy = await startTestProxy({ auth: { user: 'alice', password: 'pr0xy-pass' }, hosts: { [TEST_HOST]: '127.0.0.1' } });
  });
  after(async () => {
    await Promise.all(networks.map((n) => n.close()));
    await proxy.close();
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function client(baseUrl: string, s: NetworkSettings, env: NodeJS.ProcessEnv = clean, extra: { timeoutMs?: number } = {}) {
    const network = new Network(s, env);
    networks.push(network);
    return new ServiceClient({ baseUrl, token: svc.demoToken, network, maxRetries: 0, ...extra });
  }
  const localTls = () => svc.tlsBaseUrl!;
  const remoteTls = () => `https://${TEST_HOST}:${svc.tlsPort}/api/v1`;

  describe('certificates', () => {
    test('without the private CA the connection fails, naming the host and the settings that help', async () => {
      const err = await failure(client(localTls(), settings()).verify());
      assert.equal(err.kind, 'network');
      assert.match(err.message, /TLS certificate of localhost was not accepted/);
      assert.match(err.message, /http\.systemCertificates/);
      assert.match(err.message, /NODE_EXTRA_CA_CERTS/);
      assert.match(err.message, /http\.proxyStrictSSL/);
    });

    test('NODE_EXTRA_CA_CERTS naming the CA lets it through', async () => {
      const res = await client(localTls(), settings({ trust: { systemCertificates: false } }), { NODE_EXTRA_CA_CERTS: ca.caFile }).verify();
      assert.equal(res.status, 'ok');
    });

    test('the system store (here pointed at the CA with SSL_CERT_FILE) lets it through only while http.systemCertificates is on', async () => {
      const env = { SSL_CERT_FILE: ca.caFile };
      assert.equal((await client(localTls(), settings(), env).verify()).status, 'ok');
      const err = await failure(client(localTls(), settings({ trust: { systemCertificates: false } }), env).verify());
      assert.match(err.message, /not accepted/);
    });

    test('another CA does not help; only http.proxyStrictSSL: false turns checking off', async () => {
      const wrong = await failure(client(localTls(), settings(), { NODE_EXTRA_CA_CERTS: other.caFile }).verify());
      assert.match(wrong.message, /not accepted/);
      assert.equal((await client(localTls(), settings({ trust: { strictSSL: false } })).verify()).status, 'ok');
    });

    test('an unreadable NODE_EXTRA_CA_CERTS is reported, not fatal', async () => {
      const n = new Network(settings(), { NODE_EXTRA_CA_CERTS: join(dir, 'missing.pem') });
      networks.push(n);
      assert.match((await n.trust()).problems.join(' '), /missing\.pem, which could not be read/);
    });
  });

  describe('an authenticating proxy', () => {
    const withCa = { NODE_EXTRA_CA_CERTS: '' };
    before(() => { withCa.NODE_EXTRA_CA_CERTS = ca.caFile; });

    test('sign-in, upload, scan and findings pass through it over TLS, with the credentials from the URL', async () => {
      proxy.log.length = 0;
      const c = client(remoteTls(), settings({ proxy: { proxy: `http://alice:pr0xy-pass@127.0.0.1:${proxy.port}` } }), withCa);
      assert.equal((await c.verify({ userInfo: true })).status, 'ok');
      const root = join(dir, 'workspace');
      const storage = join(dir, 'storage');
      await writeTree(root, { 'src/app.js': 'const x = eval(input);\nif (a == b) { go(); }\n', 'README.md': '# demo\n' });
      git(root, 'init', '-q');
      await fsp.mkdir(storage, { recursive: true });
      const store = new MemoryTransferStore();
      let issues = 0;
      const result = await scanFolder({ root, projectName: 'via-proxy', partial: false, select: () => selectWorkspaceFiles(root) }, {
        client: c,
        uploads: {
          store,
          archiveRoot: storage,
          archivedFiles: new ArchivedFiles(join(storage, 'archived-files')),
          discard: () => store.clear(),
          deleteArchive: (p) => fsp.rm(p, { force: true }),
        },
        signal: new AbortController().signal,
        onProgress: () => undefined,
        log: () => undefined,
        onScan: async (e) => { if (e.kind === 'completed') issues = e.findings.issues.length; },
        wait: { intervalMs: 50, maxPolls: 100 },
      });
      assert.equal(result.kind, 'scanned');
      assert.ok(issues > 0, `findings came back through the proxy: ${JSON.stringify(result)}`);
      assert.ok(proxy.log.length >= 1);
      assert.ok(proxy.log.every((e) => e.method === 'CONNECT' && e.target === `${TEST_HOST}:${svc.tlsPort}` && e.user === 'alice' && e.allowed), JSON.stringify(proxy.log));
      assert.ok(svc.requests().some((r) => r.route === 'verify'));
    });

    test('http.proxyAuthorization is sent as the header', async () => {
      proxy.log.length = 0;
      const header = `Basic ${Buffer.from('alice:pr0xy-pass').toString('base64')}`;
      const c = client(remoteTls(), settings({ proxy: { proxy: `http://127.0.0.1:${proxy.port}`, proxyAuthorization: header } }), withCa);
      assert.equal((await c.verify()).status, 'ok');
      assert.equal(proxy.log[0]?.user, 'alice');
    });

    test('wrong credentials: a 407 says the credentials given were refused, is not retried, and never shows the password', async () => {
      proxy.log.length = 0;
      const c = client(remoteTls(), settings({ proxy: { proxy: `http://alice:wr0ng-secret@127.0.0.1:${proxy.port}` } }), withCa);
      const err = await failure(c.verify());
      assert.equal(err.kind, 'proxy-auth', 'not a lost connection');
      assert.match(err.message, /refused the credentials it was given \(407\)/);
      assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${proxy.port}`));
      assert.match(err.message, /http\.proxyAuthorization/);
      assert.ok(!err.message.includes('wr0ng-secret'));
      assert.equal(proxy.log.length, 1, 'asked once: trying again would send the same credentials');
    });

    test('no credentials: a 407 says where to put them', async () => {
      const c = client(remoteTls(), settings({ proxy: { proxy: `http://127.0.0.1:${proxy.port}` } }), withCa);
      const err = await failure(c.verify());
      assert.equal(err.kind, 'proxy-auth');
      assert.match(err.message, /asked for credentials \(407\)\. Put them in the proxy address/);
    });

    test('the environment\'s HTTPS_PROXY is used when the setting is empty', async () => {
      proxy.log.length = 0;
      const c = client(remoteTls(), settings(), { ...withCa, HTTPS_PROXY: `http://alice:pr0xy-pass@127.0.0.1:${proxy.port}` });
      assert.equal((await c.verify()).status, 'ok');
      assert.equal(proxy.log.length, 1);
    });

    test('http.noProxy and http.proxySupport off bypass it: the client then resolves the name itself', async () => {
      for (const s of [
        settings({ proxy: { proxy: `http://alice:pr0xy-pass@127.0.0.1:${proxy.port}`, noProxy: [TEST_HOST] } }),
        settings({ proxy: { proxy: `http://alice:pr0xy-pass@127.0.0.1:${proxy.port}`, support: 'off' } }),
      ]) {
        proxy.log.length = 0;
        const err = await failure(client(remoteTls(), s, withCa).verify());
        assert.deepEqual(proxy.log, [], 'the proxy saw nothing');
        // Only the proxy knows scanner.test: going direct, the name cannot be resolved.
        assert.match(err.message, /host name scanner\.test could not be resolved/);
      }
    });

    test('a loopback service is never proxied, whatever the settings say', async () => {
      proxy.log.length = 0;
      const c = client(svc.baseUrl, settings({ proxy: { proxy: `http://alice:pr0xy-pass@127.0.0.1:${proxy.port}` } }));
      assert.equal((await c.verify()).status, 'ok');
      assert.deepEqual(proxy.log, []);
    });
  });

  describe('a hostile proxy', () => {
    test('one that closes the tunnel right after CONNECT ends the request at once, without retrying in a loop', async () => {
      const closing = await startClosingProxy();
      try {
        const c = client(remoteTls(), settings({ proxy: { proxy: closing.url } }), clean, { timeoutMs: 10_000 });
        const err = await failure(c.verify());
        assert.equal(err.kind, 'network');
        assert.match(err.message, /closed the connection before it reached scanner\.test/);
        assert.ok(closing.log.length <= 2, `${closing.log.length} CONNECT attempts`);
      } finally {
        await closing.close();
      }
    });

    test('one that accepts the tunnel and never answers is given up at the timeout', async () => {
      const sockets: Socket[] = [];
      const silent = createServer((s) => { sockets.push(s); s.on('error', () => undefined); });
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
      const port = (silent.address() as AddressInfo).port;
      try {
        const c = client(remoteTls(), settings({ proxy: { proxy: `http://127.0.0.1:${port}` } }), clean, { timeoutMs: 300 });
        const err = await failure(c.verify());
        assert.equal(err.kind, 'timeout');
      } finally {
        for (const s of sockets) s.destroy();
        await new Promise<void>((r) => silent.close(() => r()));
      }
    });
  });
});

// Which certificate authorities the extension trusts, the way the editor does: Node's
// bundled roots, plus the system's trusted roots (`http.systemCertificates`, on by
// default: where a company installs the authority of its TLS-inspecting proxy), plus the
// file NODE_EXTRA_CA_CERTS names. `http.proxyStrictSSL: false` turns checking off.
import { promises as fs } from 'node:fs';
import * as tls from 'node:tls';
import { Worker } from 'node:worker_threads';
import { l10n } from '../text/l10n';

export interface TrustSettings {
  /** `http.systemCertificates`. */
  systemCertificates: boolean;
  /** `http.proxyStrictSSL`: false accepts any certificate. */
  strictSSL: boolean;
}

export interface Trust {
  /** The authorities to trust; undefined leaves Node's defaults. */
  ca?: string[];
  rejectUnauthorized: boolean;
  /** What was added to Node's bundled roots, in words (for Check Connection). */
  sources: string[];
  /** What could not be read, in words. */
  problems: string[];
}

/** Where Linux distributions and macOS keep the system's bundle, for Node versions that cannot ask. */
const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/tls/cacert.pem',
  '/etc/ssl/cert.pem',
];

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function pemBlocks(text: string): string[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => m[0]);
}

async function readPemFile(file: string): Promise<string[]> {
  return pemBlocks(await fs.readFile(file, 'utf8'));
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}

/**
 * Node 22.15+ and 23.5+ read the system store themselves (also the keychain and Windows
 * store), in one synchronous call that parses every certificate: it held the editor's
 * extension host for 50-100 ms, so it runs on a thread of its own, once per process.
 */
const SYSTEM_STORE_WORKER = `
const { parentPort } = require('node:worker_threads');
const tls = require('node:tls');
let certs = null;
try { if (typeof tls.getCACertificates === 'function') certs = tls.getCACertificates('system'); } catch { certs = null; }
parentPort.postMessage(certs);
`;

let systemStoreRead: Promise<string[] | undefined> | undefined;

function systemStore(): Promise<string[] | undefined> {
  systemStoreRead ??= new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(SYSTEM_STORE_WORKER, { eval: true });
    } catch {
      resolve(undefined);
      return;
    }
    worker.once('message', (m: unknown) => {
      resolve(Array.isArray(m) && m.every((c) => typeof c === 'string') ? m : undefined);
      void worker.terminate();
    });
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  return systemStoreRead;
}

export async function loadTrust(s: TrustSettings, env: NodeJS.ProcessEnv): Promise<Trust> {
  const sources: string[] = [];
  const problems: string[] = [];
  const added: string[] = [];
  if (s.systemCertificates) {
    const store = await systemStore();
    if (store) {
      added.push(...store);
      sources.push(l10n.t('the system\'s trusted certificates ({0})', store.length));
    }
    // SSL_CERT_FILE is how OpenSSL's store is pointed elsewhere; older Node versions, which
    // cannot ask the system, read it and the distribution's bundle instead.
    const files = [env.SSL_CERT_FILE, ...(store ? [] : SYSTEM_BUNDLES)].filter((f): f is string => !!f);
    for (const file of files) {
      if (!(await exists(file))) continue;
      try {
        const certs = await readPemFile(file);
        added.push(...certs);
        if (!store) sources.push(l10n.t('the system\'s trusted certificates from {0} ({1})', file, certs.length));
        if (file !== env.SSL_CERT_FILE) break;
      } catch {
        problems.push(l10n.t('The system certificate file {0} could not be read.', file));
      }
    }
  }
  const extra = env.NODE_EXTRA_CA_CERTS?.trim();
  if (extra) {
    try {
      const certs = await readPemFile(extra);
      if (certs.length) {
        added.push(...certs);
        sources.push(l10n.t('NODE_EXTRA_CA_CERTS ({0} from {1})', certs.length, extra));
      } else {
        problems.push(l10n.t('NODE_EXTRA_CA_CERTS names {0}, which holds no PEM certificate.', extra));
      }
    } catch {
      problems.push(l10n.t('NODE_EXTRA_CA_CERTS names {0}, which could not be read.', extra));
    }
  }
  const ca = added.length ? [...new Set([...tls.rootCertificates, ...added])] : undefined;
  return { ca, rejectUnauthorized: s.strictSSL, sources, problems };
}

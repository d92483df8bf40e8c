// A private certificate authority made at test time with openssl, like the one a company's
// TLS-inspecting proxy uses, and a server certificate it signed for the reference service
// (localhost, 127.0.0.1 and scanner.test, the name tests reach through a proxy).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCa {
  dir: string;
  /** The authority's certificate (PEM file), what a user would be given by their IT. */
  caFile: string;
  certFile: string;
  keyFile: string;
  ca: string;
  cert: string;
  key: string;
}

/** The host name tests use for the service when it must not look like loopback. */
export const TEST_HOST = 'scanner.test';

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`openssl ${args[0]} failed (is openssl installed?): ${stderr || (err as Error).message}`);
  }
}

export function makeTestCa(dir: string, subject = 'Code Scanner Test CA'): TestCa {
  mkdirSync(dir, { recursive: true });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '3', '-subj', `/CN=${subject}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${TEST_HOST}`], dir);
  writeFileSync(join(dir, 'server.ext'), [
    `subjectAltName=DNS:localhost,DNS:${TEST_HOST},IP:127.0.0.1`,
    'basicConstraints=CA:FALSE',
    'keyUsage=critical,digitalSignature',
    'extendedKeyUsage=serverAuth',
  ].join('\n') + '\n');
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem',
    '-days', '3', '-extfile', 'server.ext'], dir);
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    certFile: join(dir, 'server.pem'),
    keyFile: join(dir, 'server.key'),
    ca: read('ca.pem'),
    cert: read('server.pem'),
    key: read('server.key'),
  };
}

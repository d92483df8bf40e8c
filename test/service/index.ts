// The reference service: a real HTTP server implementing the spec (service-api.md) with
// decisions.md for its gaps. Tests start it in-process; `npm run service` runs cli.ts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planOutcomes, scanList } from './admin';
import { ServiceCore, type RequestLogEntry } from './core';
import type { FaultController } from './faults';
import { signJwt } from './jwt';
import { ScanRunner } from './scans/runner';
import { requestListener } from './server';
import type { AnswerMode, Shapes } from './shapes';
import type { ListId } from './types';
import type { ScanRecord, Seed } from './types';

export type { FaultController } from './faults';
export type { QualityIssue, ScanRecord, Seed, SeedTokens } from './types';
export type { RequestLogEntry } from './core';
export { ROUTE_IDS } from './faults';

export interface ReferenceServiceOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  seedPath?: string;
  scanDurationMs?: number;
  /** Largest archive accepted, default 2 GiB. */
  maxArchiveBytes?: number;
  /** Most bytes a scan inflates from one archive, default 256 MiB. */
  maxScannedBytes?: number;
  /** Most files a scan rules on; unbounded by default (a limit reached is reported in scan_errors). */
  maxScannedFiles?: number;
  /** Secret of the admin URL; random by default. */
  adminSecret?: string;
  /** Answer shapes: the spec's examples (default) or those real answers show (decisions.md). */
  shapes?: Shapes;
  /** Answer every API request with 410 (this API version retired). */
  gone?: boolean;
  /** How long each scan runs (also switchable: `mode.processingMs`); default scanDurationMs. */
  processingMs?: number;
  /** The lists of findings the service has (also switchable: `mode.lists`); default all three. */
  lists?: ListId[];
  /**
   * Also serve the API over HTTPS with this certificate, on a port of its own (the admin API
   * stays on the plain loopback origin). Tests make one with test/network/testCa.ts.
   */
  tls?: { cert: string; key: string };
}

export interface ReferenceService {
  origin: string;
  baseUrl: string;
  /** With `tls`: `https://localhost:<port>/api/v1`, the same service over HTTPS. */
  tlsBaseUrl?: string;
  /** With `tls`: the HTTPS port (reach it under any name the certificate holds). */
  tlsPort?: number;
  /** `${origin}/__admin/<secret>`: the admin API answers only under this prefix. */
  adminUrl: string;
  /** Kept after close() when given in the options (to start again on it); a temp dir made by the service is removed. */
  dataDir: string;
  seed: Seed;
  demoToken: string;
  issueJwt(userId: number, opts?: { expiresInSec?: number }): string;
  faults: FaultController;
  /** The answer mode, switchable while running (also `POST /__admin/mode`). */
  mode: AnswerMode;
  /** How the next `count` scans end: failed with a reason, or complete with scan_errors (also `POST /__admin/scan-outcomes`). */
  planOutcome(outcome: { failedReason?: string; scanErrors?: unknown[]; project?: string }, count?: number): void;
  scans(): ScanRecord[];
  transferBytes(transferId: string): Buffer | undefined;
  /** Every API request so far (method, path, route, status, CORGEA-SOURCE value, auth scheme). */
  requests(): RequestLogEntry[];
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_SEED_PATH = join(here, 'seed.json');

export async function startReferenceService(opts: ReferenceServiceOptions = {}): Promise<ReferenceService> {
  const seed = JSON.parse(readFileSync(opts.seedPath ?? DEFAULT_SEED_PATH, 'utf8')) as Seed;
  const ownsDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'reference-service-'));
  const adminSecret = opts.adminSecret ?? randomBytes(18).toString('base64url');
  const core = new ServiceCore(seed, {
    dataDir,
    scanDurationMs: opts.scanDurationMs ?? 300,
    maxArchiveBytes: opts.maxArchiveBytes ?? 2 * 1024 ** 3,
    maxScannedBytes: opts.maxScannedBytes ?? 256 * 1024 ** 2,
    ...(opts.maxScannedFiles !== undefined ? { maxScannedFiles: opts.maxScannedFiles } : {}),
    adminSecret,
  }, { shapes: opts.shapes, gone: opts.gone, processingMs: opts.processingMs, lists: opts.lists });
  core.runner = new ScanRunner(core);
  const listener = requestListener(core);
  const listen = (server: Server, port: number) => new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, opts.host ?? '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const server = createServer(listener);
  await listen(server, opts.port ?? 0);
  const tlsServer = opts.tls ? createTlsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) : undefined;
  if (tlsServer) await listen(tlsServer, 0);
  const tlsPort = tlsServer ? (tlsServer.address() as AddressInfo).port : undefined;
  core.runner.resumeAll();
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const origin = `http://${host}:${addr.port}`;
  let closed: Promise<void> | undefined;

  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    tlsBaseUrl: tlsPort ? `https://localhost:${tlsPort}/api/v1` : undefined,
    tlsPort,
    adminUrl: `${origin}/__admin/${adminSecret}`,
    dataDir,
    seed,
    demoToken: seed.tokens.demo,
    issueJwt(userId, o = {}) {
      const now = Math.floor(Date.now() / 1000);
      return signJwt({ sub: String(userId), iat: now, exp: now + (o.expiresInSec ?? 3600) }, seed.jwt_secret);
    },
    faults: core.faults,
    mode: core.mode,
    planOutcome: (outcome, count) => planOutcomes(core, { ...outcome, count }),
    scans: () => scanList(core),
    transferBytes(id) {
      const t = core.store.transfer(id);
      const p = core.store.transferPath(id);
      if (!t || !existsSync(p)) return undefined;
      return readFileSync(p).subarray(0, t.offset);
    },
    requests: () => core.requestLog.map((e) => ({ ...e })),
    close() {
      closed ??= (async () => {
        await core.runner.close();
        await Promise.all([server, tlsServer].filter((x): x is Server => !!x).map((srv) => new Promise<void>((resolve) => {
          srv.close(() => resolve());
          srv.closeAllConnections();
        })));
        await core.store.idle();
        if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      })();
      return closed;
    },
  };
}

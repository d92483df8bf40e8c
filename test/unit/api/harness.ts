// Shared set-up for the client tests that run against the reference service.
import { Readable } from 'node:stream';
import { ServiceClient, type ClientOptions, type UploadFields, type ChunkResult } from '../../../src/core/api/client';
import { ServiceError, type ServiceErrorKind } from '../../../src/core/api/errors';
import type { RequestLogEntry } from '../../../src/core/api/transport';
import type { CookieJar } from '../../../src/core/api/cookies';
import { startReferenceService, type ReferenceService } from '../../service';

export { startReferenceService, type ReferenceService };

export function clientFor(svc: ReferenceService, token: string, extra: Partial<ClientOptions> = {}): ServiceClient & { log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const c = new ServiceClient({ baseUrl: svc.baseUrl, token, retryBaseDelayMs: 1, logger: (e) => log.push(e), ...extra });
  return Object.assign(c, { log });
}

/** Asserts the promise rejects with a ServiceError of this kind (and status); returns it. */
export async function expectError(p: Promise<unknown>, kind: ServiceErrorKind, status?: number): Promise<ServiceError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  if (!(caught instanceof ServiceError)) throw new Error(`expected a ServiceError of kind ${kind}, got ${caught === undefined ? 'success' : String(caught)}`);
  if (caught.kind !== kind || (status !== undefined && caught.status !== status)) {
    throw new Error(`expected kind ${kind}${status ? `/${status}` : ''}, got ${caught.kind}/${caught.status}: ${caught.message}`);
  }
  return caught;
}

/** Uploads a whole archive with the client in chunks of `chunkSize`, streaming each chunk. */
export async function uploadAll(
  c: ServiceClient,
  archive: Buffer,
  fields: UploadFields,
  opts: { chunkSize?: number; name?: string; cookies?: CookieJar } = {},
): Promise<{ transferId: string; results: ChunkResult[] }> {
  const name = opts.name ?? 'project.zip';
  const chunkSize = opts.chunkSize ?? archive.length;
  const cookies = opts.cookies;
  const { transferId } = await c.startTransfer(name, { cookies });
  let offset = await c.readOffset(transferId, { cookies });
  const results: ChunkResult[] = [];
  for (;;) {
    const end = Math.min(offset + chunkSize, archive.length);
    const slice = archive.subarray(offset, end);
    const r = await c.sendChunk(transferId, {
      offset,
      totalLength: archive.length,
      archiveName: name,
      body: () => Readable.from([slice]),
      bodyLength: slice.length,
      fields,
      cookies,
    });
    results.push(r);
    if (r.kind !== 'continue') return { transferId, results };
    offset = r.nextOffset;
  }
}

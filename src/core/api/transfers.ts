// The resumable upload's three requests (spec: start a transfer, read its offset, send a chunk).
import type { CookieJar } from './cookies';
import { badResponse, parse } from './decode';
import { ClientValidationError, parseOffset } from './errors';
import { checkArchiveName } from './limits';
import { buildMultipart, type Part } from './multipart';
import { StartTransferResponseSchema } from './schemas';
import type { Call, RetryNotice, Transport } from './transport';
import { checkChunkRequest, chunkResult, uploadFieldParts, type ChunkRequest, type ChunkResult } from './chunk';
import { l10n } from '../text/l10n';

const enc = encodeURIComponent;

/** `cookies`: the transfer's jar (affinity cookies the service sets are kept in it). */
export async function startTransfer(transport: Transport, archiveName: string, o: { signal?: AbortSignal; cookies?: CookieJar } = {}): Promise<{ transferId: string }> {
  const op = 'startTransfer';
  checkArchiveName(op, archiveName);
  // scan_type goes both in the query (as the public client sends it) and as a part (as the spec says).
  const call: Call = {
    operation: op,
    method: 'POST',
    path: '/start-scan',
    endpoint: 'POST /start-scan',
    query: { scan_type: 'blast' },
    multipart: buildMultipart([
      { name: 'scan_type', value: 'blast' },
      { name: 'files', filename: archiveName, body: Buffer.alloc(0), length: 0 },
    ]),
    signal: o.signal,
    cookies: o.cookies,
  };
  const r = await transport.send(call, (a) => parse(call, a, StartTransferResponseSchema));
  return { transferId: r.transfer_id };
}

export async function readOffset(transport: Transport, transferId: string, o: { signal?: AbortSignal; onRetry?: (r: RetryNotice) => void; cookies?: CookieJar; retries?: number } = {}): Promise<number> {
  const op = 'readOffset';
  checkTransferId(op, transferId);
  const call: Call = {
    operation: op,
    method: 'HEAD',
    path: `/start-scan/${enc(transferId)}/`,
    endpoint: 'HEAD /start-scan/{transfer_id}/',
    signal: o.signal,
    idempotent: true,
    onRetry: o.onRetry,
    cookies: o.cookies,
    retries: o.retries,
  };
  return transport.send(call, (a) => {
    const raw = a.headers['upload-offset'];
    const offset = parseOffset(raw);
    if (offset === undefined) {
      throw badResponse(call, raw === undefined ? l10n.t('Upload-Offset header: missing') : l10n.t('Upload-Offset header: expected a whole number'));
    }
    return offset;
  });
}

export async function sendChunk(transport: Transport, transferId: string, chunk: ChunkRequest): Promise<ChunkResult> {
  const op = 'sendChunk';
  checkTransferId(op, transferId);
  checkChunkRequest(op, chunk);
  const { offset, totalLength, bodyLength } = chunk;
  const parts: Part[] = [
    ...uploadFieldParts(op, chunk.fields),
    { name: 'chunk_data', filename: chunk.archiveName, body: chunk.body, length: bodyLength },
  ];
  const call: Call = {
    operation: op,
    method: 'PATCH',
    path: `/start-scan/${enc(transferId)}/`,
    endpoint: 'PATCH /start-scan/{transfer_id}/',
    headers: {
      'Upload-Offset': String(offset),
      'Upload-Length': String(totalLength),
      'Upload-Name': chunk.archiveName,
    },
    multipart: buildMultipart(parts),
    signal: chunk.signal,
    cookies: chunk.cookies,
  };
  return transport.send(call, (a) => chunkResult(call, a));
}

function checkTransferId(op: string, id: string): void {
  if (typeof id !== 'string' || id.trim() === '') throw new ClientValidationError(op, l10n.t('The upload transfer id is empty.'));
}

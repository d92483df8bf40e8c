// The pieces of a chunk upload: the caller's request, the form parts sent with every
// chunk, the checks done before sending and how an answer is read.

import { parseOffset, ClientValidationError } from './errors';
import { badResponse, parse } from './decode';
import { checkArchiveName, joinCommaList, validateMetadata } from './limits';
import type { CookieJar } from './cookies';
import type { Part } from './multipart';
import { ChunkResponseSchema } from './schemas';
import type { Answer, Call } from './transport';
import { l10n } from '../text/l10n';

export interface UploadFields {
  projectName?: string;
  branch?: string;
  repoUrl?: string;
  sha?: string;
  dirty?: boolean;
  metadata?: Record<string, unknown>;
  scanConfigs?: string[];
  targetPolicies?: (number | string)[];
  /** Only for a partial scan: sends partial_scan=true and files_to_scan. */
  partial?: { files: string[] };
}

export interface ChunkRequest {
  offset: number;
  totalLength: number;
  archiveName: string;
  /** The chunk's bytes, or a factory opening a fresh stream of exactly bodyLength bytes. */
  body: Buffer | (() => NodeJS.ReadableStream);
  bodyLength: number;
  fields: UploadFields;
  signal?: AbortSignal;
  /** The transfer's cookies (decisions.md, affinity cookies). */
  cookies?: CookieJar;
}

export type ChunkResult =
  | { kind: 'continue'; nextOffset: number; message: string }
  | { kind: 'complete'; scanId: string; projectId?: string | number }
  | { kind: 'in-progress'; message: string };

export function checkChunkRequest(op: string, chunk: ChunkRequest): void {
  checkArchiveName(op, chunk.archiveName);
  const { offset, totalLength, bodyLength } = chunk;
  for (const [name, v] of [['offset', offset], ['totalLength', totalLength], ['bodyLength', bodyLength]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new ClientValidationError(op, l10n.t('Chunk {0} must be a whole number of bytes, 0 or more (got {1}).', name, String(v)));
  }
  if (offset + bodyLength > totalLength) {
    throw new ClientValidationError(op, l10n.t('The chunk ({0} bytes at offset {1}) goes past the end of the archive ({2} bytes).', bodyLength, offset, totalLength));
  }
  if (Buffer.isBuffer(chunk.body) && chunk.body.length !== bodyLength) {
    throw new ClientValidationError(op, l10n.t('The chunk holds {0} bytes but bodyLength says {1}.', chunk.body.length, bodyLength));
  }
  if (typeof chunk.body !== 'function' && !Buffer.isBuffer(chunk.body)) {
    throw new ClientValidationError(op, l10n.t('The chunk body must be a Buffer or a function opening a stream.'));
  }
}

/** The form parts sent with every chunk, in a stable order. */
export function uploadFieldParts(op: string, f: UploadFields): Part[] {
  const parts: Part[] = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) parts.push({ name, value });
  };
  add('project_name', f.projectName);
  add('branch', f.branch);
  add('repo_url', f.repoUrl);
  add('sha', f.sha);
  if (f.dirty !== undefined) add('dirty', f.dirty ? 'true' : 'false');
  if (f.metadata !== undefined) {
    try {
      add('metadata', validateMetadata(f.metadata));
    } catch (e) {
      throw e instanceof ClientValidationError ? new ClientValidationError(op, e.message) : e;
    }
  }
  if (f.scanConfigs && f.scanConfigs.length > 0) add('scan_configs', joinCommaList(op, 'Scan configuration', f.scanConfigs));
  if (f.targetPolicies && f.targetPolicies.length > 0) add('target_policies', joinCommaList(op, 'Policy id', f.targetPolicies));
  if (f.partial) {
    if (!Array.isArray(f.partial.files) || f.partial.files.length === 0) {
      throw new ClientValidationError(op, l10n.t('A partial scan needs at least one file to scan.'));
    }
    add('partial_scan', 'true');
    add('files_to_scan', joinCommaList(op, 'File', f.partial.files));
  }
  return parts;
}

/** continue (Upload-Offset header), complete (scan_id) or in progress (the spec's message). */
export function chunkResult(call: Call, answer: Answer): ChunkResult {
  const body = parse(call, answer, ChunkResponseSchema);
  if (body.scan_id !== undefined && body.scan_id !== null) {
    // decisions.md: a completion without project_id is a success all the same.
    return { kind: 'complete', scanId: String(body.scan_id), ...(body.project_id !== undefined && body.project_id !== null ? { projectId: body.project_id } : {}) };
  }
  const rawOffset = answer.headers['upload-offset'];
  if (rawOffset !== undefined) {
    const nextOffset = parseOffset(rawOffset);
    if (nextOffset === undefined) throw badResponse(call, l10n.t('Upload-Offset header: expected a whole number'));
    return { kind: 'continue', nextOffset, message: body.message ?? '' };
  }
  if (body.status === 'ok' && typeof body.message === 'string' && /already in progress/i.test(body.message)) {
    return { kind: 'in-progress', message: body.message };
  }
  throw badResponse(call, l10n.t('expected scan_id, an Upload-Offset header or an "already in progress" message'));
}

// Small HTTP helpers: JSON answers, error type, bounded body reading.
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { errorBody } from './shapes';

/** Thrown by handlers; the dispatcher turns it into `{error}` with the status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Largest JSON request body any endpoint accepts. */
export const JSON_BODY_LIMIT = 1024 * 1024;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(res.req?.method === 'HEAD' ? undefined : text);
}

export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, errorBody(res, status, message), headers);
}

/** Reads a whole body, failing with 413 past `limit` bytes. */
export function readBody(stream: Readable, limit = JSON_BODY_LIMIT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // A body that already failed (connection dropped early) emits nothing more.
    if (stream.destroyed) { reject(stream.errored ?? new Error('request body aborted')); return; }
    const parts: Buffer[] = [];
    let size = 0;
    let failed = false;
    stream.on('data', (d: Buffer) => {
      if (failed) return;
      size += d.length;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, `request body larger than ${limit} bytes`));
        stream.resume();
        return;
      }
      parts.push(d);
    });
    stream.once('end', () => { if (!failed) resolve(Buffer.concat(parts)); });
    stream.once('error', (e) => { if (!failed) { failed = true; reject(e); } });
  });
}

/** Parses a JSON body; an empty body reads as `undefined`, a malformed one is a 400. */
export async function readJson(stream: Readable): Promise<unknown> {
  const buf = await readBody(stream);
  const text = buf.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'request body is not valid JSON');
  }
}

/** Reads and drops what is left of a body so an early answer does not break the client's send. */
export function drain(stream: Readable, limit = 512 * 1024 * 1024): Promise<void> {
  return new Promise((resolve) => {
    let size = 0;
    if (stream.readableEnded || stream.destroyed) { resolve(); return; }
    stream.on('data', (d: Buffer) => {
      size += d.length;
      if (size > limit) { stream.destroy(); resolve(); }
    });
    stream.once('end', () => resolve());
    stream.once('error', () => resolve());
    stream.once('close', () => resolve());
    stream.resume();
  });
}

/** Integer query/header value, or undefined when absent or not an integer. */
export function parseIntStrict(v: string | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  const t = v.trim();
  if (!/^-?\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

export function paginate<T>(items: readonly T[], page: number, pageSize: number): { slice: T[]; totalPages: number } {
  const totalPages = Math.ceil(items.length / pageSize);
  const start = (page - 1) * pageSize;
  return { slice: items.slice(start, start + pageSize), totalPages };
}

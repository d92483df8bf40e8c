// Validation of the PATCH form parts, done on every chunk so a bad value never gets written.
import { HttpError } from '../http';

export const METADATA_MAX_BYTES = 16384;
export const ARCHIVE_EXTENSIONS = ['.zip', '.tar', '.json', '.fpr', '.sarif', '.xml'];

export function isAllowedArchiveName(name: string): boolean {
  const lower = name.toLowerCase();
  return ARCHIVE_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

export function parseMetadata(raw: string | undefined): Record<string, unknown> | null {
  if (raw === undefined) return null;
  const size = Buffer.byteLength(raw, 'utf8');
  if (size > METADATA_MAX_BYTES) {
    throw new HttpError(400, `metadata is ${size} bytes; at most ${METADATA_MAX_BYTES} bytes are allowed`);
  }
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'metadata must be a JSON object (it is not valid JSON)');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new HttpError(400, 'metadata must be a JSON object');
  return v as Record<string, unknown>;
}

export function parseTargetPolicies(raw: string | undefined, known: Set<number>): number[] {
  if (raw === undefined || raw.trim() === '') return [];
  const parts = raw.split(',').map((s) => s.trim());
  const bad = parts.filter((p) => !/^\d+$/.test(p) || !known.has(Number(p)));
  if (bad.length) throw new HttpError(400, `invalid policy id(s) in target_policies: ${bad.map((b) => b || '(empty)').join(', ')}`);
  return [...new Set(parts.map(Number))];
}

export function parseDirty(raw: string | undefined): boolean | null {
  if (raw === undefined) return null;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new HttpError(400, 'dirty must be true or false');
}

export function splitList(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** Archive-relative, `/`-separated form of a path given in files_to_scan. */
export function normalizeArchivePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

export function headerInt(v: string | string[] | undefined, name: string): number {
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || !/^\d+$/.test(s.trim())) throw new HttpError(400, `${name} header must be a non-negative integer`);
  const n = Number(s.trim());
  if (!Number.isSafeInteger(n)) throw new HttpError(400, `${name} header is out of range`);
  return n;
}

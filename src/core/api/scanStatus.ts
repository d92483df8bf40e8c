// A scan's state (decisions.md: `GET /scan/{scan_id}`), read tolerantly and bounded.
import { parse } from './decode';
import { ClientValidationError, ServiceError } from './errors';
import { ScanStatusSchema } from './schemas';
import type { Call, RetryNotice, Transport } from './transport';
import { l10n } from '../text/l10n';

const enc = encodeURIComponent;

/** Longest texts kept from a scan's state: a reason or an error message is a sentence, not a page. */
const MAX_REASON_CHARS = 2000;
const MAX_SCAN_ERRORS = 20;
const MAX_SCAN_ERROR_CHARS = 500;

/** A scan's state as the service reports it (GET /scan/{scan_id}); texts bounded, shapes tolerated. */
export interface ScanStatusResult {
  /** Lowercase, as sent (decisions.md lists `complete`, `failed`, `processing`, …). */
  status: string;
  failedReason?: string;
  /** `scan_errors`, every level; messages bounded. */
  scanErrors: { level: string; message: string; location?: string; scanType?: string }[];
  project?: string;
  createdAt?: string;
}

/**
 * The state of a scan (decisions.md: `GET /scan/{scan_id}`, one of the scan APIs the spec
 * refers to). Undefined when the service answers 404: it has no such route (the client
 * then falls back to watching the findings' total).
 */
export async function readScanStatus(transport: Transport, scanId: string, q: { signal?: AbortSignal; onRetry?: (r: RetryNotice) => void; retries?: number; retryBaseDelayMs?: number } = {}): Promise<ScanStatusResult | undefined> {
  const op = 'getScanStatus';
  checkScanId(op, scanId);
  const call: Call = {
    operation: op,
    method: 'GET',
    path: `/scan/${enc(scanId)}`,
    endpoint: 'GET /scan/{scan_id}',
    signal: q.signal,
    idempotent: true,
    onRetry: q.onRetry,
    retries: q.retries,
    retryBaseDelayMs: q.retryBaseDelayMs,
  };
  try {
    return await transport.send(call, (a) => {
      const body = parse(call, a, ScanStatusSchema);
      const cut = (s: string | undefined, n: number) => (s === undefined ? undefined : s.slice(0, n));
      return {
        status: body.status.trim().toLowerCase().slice(0, 100),
        failedReason: cut(body.failed_reason?.trim() || undefined, MAX_REASON_CHARS),
        scanErrors: (body.scan_errors ?? []).slice(0, MAX_SCAN_ERRORS).map((e) => ({
          level: (e.level ?? '').trim().toLowerCase().slice(0, 50),
          message: cut(e.message ?? '', MAX_SCAN_ERROR_CHARS)!,
          ...(e.location ? { location: cut(e.location, 300) } : {}),
          ...(e.scan_type ? { scanType: cut(e.scan_type, 100) } : {}),
        })),
        project: cut(body.project, 300),
        createdAt: cut(body.created_at, 100),
      };
    });
  } catch (err) {
    if (err instanceof ServiceError && err.kind === 'not-found') return undefined;
    throw err;
  }
}

export function checkScanId(op: string, scanId: string): void {
  if (typeof scanId !== 'string' || scanId.trim() === '') throw new ClientValidationError(op, l10n.t('The scan id is empty.'));
}

// GET /scan/{scan_id}: a scan's state, as the service's public clients read it before they
// read its findings (decisions.md, the scan lifecycle). Only in real answer shapes: the
// seed does not show this route, so seed mode answers 404 for it (routes/index.ts).
import { HttpError, sendJson } from '../http';
import type { ScanErrorRecord, ScanRecord } from '../types';
import type { Ctx } from './context';

/** The first part of a run the service reports as queued, the rest as processing. */
const QUEUED_SHARE = 0.15;

function statusWord(scan: ScanRecord, durationMs: number, now: number): string {
  if (scan.status === 'completed') return 'complete';
  if (scan.status === 'failed') return 'failed';
  const ran = now - Date.parse(scan.createdAt);
  return ran < durationMs * QUEUED_SHARE ? 'queued' : 'processing';
}

/** Every finished scan says what it scanned (`info`, which clients do not show); armed errors follow. */
function scanErrors(scan: ScanRecord): ScanErrorRecord[] | null {
  if (scan.status !== 'completed') return null;
  return [
    { scan_type: 'blast', level: 'info', location: null, message: `Scanned ${scan.files.length} files` },
    ...(scan.limitErrors ?? []),
    ...(scan.planned?.scanErrors ?? []),
  ];
}

export async function scanStatus(ctx: Ctx): Promise<void> {
  const scan = ctx.core.store.scan(ctx.params.scan_id);
  // Another company's scan is reported exactly like a missing one.
  if (!scan || scan.company !== ctx.principal.company.id) throw new HttpError(404, `scan ${ctx.params.scan_id} not found`);
  sendJson(ctx.res, 200, {
    id: scan.id,
    status: statusWord(scan, scan.processingMs ?? ctx.core.opts.scanDurationMs, Date.now()),
    project: scan.projectName,
    branch: scan.branch,
    created_at: scan.createdAt,
    failed_reason: scan.status === 'failed' ? scan.error : null,
    scan_errors: scanErrors(scan),
  });
}

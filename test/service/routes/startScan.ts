// POST /start-scan: opens a chunked-upload transfer for a blast scan.
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { requireFeature } from '../auth';
import { HttpError, sendJson } from '../http';
import { ARCHIVE_EXTENSIONS, isAllowedArchiveName } from '../uploads/validate';
import { parseMultipart } from '../uploads/multipart';
import type { Ctx } from './context';

/** The load balancer's cookie pinning a transfer to one instance (real answers). */
export const AFFINITY_COOKIE = 'scanner_instance';

export async function startScan(ctx: Ctx): Promise<void> {
  const form = await parseMultipart(ctx.req.headers, ctx.body, { fileTarget: () => null, maxFiles: 4 });
  // decisions.md: scan_type may come as a form part (spec) or a query parameter (public client).
  const scanType = form.fields.scan_type ?? ctx.url.searchParams.get('scan_type');
  if (scanType !== 'blast') throw new HttpError(400, 'scan_type must be blast (form part or query parameter)');
  requireFeature(ctx.principal, 'blast');
  const filesParts = form.files.filter((f) => f.name === 'files');
  if (filesParts.length !== 1) throw new HttpError(400, 'exactly one files part carrying the archive name is required');
  const part = filesParts[0];
  if (!isAllowedArchiveName(part.filename)) {
    throw new HttpError(400, `archive name "${part.filename}" must end in ${ARCHIVE_EXTENSIONS.join(', ')}`);
  }
  if (part.bytes !== 0) throw new HttpError(400, 'the files part must have an empty body; send the archive with PATCH /start-scan/{transfer_id}/');
  const id = randomUUID();
  // Real answers: several instances behind a load balancer that pins a transfer with a cookie (decisions.md).
  const affinity = ctx.core.mode.shapes === 'real' ? randomBytes(12).toString('base64url') : undefined;
  writeFileSync(ctx.core.store.transferPath(id), '');
  ctx.core.store.state.transfers[id] = {
    id,
    company: ctx.principal.company.id,
    user: ctx.principal.user.id,
    archiveName: part.filename,
    length: null,
    offset: 0,
    status: 'open',
    scanId: null,
    createdAt: new Date().toISOString(),
    chunkSources: [],
    ...(affinity ? { affinity } : {}),
  };
  await ctx.core.store.persist();
  sendJson(ctx.res, 200, { status: 'ok', transfer_id: id }, affinity ? { 'Set-Cookie': `${AFFINITY_COOKIE}=${affinity}; Path=/api/v1/start-scan; Max-Age=3600; HttpOnly; SameSite=Lax` } : {});
}

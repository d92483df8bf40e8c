// HEAD and PATCH /start-scan/{transfer_id}/: read the offset, upload one chunk.
import { rm } from 'node:fs/promises';
import { HttpError, drain, sendJson } from '../http';
import { completeTransfer } from '../scans/complete';
import { parseMultipart } from '../uploads/multipart';
import { KeyedLock, commitChunk } from '../uploads/transfers';
import { headerInt, parseDirty, parseMetadata, parseTargetPolicies } from '../uploads/validate';
import type { Ctx } from './context';

const locks = new KeyedLock();
let chunkCounter = 0;

export const IN_PROGRESS_MESSAGE = 'A scan for this upload is already in progress';

export async function headTransfer(ctx: Ctx): Promise<void> {
  const t = ctx.core.store.state.transfers[ctx.params.transfer_id];
  const offset = t && t.company === ctx.principal.company.id ? t.offset : 0;
  ctx.res.writeHead(200, { 'Upload-Offset': String(offset), 'Cache-Control': 'no-store', 'Content-Length': '0' });
  ctx.res.end();
}

export async function patchChunk(ctx: Ctx): Promise<void> {
  const { core } = ctx;
  const id = ctx.params.transfer_id;
  const t = core.store.state.transfers[id];
  if (!t || t.company !== ctx.principal.company.id) throw new HttpError(404, `transfer ${id} not found`);
  const offset = headerInt(ctx.req.headers['upload-offset'], 'Upload-Offset');
  const length = headerInt(ctx.req.headers['upload-length'], 'Upload-Length');
  const nameHeader = ctx.req.headers['upload-name'];
  const uploadName = typeof nameHeader === 'string' ? nameHeader : t.archiveName;

  const temp = core.store.chunkTempPath(id, ++chunkCounter);
  try {
    const form = await parseMultipart(ctx.req.headers, ctx.body, {
      fileTarget: (name) => (name === 'chunk_data' ? temp : null),
      maxFiles: 2,
    });
    const chunk = form.files.find((f) => f.name === 'chunk_data');
    if (!chunk) {
      throw new HttpError(400, form.fields.chunk_data !== undefined
        ? 'chunk_data must be sent as a file part'
        : 'chunk_data part is required');
    }
    const extraFile = form.files.find((f) => f.name !== 'chunk_data');
    if (extraFile) throw new HttpError(400, `unexpected file part ${extraFile.name}`);
    // Validated on every chunk (spec), before anything is written.
    parseMetadata(form.fields.metadata);
    const knownPolicies = new Set(core.policiesOf(t.company).map((p) => p.id));
    parseTargetPolicies(form.fields.target_policies, knownPolicies);
    parseDirty(form.fields.dirty);

    await locks.run(id, async () => {
      if (t.status === 'completed') {
        sendJson(ctx.res, 200, { status: 'ok', message: IN_PROGRESS_MESSAGE });
        return;
      }
      if (t.length !== null && length !== t.length) {
        throw new HttpError(400, `Upload-Length ${length} differs from ${t.length} sent first for this transfer`);
      }
      if (offset !== t.offset) {
        throw new HttpError(409, `Upload-Offset ${offset} does not match the server offset ${t.offset}`, { 'Upload-Offset': String(t.offset) });
      }
      if (offset + chunk.bytes > length) {
        throw new HttpError(400, `chunk of ${chunk.bytes} bytes at offset ${offset} goes past Upload-Length ${length}`);
      }
      if (chunk.bytes > 0) await commitChunk(temp, core.store.transferPath(id), offset);
      t.offset = offset + chunk.bytes;
      t.length = length;
      t.chunkSources.push(ctx.source);
      if (t.offset < length) {
        await core.store.persist();
        sendJson(ctx.res, 200, { status: 'ok', message: `Chunk received; ${t.offset} of ${length} bytes stored` }, { 'Upload-Offset': String(t.offset) });
        return;
      }
      const scan = await completeTransfer(core, t, {
        fields: form.fields,
        source: ctx.source,
        headers: { offset: String(offset), length: String(length), name: uploadName },
      });
      sendJson(ctx.res, 200, { scan_id: scan.id, project_id: scan.projectId });
      core.runner.start(scan.id);
    });
  } catch (e) {
    if (e instanceof HttpError) await drain(ctx.body);
    throw e;
  } finally {
    await rm(temp, { force: true });
  }
}

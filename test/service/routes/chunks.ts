// HEAD and PATCH /start-scan/{transfer_id}/: read the offset, upload one chunk.
import { rm, truncate } from 'node:fs/promises';
import { HttpError, drain, sendJson } from '../http';
import { completeTransfer } from '../scans/complete';
import { BodyAbortedError, parseMultipart, type FileTarget } from '../uploads/multipart';
import { KeyedLock, commitChunk } from '../uploads/transfers';
import { headerInt, parseDirty, parseMetadata, parseTargetPolicies } from '../uploads/validate';
import type { TransferState } from '../types';
import type { Ctx } from './context';
import { AFFINITY_COOKIE } from './startScan';

const locks = new KeyedLock();
/** Transfers whose data file a chunk is being streamed into right now (at most one each), with the lease's end. */
const directWriters = new Map<string, Promise<void>>();
const releases = new Map<string, () => void>();

/**
 * A retry often arrives while the request it replaces (cut off mid-body) is still being
 * cleaned up; it waits briefly for that lease instead of being turned away with a 409.
 */
async function awaitLease(id: string): Promise<void> {
  const busy = directWriters.get(id);
  if (!busy) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([busy, new Promise<void>((r) => { timer = setTimeout(r, 2000); })]);
  clearTimeout(timer);
}
let chunkCounter = 0;

export const IN_PROGRESS_MESSAGE = 'A scan for this upload is already in progress';

/**
 * The transfer as the instance this request reached knows it: with real answers a request
 * without the transfer's affinity cookie reaches another instance, which does not know it.
 */
function reachable(ctx: Ctx, t: TransferState | undefined): TransferState | undefined {
  if (!t || t.company !== ctx.principal.company.id) return undefined;
  if (t.affinity && readCookie(ctx.req.headers.cookie, AFFINITY_COOKIE) !== t.affinity) return undefined;
  return t;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export async function headTransfer(ctx: Ctx): Promise<void> {
  const t = reachable(ctx, ctx.core.store.transfer(ctx.params.transfer_id));
  const offset = t ? t.offset : 0;
  ctx.res.writeHead(200, { 'Upload-Offset': String(offset), 'Cache-Control': 'no-store', 'Content-Length': '0' });
  ctx.res.end();
}

/**
 * Where the chunk's bytes go while the body arrives. The expected next chunk streams
 * straight into the data file at its offset (one write, like a plain upload); anything
 * else goes to a temp file and is checked before it may touch the data file. Bytes past
 * the committed offset only count once the state file says so.
 */
function chunkTarget(ctx: Ctx, t: TransferState, offset: number, length: number): { target: FileTarget; direct: boolean } {
  const dataPath = ctx.core.store.transferPath(t.id);
  const direct = t.status === 'open' && offset === t.offset && (t.length === null || t.length === length) && !directWriters.has(t.id);
  if (direct) {
    directWriters.set(t.id, new Promise<void>((resolve) => releases.set(t.id, resolve)));
    return { target: { path: dataPath, start: offset }, direct };
  }
  return { target: { path: ctx.core.store.chunkTempPath(t.id, ++chunkCounter) }, direct };
}

function validateParts(ctx: Ctx, t: TransferState, fields: Record<string, string>): void {
  parseMetadata(fields.metadata);
  parseTargetPolicies(fields.target_policies, new Set(ctx.core.policiesOf(t.company).map((p) => p.id)));
  parseDirty(fields.dirty);
}

export async function patchChunk(ctx: Ctx): Promise<void> {
  const { core } = ctx;
  const id = ctx.params.transfer_id;
  const t = reachable(ctx, core.store.transfer(id));
  if (!t) throw new HttpError(404, `transfer ${id} not found`);
  const offset = headerInt(ctx.req.headers['upload-offset'], 'Upload-Offset');
  const length = headerInt(ctx.req.headers['upload-length'], 'Upload-Length');
  if (length > core.opts.maxArchiveBytes) {
    throw new HttpError(413, `the archive (${length} bytes) is larger than this service accepts (${core.opts.maxArchiveBytes} bytes)`);
  }
  const nameHeader = ctx.req.headers['upload-name'];
  const uploadName = typeof nameHeader === 'string' ? nameHeader : t.archiveName;

  await awaitLease(id);
  if (ctx.body.destroyed) throw new BodyAbortedError('request body aborted');
  const { target, direct } = chunkTarget(ctx, t, offset, length);
  let committed = false;
  try {
    const form = await parseMultipart(ctx.req.headers, ctx.body, {
      fileTarget: (name) => (name === 'chunk_data' ? target : null),
      maxFiles: 2,
    });
    const chunk = form.files.find((f) => f.name === 'chunk_data');
    if (!chunk) {
      throw new HttpError(400, form.fields.chunk_data !== undefined ? 'chunk_data must be sent as a file part' : 'chunk_data part is required');
    }
    const extraFile = form.files.find((f) => f.name !== 'chunk_data');
    if (extraFile) throw new HttpError(400, `unexpected file part ${extraFile.name}`);
    // Validated on every chunk (spec), before anything is committed.
    validateParts(ctx, t, form.fields);

    await locks.run(id, async () => {
      if (t.status === 'completed') {
        sendJson(ctx.res, 200, { status: 'ok', message: IN_PROGRESS_MESSAGE });
        return;
      }
      if (t.length !== null && length !== t.length) {
        throw new HttpError(400, `Upload-Length ${length} differs from ${t.length} sent first for this transfer`);
      }
      // While another request streams into the data file, only that one may commit.
      if (offset !== t.offset || (!direct && directWriters.has(id))) {
        throw new HttpError(409, `Upload-Offset ${offset} does not match the server offset ${t.offset}`, { 'Upload-Offset': String(t.offset) });
      }
      if (offset + chunk.bytes > length) {
        throw new HttpError(400, `chunk of ${chunk.bytes} bytes at offset ${offset} goes past Upload-Length ${length}`);
      }
      if (!direct && chunk.bytes > 0) await commitChunk(target.path, core.store.transferPath(id), offset);
      t.offset = offset + chunk.bytes;
      t.length = length;
      t.chunkSources.push(ctx.source);
      committed = true;
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
      // Real answers complete without project_id (decisions.md).
      sendJson(ctx.res, 200, core.mode.shapes === 'real' ? { scan_id: scan.id } : { scan_id: scan.id, project_id: scan.projectId });
      core.runner.start(scan.id);
    });
  } catch (e) {
    if (e instanceof HttpError) await drain(ctx.body);
    throw e;
  } finally {
    if (direct) {
      // Uncommitted bytes of this request are cut off again; the lease ends.
      if (!committed) await truncate(core.store.transferPath(id), t.offset).catch(() => undefined);
      directWriters.delete(id);
      releases.get(id)?.();
      releases.delete(id);
    } else {
      await rm(target.path, { force: true });
    }
  }
}

// The archive's chunks as the upload sends them: read slice by slice into one reused buffer.
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { takeScratch, type ScratchLease } from '../scratch';
import { l10n } from '../text/l10n';

/**
 * A chunk goes out in slices of this size; progress moves with each slice the socket takes.
 * Each slice costs the extension host a turn through the request's streams: smaller slices
 * move progress more smoothly and cost more turns (256 KiB was measurably slower).
 */
export const SLICE_BYTES = 1024 * 1024;

/**
 * Reads chunks of the archive into one buffer reused for the whole upload. Streaming each
 * chunk with fresh read buffers leaves ~the archive's size in garbage that V8 frees only
 * lazily (measured: +65 MB peak RSS for a 150 MB upload); one reused buffer keeps the
 * upload at chunkSize bytes, and it is the scratch memory packaging has just given back.
 *
 * Each slice is read into its place in the buffer just before the request takes it, so
 * the service receives the chunk's first bytes at once rather than after the whole chunk
 * was read (2-3 ms per 8 MiB chunk in `npm run bench`, each of them the service idle). A
 * retry of the same chunk sends again what is already there and reads only the rest. The
 * buffer moves on to the next chunk only after the previous request is over.
 */
export class ChunkReader {
  private readonly scratch: ScratchLease;
  private readonly buf: Buffer;
  private fh: FileHandle | undefined;
  /** The chunk the buffer holds: where it starts in the archive, and how much of it was read. */
  private start = -1;
  private filled = 0;
  /** Set when the archive could not be read: the caller stops instead of retrying the request. */
  failure: Error | undefined;

  constructor(private readonly filePath: string, capacity: number) {
    this.scratch = takeScratch(capacity);
    this.buf = this.scratch.buffer;
  }

  /** The chunk's bytes as views of the buffer, reporting how much the consumer has taken so far. */
  async *slices(start: number, len: number, onSent: (sent: number) => void): AsyncGenerator<Buffer> {
    if (start !== this.start) {
      this.start = start;
      this.filled = 0;
    }
    for (let off = 0; off < len; off += SLICE_BYTES) {
      const end = Math.min(len, off + SLICE_BYTES);
      if (this.filled < end) await this.fill(end);
      yield this.buf.subarray(off, end);
      onSent(end);
    }
  }

  private async fill(end: number): Promise<void> {
    while (this.filled < end) {
      let bytesRead: number;
      try {
        this.fh ??= await fsp.open(this.filePath, 'r');
        ({ bytesRead } = await this.fh.read(this.buf, this.filled, end - this.filled, this.start + this.filled));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? String(e);
        throw (this.failure = new Error(l10n.t('The archive {0} could not be read ({1}); package the workspace again.', this.filePath, code), { cause: e }));
      }
      if (bytesRead === 0) throw (this.failure = new Error(l10n.t('The archive {0} is shorter than expected; package the workspace again.', this.filePath)));
      this.filled += bytesRead;
    }
  }

  /** Call once no request uses the buffer any more. */
  async close(): Promise<void> {
    await this.fh?.close().catch(() => undefined);
    this.fh = undefined;
    this.scratch.release();
  }
}

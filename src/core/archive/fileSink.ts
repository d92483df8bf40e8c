// Where the archive's bytes go: a file, written in large blocks, hashed on the way. Small
// writes (headers) are copied into a block and cost no I/O; only a full block (while the
// previous one is still being written) makes the writer wait.
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { ByteSink } from './zipFormat';
import { l10n } from '../text/l10n';

export class HashingFileSink implements ByteSink {
  private readonly hash = createHash('sha256');
  private position = 0;
  private used = 0;
  private writing: Promise<void> = Promise.resolve();
  private failed: Error | undefined;

  /** Two blocks of the same size: one fills while the other is written. */
  constructor(private readonly fh: FileHandle, private block: Buffer, private spare: Buffer) {}

  write(bytes: Uint8Array): void | Promise<void> {
    if (this.failed) throw this.failed;
    if (this.used + bytes.length <= this.block.length) {
      this.block.set(bytes, this.used);
      this.used += bytes.length;
      return;
    }
    return this.writeSlow(bytes);
  }

  private async writeSlow(bytes: Uint8Array): Promise<void> {
    let from = 0;
    while (from < bytes.length) {
      const room = this.block.length - this.used;
      if (room === 0) {
        await this.flush();
        continue;
      }
      const n = Math.min(room, bytes.length - from);
      this.block.set(bytes.subarray(from, from + n), this.used);
      this.used += n;
      from += n;
    }
  }

  /**
   * Appends `length` bytes of another file from `position`, read straight into the block
   * being filled (entries a re-scan copies from the previous archive: megabytes in a few
   * reads, no buffer of their own).
   */
  async copyFrom(fd: number, position: number, length: number): Promise<void> {
    if (this.failed) throw this.failed;
    while (length > 0) {
      if (this.used === this.block.length) await this.flush();
      const n = readSync(fd, this.block, this.used, Math.min(length, this.block.length - this.used), position);
      if (n === 0) throw new Error(l10n.t('the previous archive ended before the entries to copy'));
      this.used += n;
      position += n;
      length -= n;
    }
  }

  /** Hands the filled block to the disk (after the previous write) and switches blocks. */
  private async flush(): Promise<void> {
    await this.writing;
    if (this.failed) throw this.failed;
    if (this.used === 0) return;
    const full = this.block.subarray(0, this.used);
    [this.block, this.spare] = [this.spare, this.block];
    this.used = 0;
    this.hash.update(full);
    const at = this.position;
    this.position += full.length;
    this.writing = (async () => {
      let off = 0;
      while (off < full.length) {
        const { bytesWritten } = await this.fh.write(full, off, full.length - off, at + off);
        off += bytesWritten;
      }
    })().catch((e: Error) => { this.failed = e; });
  }

  /** Writes what is left and closes the file; the SHA-256 of everything written. */
  async end(): Promise<string> {
    await this.flush();
    await this.writing;
    if (this.failed) throw this.failed;
    await this.fh.close();
    return this.hash.digest('hex');
  }

  async abort(): Promise<void> {
    await this.writing.catch(() => undefined);
    await this.fh.close().catch(() => undefined);
  }
}

// The walk through a selection's files for its archive, in the selection's order: each file
// is copied from the previous archive (alone or in a run), read into a batch, deflated in
// parts or stored (a big one), or left out with a reason (gone, unreadable, binary, too big).
import { closeSync, readSync, type Stats } from 'node:fs';
import * as zlib from 'node:zlib';
import { nextTurn } from '../async/slices';
import { comparePaths } from '../workspace/fileList';
import { BINARY_SNIFF_BYTES, isBinaryContent } from '../workspace/binaryContent';
import { absolutePathOf, followLinkInside, lstatQuiet } from '../workspace/pathsOnDisk';
import { isNotFound, openRegularFileSync } from '../workspace/safeOpen';
import type { Selection, SkippedFile } from '../workspace/selection';
import type { ArchiveIndex } from './archiveIndex';
import { BATCH_BYTES, BatchDeflater, type DeflaterOptions } from './batchDeflater';
import { looksIncompressible } from './compressibility';
import { readFully, type CopyJob, type EntryQueue, type Member, type OpenPrevious } from './entryQueue';
import { mayReuse, type ReusableArchive } from './reuseCache';
import { METHOD_STORE } from './zipFormat';
import { l10n } from '../text/l10n';

/** Above this, a quick look at the first bytes decides whether deflating is worth trying. */
const SAMPLE_ABOVE = 64 * 1024;
/** The main thread yields to the event loop at least this often (ms) while packaging. */
const YIELD_MS = 10;

export interface PackerOptions extends DeflaterOptions {
  signal?: AbortSignal;
  previous?: ReusableArchive;
}

export class FilePacker {
  /** Files left out while packaging (see BuiltArchive.skipped). */
  readonly skipped: SkippedFile[] = [];
  private readonly deflater: BatchDeflater;
  /** A run of files unchanged since the previous archive: copied as one range when written. */
  private run: CopyJob | undefined;
  /** Bytes of the selection's files the walk has passed, whatever it did with them. */
  private bytesSeen = 0;
  /** Files the walk has passed when their sizes are packaging's to learn (Selection.statsLater). */
  private filesSeen = 0;
  private lastYield = performance.now();
  /** Where the forward walk through the previous archive's paths is. */
  private prevAt = 0;

  constructor(private readonly selection: Selection, level: number, private readonly opts: PackerOptions, private readonly prev: OpenPrevious | undefined, private readonly queue: EntryQueue) {
    this.deflater = new BatchDeflater(level, opts, queue, () => this.bytesLeft());
    // Files whose sizes the selection left to packaging (Selection.statsLater) are in a folder
    // big enough to have its workers started ahead.
    if (!opts.previous && (selection.totalBytes > this.deflater.inlineBytes || selection.statsLater)) this.deflater.pool();
  }

  /** Every file of the selection, packaged or left out, and written. */
  async packAll(): Promise<void> {
    const { files } = this.selection;
    const signal = this.opts.signal;
    for (let n = 0; n < files.length; this.bytesSeen += files.size(n++)) {
      if (signal?.aborted) throw signal.reason ?? new Error(l10n.t('Packaging was cancelled.'));
      if ((n & 63) === 0) await this.pause();
      const before = this.previousEntry(n);
      if (before >= 0 && mayReuse(this.opts.previous!, before, files, n)) {
        this.deflater.dispatch();
        this.extendRun(before, n);
        continue;
      }
      this.endRun();
      this.filesSeen = n;
      await this.packFile(n, before);
    }
    this.deflater.dispatch();
    this.endRun();
    await this.queue.drain(0);
  }

  /** Stops the deflate workers, if any were started or handed over. */
  async close(): Promise<void> {
    await this.deflater.close();
  }

  /** Bytes of the selection's files still to come; with sizes left to packaging, as many more as the average so far. */
  private bytesLeft(): number {
    const { files, totalBytes, statsLater } = this.selection;
    if (!statsLater) return totalBytes - this.bytesSeen;
    return this.filesSeen ? this.bytesSeen / this.filesSeen * (files.length - this.filesSeen) : Infinity;
  }

  /**
   * Where file `n`'s path is in the previous archive, or -1. Both lists are in ascending
   * byte order: it is found walking forward, unless the selection found it there already.
   */
  private previousEntry(n: number): number {
    const prev = this.prev?.index;
    if (!prev) return -1;
    const files = this.selection.files;
    const known = files.positionIn(prev, n);
    if (known >= 0) {
      this.prevAt = known;
      return known;
    }
    let c = -1;
    while (this.prevAt < prev.length && (c = comparePaths(prev, this.prevAt, files, n)) < 0) this.prevAt++;
    return c === 0 ? this.prevAt : -1;
  }

  private extendRun(before: number, n: number): void {
    const run = this.run;
    if (run && run.from + run.count === before && run.file + run.count === n) {
      run.count++;
      return;
    }
    this.endRun();
    this.run = { kind: 'copy', from: before, file: n, count: 1 };
  }

  private endRun(): void {
    if (this.run) this.queue.push(this.run);
    this.run = undefined;
  }

  private leaveOut(n: number, reason: SkippedFile['reason']): void {
    this.skipped.push({ path: this.selection.files.path(n), reason });
  }

  /** File `n`, opened and checked as the selection would have, then packaged by its size. */
  private async packFile(n: number, before: number): Promise<void> {
    const { files, root, statsLater: later } = this.selection;
    const opened = later ? openLater(root, later.realRoot, files.path(n)) : openRegularFileSync(absolutePathOf(root, files.target(n) ?? files.path(n)), { ino: files.ino(n) });
    if (typeof opened === 'string') {
      // Gone since git listed it: dropped, as the selection drops a file deleted (a broken link is 'missing').
      if (opened !== 'gone') this.leaveOut(n, opened);
      return;
    }
    const { fd, stats } = opened;
    if (later) {
      if (stats.size > later.maxSize) {
        closeSync(fd);
        this.leaveOut(n, 'too-large');
        return;
      }
      // The walk counts it into bytesSeen from there, as it does a size the selection found.
      files.learnStats(n, stats);
    }
    if (stats.size > BATCH_BYTES) await this.packBig(fd, stats, n);
    else await this.packSmall(fd, stats, n, before);
  }

  /** A file bigger than a batch: stored as it is when it does not compress, else deflated in parts. */
  private async packBig(fd: number, stats: Stats, n: number): Promise<void> {
    let sample: Buffer;
    try {
      sample = readSample(fd);
    } catch {
      closeSync(fd);
      this.leaveOut(n, 'unreadable');
      return;
    }
    if (isBinaryContent(sample)) {
      closeSync(fd);
      this.leaveOut(n, 'binary');
      return;
    }
    this.deflater.dispatch();
    const member = memberOf(n, stats);
    if (looksIncompressible(sample)) {
      this.queue.push({ kind: 'stored', member, fd });
    } else if (!await this.deflater.readBig(fd, member, stats.size, this.bytesLeft(), this.selection.files.path(n), this.pause)) {
      this.leaveOut(n, 'unreadable');
      return;
    }
    await this.queue.drain(this.deflater.maxInFlight);
  }

  /** A file that fits a batch: read into it, unless its content is the previous archive's entry. */
  private async packSmall(fd: number, stats: Stats, n: number, before: number): Promise<void> {
    const data = this.deflater.readIntoBatch(fd, stats.size);
    if (!data) {
      this.leaveOut(n, 'unreadable');
      return;
    }
    // Binary by its content (a NUL near the start), whatever its name: left out, like a binary asset.
    if (isBinaryContent(data)) {
      this.leaveOut(n, 'binary');
      return;
    }
    // Touched but not changed (a branch switched back, a tool rewriting the same bytes): the old entry still holds.
    if (before >= 0 && sameContent(this.prev!.fd, this.prev!.index, before, data)) {
      this.deflater.dispatch();
      this.queue.push({ kind: 'copy', from: before, file: n, count: 1, member: memberOf(n, stats) });
      await this.queue.drain(this.deflater.maxInFlight);
      return;
    }
    const length = data.length;
    const store = length > SAMPLE_ABOVE && looksIncompressible(data.subarray(0, Math.min(length, 4096)));
    const mode = modeOf(stats.mode);
    if (!this.deflater.deflateOnItsOwn(n, data, mode, stats, store)) this.deflater.add(n, data, mode, stats, store);
    await this.queue.drain(this.deflater.maxInFlight);
  }

  /** Lets the event loop run when the main thread has held it YIELD_MS; stops a cancelled packaging. */
  private readonly pause = async (): Promise<void> => {
    if (performance.now() - this.lastYield > YIELD_MS) {
      await nextTurn();
      this.lastYield = performance.now();
      if (this.opts.signal?.aborted) throw this.opts.signal.reason ?? new Error(l10n.t('Packaging was cancelled.'));
    }
  };
}

function modeOf(statMode: number): number {
  return statMode & 0o111 ? 0o755 : 0o644;
}

function memberOf(file: number, stats: Stats): Member {
  return { file, mode: modeOf(stats.mode), mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
}

/**
 * Whether `data` is exactly the content entry `j` of the previous archive was made from:
 * same size and CRC-32, and the same bytes once the entry is inflated (done only for files
 * whose times changed, which are few: a branch switched back, a tool rewriting a file).
 */
function sameContent(fd: number, p: ArchiveIndex, j: number, data: Buffer): boolean {
  const c = p.columns;
  if (c.size[j] !== data.length || c.crc[j] !== zlib.crc32(data)) return false;
  const stored = Buffer.allocUnsafe(c.compressedSize[j]);
  if (!readFully(fd, stored, 0, stored.length, c.dataAt[j])) return false;
  try {
    return (c.method[j] === METHOD_STORE ? stored : zlib.inflateRawSync(stored, { maxOutputLength: Math.max(1, data.length) })).equals(data);
  } catch {
    return false;
  }
}

/**
 * Opens a file the selection judged by name and folder only (Selection.statsLater), as the
 * selection would have looked at it: a regular file as it is, a link only to a regular file
 * inside the folder (its target opened), anything else refused.
 */
function openLater(root: string, realRoot: string, rel: string): ReturnType<typeof openRegularFileSync> | 'symlink-outside' | 'gone' {
  const abs = absolutePathOf(root, rel);
  const opened = openRegularFileSync(abs);
  if (opened === 'missing') return 'gone';
  // O_NOFOLLOW refuses a link as not-a-file: only then is it worth an lstat to tell.
  if (opened !== 'not-a-file') return opened;
  const st = lstatQuiet(abs);
  if (st instanceof Error || !st.isSymbolicLink()) return st instanceof Error && isNotFound(st) ? 'gone' : 'not-a-file';
  const followed = followLinkInside(realRoot, abs);
  if (typeof followed === 'string') return followed;
  return followed.st.isFile() ? openRegularFileSync(absolutePathOf(realRoot, followed.target), { ino: followed.st.ino }) : 'not-a-file';
}

/** The first bytes, to judge whether deflating is worth it. */
function readSample(fd: number): Buffer {
  const buf = Buffer.allocUnsafe(BINARY_SNIFF_BYTES);
  return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
}

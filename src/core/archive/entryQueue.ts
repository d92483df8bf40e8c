// The entries of an archive in the making, each waiting its turn: a batch being deflated, a
// run copied from the previous archive, a part of a big file, a file stored as it is. They
// are written in the selection's order, whoever finishes first.
import { closeSync, readSync } from 'node:fs';
import * as zlib from 'node:zlib';
import { pathStart, type FileList } from '../workspace/fileList';
import type { ArchiveIndex, ArchiveIndexBuilder } from './archiveIndex';
import type { BatchResult } from './deflatePool';
import { FLAG_DATA_DESCRIPTOR, METHOD_DEFLATE, METHOD_STORE, type StreamedEntry, type ZipWriter } from './zipFormat';

/** One file read for the archive (a big one, on its own): which file of the selection, and what it was when opened. */
export interface Member { file: number; mode: number; mtimeMs: number; ctimeMs: number; ino: number }

/** At most this many files in one batch (empty and tiny files fill no bytes). */
const MAX_BATCH_FILES = 1024;

/**
 * The files of a batch, in typed arrays: the files in flight (a few batches of hundreds)
 * live through young-generation collections, and as objects they made V8 grow it.
 */
export class BatchFiles {
  readonly file = new Uint32Array(MAX_BATCH_FILES);
  readonly length = new Float64Array(MAX_BATCH_FILES);
  readonly mode = new Uint16Array(MAX_BATCH_FILES);
  readonly mtimeMs = new Float64Array(MAX_BATCH_FILES);
  readonly ctimeMs = new Float64Array(MAX_BATCH_FILES);
  readonly ino = new Float64Array(MAX_BATCH_FILES);
  /** 1 when the file is stored as it is (it does not look compressible). */
  readonly store = new Uint8Array(MAX_BATCH_FILES);
  count = 0;

  push(file: number, length: number, mode: number, st: { mtimeMs: number; ctimeMs: number; ino: number }, store: boolean): void {
    const k = this.count++;
    this.file[k] = file;
    this.length[k] = length;
    this.mode[k] = mode;
    this.mtimeMs[k] = st.mtimeMs;
    this.ctimeMs[k] = st.ctimeMs;
    this.ino[k] = st.ino;
    this.store[k] = store ? 1 : 0;
  }

  get full(): boolean {
    return this.count === MAX_BATCH_FILES;
  }
}

export type Job =
  | { kind: 'batch'; files: BatchFiles; result: Promise<BatchResult> }
  /** Entries `from`.. of the previous archive for files `file`.. of the selection; `member` when the file was read (same content, other times). */
  | { kind: 'copy'; from: number; file: number; count: number; member?: Member }
  /**
   * A part of a file bigger than a batch, written into its entry when its turn comes: the
   * first begins the entry, the last ends it with the file's CRC and size (a data descriptor).
   */
  | { kind: 'part'; member: Member; result: Promise<BatchResult>; first: boolean; end?: { crc: number; size: number } }
  /** A file bigger than a batch that does not compress: read and stored when its turn comes. */
  | { kind: 'stored'; member: Member; fd: number };

export type CopyJob = Extract<Job, { kind: 'copy' }>;

/** The folder's previous archive, open to copy entries from, and its index. */
export interface OpenPrevious { fd: number; index: ArchiveIndex }

/** The kept archive does not hold what its index says: nothing may be copied from it. */
export class PreviousArchiveMismatch extends Error {}

type Stamp = { mtimeMs: number; ctimeMs: number; ino: number };
type Written = { crc: number; method: number; compressedSize: number; flags: number };

export class EntryQueue {
  /** Not yet written, in the selection's order. */
  readonly jobs: Job[] = [];
  /** How many entries were copied from the previous archive. */
  reused = 0;
  /** The entry of a big file whose parts are being written. */
  private open: { headerAt: number; entry: StreamedEntry } | undefined;
  /** Batch file tables already written, to fill again. */
  private readonly spare: BatchFiles[] = [];
  private readonly storeBuffer = Buffer.allocUnsafe(256 * 1024);

  constructor(
    private readonly files: FileList,
    private readonly zip: ZipWriter,
    private readonly index: ArchiveIndexBuilder,
    private readonly prev: OpenPrevious | undefined,
  ) {}

  push(job: Job): void {
    this.jobs.push(job);
  }

  /** An empty batch file table (one written already, when there is one). */
  batchFiles(): BatchFiles {
    return this.spare.pop() ?? new BatchFiles();
  }

  /** Writes finished jobs in order until at most `keep` are outstanding. */
  async drain(keep: number): Promise<void> {
    const { jobs, zip, files } = this;
    while (jobs.length > keep) {
      const job = jobs.shift()!;
      if (job.kind === 'batch') {
        const r = await job.result;
        const b = job.files;
        let at = 0;
        for (let k = 0; k < b.count; k++) {
          const e = { method: r.method[k], crc: r.crc[k], compressedSize: r.compressedSize[k], size: b.length[k] };
          const headerAt = zip.offset;
          const flags = await zip.write(files, b.file[k], e, r.output.subarray(at, at + e.compressedSize));
          this.record(b.file[k], b.length[k], b.mode[k], { mtimeMs: b.mtimeMs[k], ctimeMs: b.ctimeMs[k], ino: b.ino[k] }, { ...e, flags }, headerAt);
          at += e.compressedSize;
        }
        r.recycle();
        b.count = 0;
        this.spare.push(b);
      } else if (job.kind === 'copy') {
        await this.copyEntries(job);
      } else if (job.kind === 'part') {
        await this.writePart(job);
      } else {
        const headerAt = zip.offset;
        const w = await writeStored(zip, files, job, this.storeBuffer);
        this.record(job.member.file, w.size, job.member.mode, job.member, { crc: w.crc, method: METHOD_STORE, compressedSize: w.compressedSize, flags: w.flags }, headerAt);
      }
    }
  }

  /** Closes the big files still waiting to be stored (packaging stopped before their turn). */
  closeWaiting(): void {
    for (const job of this.jobs) if (job.kind === 'stored') closeSync(job.fd);
  }

  private async writePart(job: Extract<Job, { kind: 'part' }>): Promise<void> {
    const zip = this.zip;
    if (job.first) this.open = { headerAt: zip.offset, entry: await zip.beginStreamed(this.files, job.member.file, METHOD_DEFLATE) };
    const r = await job.result;
    await zip.appendStreamed(r.output.subarray(0, r.compressedSize[0]));
    r.recycle();
    if (job.end) {
      const m = job.member;
      const open = this.open!;
      const e = await zip.endStreamed(open.entry, job.end.crc, job.end.size);
      this.record(m.file, job.end.size, m.mode, m, { method: METHOD_DEFLATE, crc: job.end.crc, compressedSize: e.compressedSize, flags: e.flags }, open.headerAt);
      this.open = undefined;
    }
  }

  /** The index row of an entry just written (its data ends at the writer's offset). */
  private record(file: number, size: number, mode: number, st: Stamp, e: Written, headerAt: number): void {
    const files = this.files;
    const nameLen = files.ends[file] - pathStart(files, file);
    const endAt = this.zip.offset;
    // A header with known sizes of 4 GiB or more carries them in a ZIP64 extra field (a streamed one never does).
    const streamed = (e.flags & FLAG_DATA_DESCRIPTOR) !== 0;
    const zip64Extra = !streamed && (size >= 0xffffffff || e.compressedSize >= 0xffffffff) ? 20 : 0;
    const dataAt = headerAt + 30 + nameLen + zip64Extra;
    this.index.add(files, file, { size, mode, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, crc: e.crc, method: e.method, compressedSize: e.compressedSize, flags: e.flags, headerAt, dataAt, endAt });
  }

  /** Entries of the previous archive, appended as they are stored there. */
  private async copyEntries(job: CopyJob): Promise<void> {
    const { fd, index: p } = this.prev!;
    const files = this.files;
    const c = p.columns;
    const first = job.from;
    const last = job.from + job.count - 1;
    const start = c.headerAt[first];
    checkLocalHeader(fd, p, first);
    if (last !== first) checkLocalHeader(fd, p, last);
    const base = this.zip.offset;
    await this.zip.copyRaw(fd, start, c.endAt[last] - start);
    this.reused += job.count;
    const m = job.member;
    // Unchanged files: the same paths and numbers as before, only where they are moved.
    if (!m) {
      this.index.addRun(p, first, job.count, base - start, job.file);
      return;
    }
    // A file read again (same content, other times): the numbers it has now.
    for (let k = 0; k < job.count; k++) {
      const j = first + k;
      const i = job.file + k;
      this.index.add(files, i, {
        size: c.size[j], mtimeMs: m.mtimeMs, ctimeMs: m.ctimeMs, ino: m.ino, mode: m.mode,
        crc: c.crc[j], method: c.method[j], compressedSize: c.compressedSize[j], flags: c.flags[j],
        headerAt: base + (c.headerAt[j] - start), dataAt: base + (c.dataAt[j] - start), endAt: base + (c.endAt[j] - start),
      });
    }
  }
}

/**
 * The previous archive must hold, where its index says, a local header of the entry with
 * that name: otherwise the index and the archive do not belong together and nothing is copied.
 */
function checkLocalHeader(fd: number, p: ArchiveIndex, j: number): void {
  const nameStart = pathStart(p, j);
  const nameLen = p.ends[j] - nameStart;
  const head = Buffer.allocUnsafe(30 + nameLen);
  const at = p.columns.headerAt[j];
  if (!readFully(fd, head, 0, head.length, at) || head.readUInt32LE(0) !== 0x04034b50 || head.readUInt16LE(26) !== nameLen
    || head.compare(p.names, nameStart, p.ends[j], 30, 30 + nameLen) !== 0 || at + 30 + nameLen + head.readUInt16LE(28) !== p.columns.dataAt[j]) {
    throw new PreviousArchiveMismatch();
  }
}

/** Reads exactly `length` bytes at `position`; false when the file ends first. */
export function readFully(fd: number, buf: Buffer, at: number, length: number, position: number): boolean {
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, at + got, length - got, position + got);
    if (n === 0) return false;
    got += n;
  }
  return true;
}

/** A big file that does not compress: stored, read piece by piece into the archive, sizes in a data descriptor. */
async function writeStored(zip: ZipWriter, files: FileList, job: { member: Member; fd: number }, readBuffer: Buffer): Promise<{ crc: number; size: number; compressedSize: number; flags: number }> {
  const { member, fd } = job;
  let crc = 0;
  let size = 0;
  // One reused read buffer: each piece is copied into the archive's block before the next read.
  const pieces = (async function* () {
    try {
      for (;;) {
        const n = readSync(fd, readBuffer, 0, readBuffer.length, size);
        if (n === 0) return;
        const piece = readBuffer.subarray(0, n);
        crc = zlib.crc32(piece, crc);
        size += n;
        yield piece;
      }
    } finally {
      closeSync(fd);
    }
  })();
  const { flags, compressedSize } = await zip.writeStreamed(files, member.file, METHOD_STORE, pieces, () => ({ crc, size }));
  return { crc, size, compressedSize, flags };
}

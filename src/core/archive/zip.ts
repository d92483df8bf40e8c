import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { ZipArchive, type ZipEntryData } from 'archiver';
import type { Selection, SkippedFile } from '../workspace/selectFiles';
import { looksIncompressible } from './compressibility';

export interface BuiltArchive {
  path: string;
  /** File name sent to the service, e.g. `project.zip`. */
  name: string;
  size: number;
  sha256: string;
  /** Archive paths actually written, in archive order. */
  entries: string[];
  /** Files that vanished or became unreadable between selection and packaging. */
  skipped: SkippedFile[];
  /** Deletes the archive and its private directory. Safe to call more than once. */
  dispose(): Promise<void>;
}

export interface BuildZipOptions {
  /** Parent of the private temporary directory. Default: the OS temp dir. */
  tmpRoot?: string;
  name?: string;
  /** Deflate level, 0-9. Default 6, the same as Info-ZIP's default. */
  level?: number;
  signal?: AbortSignal;
}

/** Every entry gets this timestamp so the same files always give the same bytes. */
const FIXED_DATE = new Date(2000, 0, 1, 0, 0, 0);

/** Files up to this size are read whole (synchronously); bigger ones are streamed. */
const SYNC_READ_MAX_FILE = 256 * 1024;
/** Bytes handed to archiver but not yet written out; this bounds memory. */
const PREFETCH_BUDGET = 2 * 1024 * 1024;
/** The output is gathered in buffers of this size before it goes to disk (two at most in use). */
const SINK_BUFFER_BYTES = 2 * 1024 * 1024;
/** Read size for big files; large reads mean fewer trips through the stream machinery. */
const STREAM_HIGH_WATER_MARK = 1024 * 1024;

/**
 * Zips the selected files into a temporary file in a private (0700) directory. Entries
 * are in the selection's sorted order with a fixed date and mode, so the archive is
 * deterministic. Memory stays bounded by PREFETCH_BUDGET whatever the workspace size.
 */
export async function buildZip(selection: Selection, opts: BuildZipOptions = {}): Promise<BuiltArchive> {
  const name = opts.name ?? 'project.zip';
  if (!/\.zip$/i.test(name) || name.includes('/') || name.includes('\\')) {
    throw new Error(`The archive name "${name}" must be a plain file name ending in .zip.`);
  }
  const level = opts.level ?? 6;
  const dir = await fsp.mkdtemp(path.join(opts.tmpRoot ?? os.tmpdir(), 'code-scanner-'));
  await fsp.chmod(dir, 0o700);
  const archivePath = path.join(dir, name);
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await fsp.rm(dir, { recursive: true, force: true });
  };
  try {
    const result = await writeZip(selection, archivePath, level, opts.signal);
    const size = (await fsp.stat(archivePath)).size;
    return { path: archivePath, name, size, sha256: result.sha256, entries: result.entries, skipped: result.skipped, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

async function writeZip(selection: Selection, archivePath: string, level: number, signal?: AbortSignal) {
  const archive = new ZipArchive({ zlib: { level }, forceZip64: false, highWaterMark: STREAM_HIGH_WATER_MARK });
  const sink = new HashingFileSink(await fsp.open(archivePath, 'wx', 0o600));
  const written = pipeline(archive, sink);
  const warnings: Error[] = [];
  archive.on('warning', (e: Error) => warnings.push(e));

  const entries: string[] = [];
  const skipped: SkippedFile[] = [];
  let archiveError: Error | undefined;
  archive.on('error', (e: Error) => (archiveError ??= e));

  // Bytes handed to archiver whose 'entry' event has not fired yet.
  let inFlight = 0;
  let wake: (() => void) | undefined;
  archive.on('entry', (data: ZipEntryData & { _size?: number }) => {
    inFlight -= data._size ?? 0;
    wake?.();
  });
  const waitForRoom = async () => {
    while (inFlight > PREFETCH_BUDGET && !archiveError) await new Promise<void>((r) => (wake = r));
  };

  for (const f of selection.files) {
    if (signal?.aborted) throw signal.reason ?? new Error('Packaging was cancelled.');
    if (archiveError) break;
    await waitForRoom();
    // `_size` rides along to the 'entry' event so the in-flight budget can be released.
    const data: ZipEntryData & { _size: number } = { name: f.path, date: FIXED_DATE, mode: 0o644, _size: f.size };
    if (f.size <= SYNC_READ_MAX_FILE) {
      // Small files are read synchronously: from the page cache this costs a few
      // microseconds, far less than four thread-pool round trips (open, stat, read, close),
      // and the main thread is otherwise idle while zlib deflates the previous entry.
      let buf: Buffer;
      try {
        buf = readFileSync(f.absPath);
      } catch (e) {
        skipped.push({ path: f.path, reason: isNotFound(e) ? 'missing' : 'unreadable' });
        continue;
      }
      data._size = buf.length;
      data.store = looksIncompressible(buf);
      inFlight += buf.length;
      archive.append(buf, data);
    } else {
      let sample: Buffer;
      try {
        sample = await readSample(f.absPath);
      } catch (e) {
        skipped.push({ path: f.path, reason: isNotFound(e) ? 'missing' : 'unreadable' });
        continue;
      }
      data.store = looksIncompressible(sample);
      inFlight += f.size;
      // A lazy stream: archiver opens it only when the entry's turn comes.
      archive.append(createReadStream(f.absPath, { highWaterMark: STREAM_HIGH_WATER_MARK }), data);
    }
    entries.push(f.path);
  }
  if (archiveError) throw archiveError;
  await archive.finalize();
  await written;
  if (archiveError) throw archiveError;
  return { sha256: sink.digest(), entries, skipped };
}

async function readSample(absPath: string): Promise<Buffer> {
  const fh = await fsp.open(absPath, 'r');
  try {
    const buf = Buffer.allocUnsafe(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function isNotFound(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/**
 * Writes the archive and hashes it in one step. archiver emits a great many tiny chunks
 * (every header field is its own Buffer, and the central directory is written in one
 * synchronous burst of ~20 chunks per entry). Queued one by one in a stream, 20,000 entries
 * cost ~100 MB of bookkeeping. Here they are copied into a large buffer and acknowledged at
 * once; the file sees a few large writes, and only a full buffer (while the previous one is
 * still being written) makes archiver wait.
 */
class HashingFileSink extends Writable {
  private readonly hash = createHash('sha256');
  private position = 0;
  private buf = Buffer.allocUnsafe(SINK_BUFFER_BYTES);
  private used = 0;
  private flushing: Promise<void> | undefined;
  private failed: Error | undefined;

  constructor(private readonly fh: FileHandle) {
    super({ highWaterMark: SINK_BUFFER_BYTES });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.failed) return cb(this.failed);
    if (this.used + chunk.length <= this.buf.length) {
      chunk.copy(this.buf, this.used);
      this.used += chunk.length;
      return cb();
    }
    // Full: hand the buffer to the disk (after the previous write), then take the chunk.
    this.flush()
      .then(() => {
        if (chunk.length > this.buf.length) return this.writeOut(chunk);
        chunk.copy(this.buf, 0);
        this.used = chunk.length;
      })
      .then(() => cb(), (e: Error) => cb(e));
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.flush()
      .then(() => this.flushing)
      .then(() => this.fh.close())
      .then(() => cb(), (e: Error) => cb(e));
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.fh.close().then(() => cb(err), () => cb(err));
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  /** Starts writing the current buffer and switches to a fresh one; waits for the previous write. */
  private async flush(): Promise<void> {
    await this.flushing;
    if (this.used === 0) return;
    const full = this.buf.subarray(0, this.used);
    this.buf = Buffer.allocUnsafe(SINK_BUFFER_BYTES);
    this.used = 0;
    this.flushing = this.writeOut(full).catch((e: Error) => {
      this.failed = e;
      throw e;
    });
  }

  private async writeOut(data: Buffer): Promise<void> {
    this.hash.update(data);
    let off = 0;
    while (off < data.length) {
      const { bytesWritten } = await this.fh.write(data, off, data.length - off, this.position);
      off += bytesWritten;
      this.position += bytesWritten;
    }
  }
}

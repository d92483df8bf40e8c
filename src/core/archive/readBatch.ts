// Reading a batch of files on a deflate worker. On a tree of many small files the main
// thread spent as long opening and reading them as a worker spent deflating (babel's shape:
// ~0.4 s of open, fstat, read and close of 1.1 s busy, with the worker idle a third of the
// time), so a worker reads the batches it deflates. It opens each file as safeOpen.ts does
// (no link followed, no FIFO waited on, a regular file with the inode chosen) and judges
// it as the main thread would (binary by content, stored when it does not compress).
// A batch's paths and results travel in buffers that go back and forth with its data: per
// batch arrays and strings, alive until the batch is written, had added ~12 MB to the peak
// of packaging 100,000 files.
import type * as fsTypes from 'node:fs';
import type { SkipReason } from '../workspace/selectFiles';

/** What became of each file of a batch. */
export const READ_OK = 0;
export const READ_MISSING = 1;
export const READ_UNREADABLE = 2;
export const READ_NOT_A_FILE = 3;
export const READ_CHANGED = 4;
export const READ_BINARY = 5;
/** It no longer fits the batch (it grew since it was chosen): the main thread packages it. */
export const READ_ELSEWHERE = 6;

/** The skip reason of each status above but READ_OK and READ_ELSEWHERE, by status. */
export const READ_SKIP_REASONS: readonly SkipReason[] = ['unreadable', 'missing', 'unreadable', 'not-a-file', 'changed', 'binary'];

/** Bytes of a batch's `meta` buffer for `n` files (readBatchViews). */
export function readBatchMetaBytes(n: number): number {
  return 53 * n;
}

/**
 * Views of a batch's `meta` buffer. Per file: `ends` (where its name ends in the batch's
 * names), `ino` (the inode chosen, then the one read), and what reading found; `crc`,
 * `csize` and `method` are those of the files read whole, in order (deflateBatch fills them).
 * Self-contained: it also runs as text in the worker.
 */
export function readBatchViews(meta: ArrayBuffer, n: number) {
  return {
    length: new Float64Array(meta, 0, n),
    mtimeMs: new Float64Array(meta, 8 * n, n),
    ctimeMs: new Float64Array(meta, 16 * n, n),
    ino: new Float64Array(meta, 24 * n, n),
    csize: new Float64Array(meta, 32 * n, n),
    crc: new Uint32Array(meta, 40 * n, n),
    ends: new Uint32Array(meta, 44 * n, n),
    mode: new Uint16Array(meta, 48 * n, n),
    status: new Uint8Array(meta, 50 * n, n),
    store: new Uint8Array(meta, 51 * n, n),
    method: new Uint8Array(meta, 52 * n, n),
  };
}

export type ReadBatchViews = ReturnType<typeof readBatchViews>;

type Fs = Pick<typeof fsTypes, 'openSync' | 'fstatSync' | 'readSync' | 'closeSync'>;

/**
 * Reads the batch's `count` files (`pathOf(i)`; `v.ino[i]` the inode each had when chosen,
 * 0 for any) one after the other into `input`, and records in `v` what became of each.
 * Self-contained, like deflateBatch: it becomes part of the worker's program as text, with
 * `incompressible` (compressibility.ts) passed in the same way.
 */
export function readBatch(
  fs: Fs, flags: number, count: number, pathOf: (i: number) => string | Buffer, input: Buffer, incompressible: (data: Buffer) => boolean, v: ReadBatchViews,
): void {
  let used = 0;
  for (let i = 0; i < count; i++) {
    const expectedIno = v.ino[i];
    v.status[i] = 2;
    v.length[i] = 0;
    let fd: number;
    try {
      fd = fs.openSync(pathOf(i), flags);
    } catch (e) {
      // As safeOpen.ts: ELOOP is a link where the file was (O_NOFOLLOW), ENXIO a FIFO or socket.
      const code = (e as { code?: string }).code;
      v.status[i] = code === 'ENOENT' || code === 'ENOTDIR' ? 1 : code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR' ? 3 : 2;
      continue;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) {
        v.status[i] = 3;
      } else if (expectedIno && st.ino && st.ino !== expectedIno) {
        v.status[i] = 4;
      } else if (st.size > input.length - used) {
        v.status[i] = 6;
      } else {
        // Up to the size fstat gave: a file that grows meanwhile is taken as it was then.
        let got = 0;
        while (got < st.size) {
          const k = fs.readSync(fd, input, used + got, st.size - got, got);
          if (k === 0) break;
          got += k;
        }
        const data = input.subarray(used, used + got);
        // git's test for binary content (binaryContent.ts): a NUL among the first 8,000 bytes.
        if (data.subarray(0, 8000).includes(0)) {
          v.status[i] = 5;
        } else {
          v.status[i] = 0;
          v.length[i] = got;
          v.mode[i] = st.mode & 0o111 ? 0o755 : 0o644;
          v.mtimeMs[i] = st.mtimeMs;
          v.ctimeMs[i] = st.ctimeMs;
          v.ino[i] = st.ino;
          // As the main thread judges it (zip.ts): only files over 64 KB are sampled.
          v.store[i] = got > 65536 && incompressible(data.subarray(0, 4096)) ? 1 : 0;
          used += got;
        }
      }
    } catch {
      v.status[i] = 2;
    } finally {
      fs.closeSync(fd);
    }
  }
}

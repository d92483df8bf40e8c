// Reading a batch of files on a deflate worker. On a tree of many small files the main
// thread spent as long opening and reading them as a worker spent deflating (babel's shape:
// ~0.4 s of open, fstat, read and close of 1.1 s busy, with the worker idle a third of the
// time), so a worker reads the batches it deflates. It opens each file as safeOpen.ts does
// (no link followed, no FIFO waited on, a regular file with the inode chosen) and judges
// it as the main thread would (binary by content, stored when it does not compress).
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

export interface ReadBatchResult {
  status: Uint8Array;
  /** Bytes read (files with READ_OK are laid out one after the other in the input, in order). */
  length: Float64Array;
  mode: Uint16Array;
  mtimeMs: Float64Array;
  ctimeMs: Float64Array;
  ino: Float64Array;
  /** 1 when the file is stored as it is (it does not look compressible). */
  store: Uint8Array;
}

type Fs = Pick<typeof fsTypes, 'openSync' | 'fstatSync' | 'readSync' | 'closeSync'>;

/**
 * Reads `paths` one after the other into `input`. Self-contained, like deflateBatch: it
 * becomes part of the worker's program as text, with `incompressible` (compressibility.ts)
 * passed in the same way.
 */
export function readBatch(fs: Fs, flags: number, paths: readonly string[], inos: ArrayLike<number>, input: Buffer, incompressible: (data: Buffer) => boolean): ReadBatchResult {
  const n = paths.length;
  const r: ReadBatchResult = {
    status: new Uint8Array(n), length: new Float64Array(n), mode: new Uint16Array(n),
    mtimeMs: new Float64Array(n), ctimeMs: new Float64Array(n), ino: new Float64Array(n), store: new Uint8Array(n),
  };
  let used = 0;
  for (let i = 0; i < n; i++) {
    let fd: number;
    try {
      fd = fs.openSync(paths[i], flags);
    } catch (e) {
      // As safeOpen.ts: ELOOP is a link where the file was (O_NOFOLLOW), ENXIO a FIFO or socket.
      const code = (e as { code?: string }).code;
      r.status[i] = code === 'ENOENT' || code === 'ENOTDIR' ? 1 : code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR' ? 3 : 2;
      continue;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) {
        r.status[i] = 3;
      } else if (inos[i] && st.ino && st.ino !== inos[i]) {
        r.status[i] = 4;
      } else if (st.size > input.length - used) {
        r.status[i] = 6;
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
          r.status[i] = 5;
        } else {
          r.length[i] = got;
          r.mode[i] = st.mode & 0o111 ? 0o755 : 0o644;
          r.mtimeMs[i] = st.mtimeMs;
          r.ctimeMs[i] = st.ctimeMs;
          r.ino[i] = st.ino;
          // As the main thread judges it (zip.ts): only files over 64 KB are sampled.
          r.store[i] = got > 65536 && incompressible(data.subarray(0, 4096)) ? 1 : 0;
          used += got;
        }
      }
    } catch {
      r.status[i] = 2;
    } finally {
      fs.closeSync(fd);
    }
  }
  return r;
}

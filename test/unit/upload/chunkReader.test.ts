import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { ChunkReader, SLICE_BYTES } from '../../../src/core/upload/chunkReader';

async function withFile(bytes: Buffer, fn: (file: string) => Promise<void>): Promise<void> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'chunk-reader-'));
  try {
    const file = path.join(dir, 'project.zip');
    await fsp.writeFile(file, bytes);
    await fn(file);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** Takes up to `count` slices of a chunk, as a request would, and copies them out. */
async function take(reader: ChunkReader, start: number, len: number, count = Infinity): Promise<{ bytes: Buffer; sent: number[] }> {
  const parts: Buffer[] = [];
  const sent: number[] = [];
  for await (const slice of reader.slices(start, len, (n) => sent.push(n))) {
    parts.push(Buffer.from(slice));
    if (parts.length >= count) break;
  }
  return { bytes: Buffer.concat(parts), sent };
}

describe('ChunkReader', () => {
  test('chunks come out as the archive holds them, in slices, with what was sent so far', async () => {
    const data = randomBytes(3 * SLICE_BYTES + 1234);
    await withFile(data, async (file) => {
      const reader = new ChunkReader(file, 2 * SLICE_BYTES + 10);
      try {
        const first = await take(reader, 0, 2 * SLICE_BYTES + 10);
        assert.ok(first.bytes.equals(data.subarray(0, 2 * SLICE_BYTES + 10)));
        assert.deepEqual(first.sent, [SLICE_BYTES, 2 * SLICE_BYTES, 2 * SLICE_BYTES + 10]);
        const second = await take(reader, 2 * SLICE_BYTES + 10, data.length - (2 * SLICE_BYTES + 10));
        assert.ok(second.bytes.equals(data.subarray(2 * SLICE_BYTES + 10)));
      } finally {
        await reader.close();
      }
    });
  });

  test('a retried chunk sends again the slices already read and reads only the rest', async () => {
    const data = randomBytes(4 * SLICE_BYTES);
    await withFile(data, async (file) => {
      const reader = new ChunkReader(file, data.length);
      try {
        // The first request is cut off after two slices.
        await take(reader, 0, data.length, 2);
        // The file's first half changes on disk: a retry that read it again would send the new bytes.
        const handle = await fsp.open(file, 'r+');
        await handle.write(Buffer.alloc(2 * SLICE_BYTES, 7), 0, 2 * SLICE_BYTES, 0);
        await handle.close();
        const retry = await take(reader, 0, data.length);
        assert.ok(retry.bytes.equals(data), 'the retry must send the bytes of the first attempt');
        // The next chunk at another offset reads again.
        const other = await take(reader, SLICE_BYTES, SLICE_BYTES);
        assert.ok(other.bytes.equals(Buffer.alloc(SLICE_BYTES, 7)));
      } finally {
        await reader.close();
      }
    });
  });

  test('an archive shorter than the chunk, or gone, fails with what to do and is remembered as the reader\'s failure', async () => {
    await withFile(randomBytes(SLICE_BYTES + 100), async (file) => {
      const reader = new ChunkReader(file, 2 * SLICE_BYTES);
      try {
        await assert.rejects(take(reader, 0, 2 * SLICE_BYTES), /is shorter than expected; package the workspace again/);
        assert.match(reader.failure?.message ?? '', /shorter than expected/);
      } finally {
        await reader.close();
      }
    });
    const gone = new ChunkReader(path.join(os.tmpdir(), 'no-such-dir-chunk-reader', 'project.zip'), SLICE_BYTES);
    try {
      await assert.rejects(take(gone, 0, 10), /could not be read \(ENOENT\); package the workspace again/);
      assert.ok(gone.failure);
    } finally {
      await gone.close();
    }
  });
});

// Transfer bookkeeping: per-transfer serialisation and committing a chunk to the data file.
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/** Runs the critical sections of one transfer one after the other. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(fn);
    this.tails.set(key, next);
    try {
      return await next;
    } finally {
      if (this.tails.get(key) === next) this.tails.delete(key);
    }
  }
}

/**
 * Copies a chunk that was parked in a temp file to `offset` of the data file. The state
 * file, written after this, is what makes the bytes count: a crash in between is undone
 * on load.
 */
export async function commitChunk(tempPath: string, dataPath: string, offset: number): Promise<void> {
  await pipeline(createReadStream(tempPath), createWriteStream(dataPath, { flags: 'r+', start: offset }));
}

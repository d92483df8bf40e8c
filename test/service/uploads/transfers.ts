// Transfer bookkeeping: per-transfer serialisation and committing a chunk to the data file.
import { createReadStream, createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
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
 * Puts the chunk's bytes at `offset` of the data file. The first chunk is renamed into
 * place (no copy); later ones are written at their position. The state file, written
 * after this, is what makes them count: a crash in between is undone on load.
 */
export async function commitChunk(tempPath: string, dataPath: string, offset: number): Promise<void> {
  if (offset === 0) {
    await rename(tempPath, dataPath);
    return;
  }
  await pipeline(createReadStream(tempPath), createWriteStream(dataPath, { flags: 'r+', start: offset }));
}

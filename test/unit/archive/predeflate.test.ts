import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, test } from 'node:test';
import { ZipArchive } from 'archiver';
import { shareEntryFunctions } from '../../../src/core/archive/entryFootprint';
import { installPredeflater, zipWriterOf } from '../../../src/core/archive/predeflate';
import { readZip, tempDir } from '../workspace/helpers';

const DATE = new Date(2000, 0, 1);
const RANDOM = randomBytes(20_000);

/** Mixed entries: deflated text of several sizes, empty, stored, and a streamed one. */
function entries(): { name: string; data: Buffer; store?: boolean; stream?: boolean }[] {
  const text = (n: number, seed: string) => Buffer.from(`export const ${seed} = ${JSON.stringify(seed)}; // line\n`.repeat(n));
  return [
    { name: 'a.ts', data: text(1, 'a') },
    { name: 'b/empty.txt', data: Buffer.alloc(0) },
    { name: 'b/medium.ts', data: text(400, 'medium') },
    { name: 'c/random.bin', data: RANDOM, store: true },
    { name: 'd/streamed.ts', data: text(3000, 'streamed'), stream: true },
    ...Array.from({ length: 40 }, (_, i) => ({ name: `e/f${String(i).padStart(2, '0')}.ts`, data: text(i * 13 + 1, `f${i}`) })),
  ];
}

async function build(predeflate: boolean, share = false): Promise<{ bytes: Buffer; active: boolean; written: number; started: number; entryFunctions: Set<unknown> }> {
  const archive = new ZipArchive({ zlib: { level: 6 }, forceZip64: false });
  if (share) assert.equal(shareEntryFunctions(zipWriterOf(archive)), true);
  const chunks: Buffer[] = [];
  const done = pipeline(archive, new Writable({ write: (c: Buffer, _e, cb) => (chunks.push(c), cb()) }));
  const pre = predeflate ? installPredeflater(archive, 6) : undefined;
  let started = 0;
  for (const e of entries()) {
    const data = { name: e.name, date: DATE, mode: 0o644, store: e.store };
    if (e.stream) {
      archive.append(Readable.from([e.data]), data);
    } else {
      if (pre && !e.store && e.data.length > 0) {
        pre.start(e.data);
        started++;
      }
      archive.append(e.data, data);
    }
  }
  await archive.finalize();
  await done;
  pre?.close();
  const writer = zipWriterOf(archive)!;
  // zip.ts reuses a read-slab region once the sink has taken in getBytesWritten() bytes: that
  // count must be exactly what comes out of archiver, or a region is reused too early (or never).
  assert.equal(writer.getBytesWritten(), Buffer.concat(chunks).length, "the zip writer's byte count must equal archiver's output");
  const kept = (writer as unknown as { _entries: { getExternalAttributes: unknown }[] })._entries;
  return { bytes: Buffer.concat(chunks), active: pre?.active ?? false, written: pre?.written ?? 0, started, entryFunctions: new Set(kept.map((e) => e.getExternalAttributes)) };
}

describe('predeflate (archiver internals it relies on)', () => {
  test('archiver still has the zip writer internals the parallel deflate wraps', () => {
    assert.ok(
      zipWriterOf(new ZipArchive({})),
      'archiver/zip-stream/compress-commons changed: ZipArchive._module.engine with _appendBuffer, _writeLocalFileHeader and _afterAppend is gone. ' +
        'Packaging still works (archiver deflates every entry itself) but is ~2x slower: update src/core/archive/predeflate.ts.',
    );
  });

  test('each kept entry shares one getExternalAttributes function, and the bytes do not change', async () => {
    const own = await build(false);
    assert.equal(own.entryFunctions.size, entries().length, 'compress-commons gives every entry its own function (if not, src/core/archive/entryFootprint.ts can go)');
    const shared = await build(true, true);
    assert.equal(shared.entryFunctions.size, 1, 'after the swap all entries kept for the central directory share one function');
    assert.ok(shared.bytes.equals(own.bytes), 'the central directory must be written exactly as before');
  });

  test('entries deflated ahead give the very bytes archiver writes itself, and yauzl reads them', async () => {
    const own = await build(false);
    const ahead = await build(true);
    assert.equal(ahead.active, true, 'the predeflater must be installed (see the test above)');
    assert.ok(ahead.started > 40);
    assert.equal(ahead.written, ahead.started, 'every started entry must be written from its predeflated bytes');
    assert.ok(ahead.bytes.equals(own.bytes), 'the archive must be byte-identical to archiver deflating each entry itself');

    const dir = await tempDir('predeflate-');
    try {
      const file = path.join(dir, 'x.zip');
      await fsp.writeFile(file, ahead.bytes);
      const read = await readZip(file);
      const want = entries();
      assert.deepEqual(read.map((e) => e.name), want.map((e) => e.name));
      for (let i = 0; i < want.length; i++) {
        assert.ok(read[i].data.equals(want[i].data), `${want[i].name} must round-trip`);
        assert.equal(read[i].method, want[i].store || want[i].data.length === 0 ? 0 : 8, `${want[i].name} method`);
      }
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

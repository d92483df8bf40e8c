// The results file: records round-trip through JSON Lines, a write replaces the file whole
// (never half of it), a damaged line is named, and writing fifty thousand findings never
// holds the event loop for long.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readJsonLines, writeJsonLines, writeJsonLinesSync } from '../../../src/core/persist';

const withDir = async (fn: (dir: string) => Promise<void>) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'jsonl-'));
  try { await fn(dir); } finally { rmSync(dir, { recursive: true, force: true }); }
};

const records = (n: number) => Array.from({ length: n }, (_, i) => ({
  kind: 'issues', folderUri: 'file:///w', issues: [{ id: String(i), path: `src/é ${i}\n.ts`, message: 'line\u2028break "quoted"' }],
}));

test('records written async and sync read back equal; no temporary file is left', () => withDir(async (dir) => {
  const file = path.join(dir, 'nested', 'results.jsonl');
  await writeJsonLines(file, records(1200));
  assert.deepEqual(await readJsonLines(file), records(1200));
  writeJsonLinesSync(file, records(3));
  assert.deepEqual(await readJsonLines(file), records(3));
  assert.deepEqual(readdirSync(path.dirname(file)), ['results.jsonl']);
}));

test('a line separator in a message stays inside its line: written escaped, and read whole from a file that has it raw', () => withDir(async (dir) => {
  const file = path.join(dir, 'results.jsonl');
  const sample = [{ message: 'a\u2028b\u2029c' }, { message: 'd' }];
  await writeJsonLines(file, sample);
  assert.doesNotMatch(readFileSync(file, 'utf8'), /[\u2028\u2029]/);
  assert.deepEqual(await readJsonLines(file), sample);
  writeJsonLinesSync(file, sample);
  assert.doesNotMatch(readFileSync(file, 'utf8'), /[\u2028\u2029]/);
  // As a version before the escape wrote it (and with CRLF line ends): two records, not four lines.
  writeFileSync(file, '{"message":"a\u2028b\u2029c"}\r\n{"message":"d"}\r\n');
  assert.deepEqual(await readJsonLines(file), sample);
}));

test('no file reads as undefined; a damaged line is an error naming it', () => withDir(async (dir) => {
  assert.equal(await readJsonLines(path.join(dir, 'absent.jsonl')), undefined);
  const file = path.join(dir, 'bad.jsonl');
  writeFileSync(file, '{"a":1}\n{"b":\n');
  await assert.rejects(readJsonLines(file), /bad\.jsonl line 2 is not JSON/);
}));

test('a write that fails keeps the previous file and leaves nothing behind', () => withDir(async (dir) => {
  const file = path.join(dir, 'results.jsonl');
  await writeJsonLines(file, records(2));
  const before = readFileSync(file, 'utf8');
  function* failing() { yield { ok: 1 }; throw new Error('state changed under the writer'); }
  await assert.rejects(writeJsonLines(file, failing()), /state changed/);
  assert.equal(readFileSync(file, 'utf8'), before);
  assert.deepEqual(readdirSync(dir), ['results.jsonl']);
}));

test('fifty thousand findings are written and read in slices: other callbacks run in between', () => withDir(async (dir) => {
  const file = path.join(dir, 'big.jsonl');
  const big = Array.from({ length: 100 }, (_, r) => ({ kind: 'issues', folderUri: 'file:///w', issues: Array.from({ length: 500 }, (_, i) => ({
    id: `${r}-${i}`, path: `packages/p${r}/src/file${i}.ts`, line: i, classificationId: 'CWE-79', classificationName: 'Cross-site scripting', lineText: 'x'.repeat(200),
    patch: `--- a/f\n+++ b/f\n@@ -1 +1 @@\n-${'y'.repeat(120)}\n+${'z'.repeat(120)}\n`,
  })) }));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  try {
    await writeJsonLines(file, big);
    const afterWrite = ticks;
    assert.ok(afterWrite > 0, 'the event loop ran during the write');
    const back = await readJsonLines(file);
    assert.ok(ticks > afterWrite, 'the event loop ran during the read');
    assert.equal(back?.length, 100);
    assert.deepEqual(back?.[99], big[99]);
  } finally {
    clearInterval(timer);
  }
}));

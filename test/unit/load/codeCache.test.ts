// The bundle loader with V8's code cache (core/load/codeCache.ts): the first load makes a
// cache, the next uses it with the same exports, a changed file never runs a stale cache, a
// damaged cache is refused by V8 and replaced, and the module is in Node's module cache.
// Each load whose cache matters runs in a process of its own, as an extension host would:
// within one process V8 keeps what it compiled and would not look at a cache at all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fsp, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { loadWithCodeCache } from '../../../src/core/load/codeCache';

let dir: string;
let cacheDir: string;
const require = createRequire(__filename);

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(tmpdir(), 'code-cache-'));
  cacheDir = path.join(dir, 'cache');
});
afterEach(async () => {
  for (const k of Object.keys(require.cache)) if (k.startsWith(dir)) delete require.cache[k];
  await fsp.rm(dir, { recursive: true, force: true });
});

/** A module with some functions to compile, and one it requires from its own folder. */
function writeModule(version: number): string {
  writeFileSync(path.join(dir, 'helper.js'), 'exports.twice = (x) => x * 2;\n');
  const file = path.join(dir, 'bundle.js');
  const body = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(file, `${body}\nconst { twice } = require('./helper.js');\nexports.version = ${version};\nexports.answer = twice(f20(1));\nexports.dir = __dirname;\n`);
  return file;
}


/** Loads `file` in a fresh Node process, saves its cache, and says how it was compiled and what it exported. */
function loadElsewhere<T>(file: string, contentHash?: string): { cache: string; exports: T } {
  const script = `const { loadWithCodeCache } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/core/load/codeCache.ts'))});
const l = loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, ${JSON.stringify(contentHash)});
l.save().then(() => console.log(JSON.stringify({ cache: l.cache, exports: l.exports })));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' })) as { cache: string; exports: T };
}
const caches = () => readdirSync(cacheDir).filter((n) => n.endsWith('.cache'));

test('the first load makes a cache; the next uses it, with the same exports', async () => {
  const file = writeModule(1);
  const first = loadWithCodeCache<{ version: number; answer: number; dir: string }>(file, cacheDir);
  assert.equal(first.cache, 'none');
  assert.deepEqual({ ...first.exports }, { version: 1, answer: 42, dir });
  assert.equal(require(file), first.exports, 'a later require gets the same module');
  await first.save();
  assert.equal(caches().length, 1);
  const second = loadElsewhere<{ version: number; answer: number }>(file);
  assert.equal(second.cache, 'used');
  assert.deepEqual(second.exports, { version: 1, answer: 42, dir });
  assert.equal(caches().length, 1, 'a used cache is not written again');
});

test('a changed file runs as it is now: the old cache is not used, and is replaced', () => {
  const file = writeModule(1);
  loadElsewhere(file);
  const old = caches();
  writeModule(2);
  // Same length, another time: only the name's modification time tells them apart.
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  const again = loadElsewhere<{ version: number }>(file);
  assert.equal(again.cache, 'none');
  assert.equal(again.exports.version, 2);
  assert.equal(caches().length, 1);
  assert.notDeepEqual(caches(), old);
  assert.equal(loadElsewhere(file).cache, 'used');
});

test('a damaged cache is refused by V8: the file runs from its source, and the cache is written again', () => {
  const file = writeModule(1);
  loadElsewhere(file);
  const [name] = caches();
  writeFileSync(path.join(cacheDir, name!), Buffer.from('not a code cache at all, but of some length'.repeat(20)));
  const damaged = loadElsewhere<{ answer: number }>(file);
  assert.equal(damaged.cache, 'rejected');
  assert.equal(damaged.exports.answer, 42);
  assert.equal(loadElsewhere(file).cache, 'used');
});

test('damaged bytes inside a cache never reach V8 (it would end the process): the checksum refuses them', () => {
  const file = writeModule(1);
  loadElsewhere(file);
  const [name] = caches();
  const bytes = readFileSync(path.join(cacheDir, name!));
  for (let i = Math.floor(bytes.length / 2); i < bytes.length; i += 7) bytes[i] ^= 0x5a;
  writeFileSync(path.join(cacheDir, name!), bytes);
  const damaged = loadElsewhere<{ answer: number }>(file);
  assert.equal(damaged.cache, 'rejected');
  assert.equal(damaged.exports.answer, 42);
  assert.equal(loadElsewhere(file).cache, 'used', 'written again, whole');
});

test('named by the content hash: a cache of another file of the same size and time is never used', () => {
  const file = writeModule(1);
  const hash = (text: string) => createHash('sha256').update(text).digest('hex');
  const first = readFileSync(file, 'utf8');
  assert.equal(loadElsewhere(file, hash(first)).cache, 'none');
  assert.equal(loadElsewhere(file, hash(first)).cache, 'used');
  const when = statSync(file).mtime;
  const other = first.replace('exports.version = 1;', 'exports.version = 2;');
  assert.equal(other.length, first.length);
  writeFileSync(file, other);
  utimesSync(file, when, when);
  const next = loadElsewhere<{ version: number }>(file, hash(other));
  assert.equal(next.cache, 'none', 'the other file\'s cache is not looked at');
  assert.equal(next.exports.version, 2);
});

test('without a cache folder it loads, and saving does nothing', async () => {
  const file = writeModule(3);
  const plain = loadWithCodeCache<{ version: number }>(file, undefined);
  assert.equal(plain.cache, 'none');
  assert.equal(plain.exports.version, 3);
  await plain.save();
  await assert.rejects(fsp.access(cacheDir));
});

test('a module that throws while it loads throws here, as require would', () => {
  const file = path.join(dir, 'broken.js');
  writeFileSync(file, 'throw new Error("broken at load");\n');
  assert.throws(() => loadWithCodeCache(file, cacheDir), /broken at load/);
});

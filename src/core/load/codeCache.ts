// Loads a CommonJS bundle with V8's code cache. Compiling the extension's bundle held the
// editor's extension host at every activation (V8 parses the whole script before it runs);
// with the cache V8 reads back what it compiled last time instead. This is what VS Code
// does for its own code. The cache is V8's own format, checked by V8: one made by another
// V8 is rejected (and replaced), never run. V8 checks only the source's length, so the
// cache's name carries the file's content hash, made when the bundle is built (a digest at
// load time cost as much as the compile it saves): a cache of another file of the same size
// is never handed to it. (Without one, in a development build, its size and modification
// time.) V8 does not survive damaged payload bytes (a fatal error, the host gone): each cache
// carries a checksum of its bytes, checked before V8 sees them.
//
// The cache holds what was compiled by the end of the module's set-up, not what activation
// compiled after it: a bigger cache takes longer to read back, all of it at once, while a
// function compiled when it is first called costs that turn only.
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync, statSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

export interface CachedLoad<T> {
  exports: T;
  /** How the code was compiled: from the cache, without one, or a cache V8 refused. */
  cache: 'used' | 'none' | 'rejected';
  /** Writes the cache made when the module had been set up (when none was used). */
  save(): Promise<void>;
}

const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n})'] as const;

/** A cache file: this mark, the SHA-1 of V8's bytes, then the bytes. */
const MAGIC = Buffer.from('CSC1');
const SUM_BYTES = 20;

const checksum = (data: Buffer) => createHash('sha1').update(data).digest();

/** V8's bytes of a cache file whose checksum holds; undefined otherwise. */
export function cachePayload(file: Buffer): Buffer | undefined {
  const head = MAGIC.length + SUM_BYTES;
  if (file.length <= head || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const payload = file.subarray(head);
  return checksum(payload).equals(file.subarray(MAGIC.length, head)) ? payload : undefined;
}

/** The cache file for V8's bytes. */
export function cacheFileBytes(payload: Buffer): Buffer {
  return Buffer.concat([MAGIC, checksum(payload), payload]);
}

/**
 * Runs `file` as a CommonJS module (its `require` resolves from its own folder, as Node's
 * would) and returns its exports. `cacheDir` undefined: no cache. `contentHash`: the file's
 * hash from the build (hex), which names its cache. It goes into Node's module
 * cache as well, so a later `require` of the file returns these exports rather than running
 * the file a second time.
 */
export function loadWithCodeCache<T>(file: string, cacheDir: string | undefined, contentHash?: string): CachedLoad<T> {
  const source = readFileSync(file, 'utf8');
  let key: string;
  if (contentHash && /^[0-9a-f]{16,}$/.test(contentHash)) {
    key = contentHash.slice(0, 32);
  } else {
    const stat = statSync(file);
    key = `${stat.size}.${Math.round(stat.mtimeMs)}`;
  }
  const cacheFile = cacheDir ? path.join(cacheDir, `${path.basename(file)}.${process.versions.v8}.${key}.cache`) : undefined;
  let stored: Buffer | undefined;
  try {
    if (cacheFile) stored = readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  const cachedData = stored && cachePayload(stored);
  const script = new vm.Script(WRAPPER[0] + source + WRAPPER[1], { filename: file, cachedData });
  const cache = !stored ? 'none' : !cachedData || script.cachedDataRejected ? 'rejected' : 'used';
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;
  const require = createRequire(file);
  const module = new Module(file);
  module.filename = file;
  module.paths = require.resolve.paths('a-package') ?? [];
  wrapper.call(module.exports, module.exports, require, module, file, path.dirname(file));
  module.loaded = true;
  require.cache[file] = module;
  const data = cacheFile && cache !== 'used' ? script.createCachedData() : undefined;
  let saved = false;
  return {
    exports: module.exports as T,
    cache,
    save: async () => {
      if (!cacheFile || !data || saved) return;
      saved = true;
      await fs.mkdir(cacheDir!, { recursive: true });
      // Caches of other versions of the file, or of another V8, are of no more use.
      for (const old of await fs.readdir(cacheDir!)) {
        if (old.startsWith(`${path.basename(file)}.`) && old.endsWith('.cache') && path.join(cacheDir!, old) !== cacheFile) await fs.rm(path.join(cacheDir!, old), { force: true });
      }
      const temp = `${cacheFile}.${process.pid}.tmp`;
      await fs.writeFile(temp, cacheFileBytes(data));
      await fs.rename(temp, cacheFile);
    },
  };
}

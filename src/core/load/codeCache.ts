// Loads a CommonJS bundle with V8's code cache. Compiling the extension's bundle held the
// editor's extension host at every activation (V8 parses the whole script before it runs);
// with the cache V8 reads back what it compiled last time instead. This is what VS Code
// does for its own code. The cache is V8's own format, checked by V8: one made by another
// V8 is rejected (and replaced), never run. V8 checks only the source's length, so the
// cache's name carries the file's size and modification time (an update writes a new file):
// a digest of the source cost as much as the compile it saves.
//
// The cache holds what was compiled by the end of the module's set-up, not what activation
// compiled after it: a bigger cache takes longer to read back, all of it at once, while a
// function compiled when it is first called costs that turn only.
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

/**
 * Runs `file` as a CommonJS module (its `require` resolves from its own folder, as Node's
 * would) and returns its exports. `cacheDir` undefined: no cache. It goes into Node's module
 * cache as well, so a later `require` of the file returns these exports rather than running
 * the file a second time.
 */
export function loadWithCodeCache<T>(file: string, cacheDir: string | undefined): CachedLoad<T> {
  const stat = statSync(file);
  const source = readFileSync(file, 'utf8');
  const cacheFile = cacheDir
    ? path.join(cacheDir, `${path.basename(file)}.${process.versions.v8}.${stat.size}.${Math.round(stat.mtimeMs)}.cache`)
    : undefined;
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  const script = new vm.Script(WRAPPER[0] + source + WRAPPER[1], { filename: file, cachedData });
  const cache = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
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
      await fs.writeFile(temp, data);
      await fs.rename(temp, cacheFile);
    },
  };
}

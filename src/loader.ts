// The extension's entry point (dist/extension.js). VS Code loads this small file; the
// extension itself is three more: zod (dist/zod.js), the rest of the extension
// (dist/main.js) and undici (dist/undici.js, on the first request). Each is compiled with
// V8's code cache and set up in a turn of the event loop of its own: in one piece, loading
// held the extension host (the one thread every extension shares) far too long at a time.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache, type CachedLoad } from './core/load/codeCache';
import type * as Main from './extension';

/** Each bundle's content hash, put in at build time (esbuild.mjs); undefined in a build without it. */
declare const CODE_SCANNER_BUNDLE_HASHES: Record<string, string> | undefined;
const bundleHashes = (): Record<string, string> => (typeof CODE_SCANNER_BUNDLE_HASHES === 'object' && CODE_SCANNER_BUNDLE_HASHES) || {};

/** The caches are written once activation is over, not during it. */
const SAVE_CACHE_AFTER_MS = 5_000;

let main: typeof Main | undefined;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function activate(context: vscode.ExtensionContext): Promise<Main.CodeScannerApi> {
  const cacheDir = path.join(context.globalStorageUri.fsPath, 'code-cache');
  const loads: { name: string; loaded: CachedLoad<unknown> }[] = [];
  const load = <T>(name: string): T => {
    const file = path.join(__dirname, name);
    let loaded: CachedLoad<T>;
    try {
      loaded = loadWithCodeCache<T>(file, cacheDir, bundleHashes()[name]);
    } catch {
      // An unusable cache folder must not keep the extension from starting (a file that
      // fails to load fails again here, and says why).
      loaded = loadWithCodeCache<T>(file, undefined);
    }
    loads.push({ name, loaded });
    return loaded.exports;
  };
  await turn();
  // main.js requires it at once; loaded first, it is in Node's module cache by then.
  load('zod.js');
  await turn();
  main = load<typeof Main>('main.js');
  await turn();
  const api = await main.activate(context, { undici: () => load('undici.js'), codeCache: () => Object.fromEntries(loads.map((l) => [l.name, l.loaded.cache])) });
  const timer = setTimeout(() => void Promise.all(loads.map((l) => l.loaded.save().catch(() => undefined))), SAVE_CACHE_AFTER_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  return api;
}

export function deactivate(): void {
  main?.deactivate();
}

// undici, loaded when the first request needs it. It is the biggest part of the bundle and
// its module set-up is not small: loaded with the rest, both held the editor's extension host
// at activation, before any request was due. The extension ships it as a file of its own
// (esbuild.mjs), so activation neither compiles nor runs it.
import type * as Undici from 'undici';

/** What the extension uses of it: dist/undici.js holds these parts only (esbuild.mjs). */
export type UndiciParts = Pick<typeof Undici, 'Agent' | 'Pool' | 'ProxyAgent' | 'Headers' | 'getSetCookies'>;

let loaded: UndiciParts | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
let load: () => unknown = () => require('undici');

/** How to load it, when not by `require` (the extension: with V8's code cache, src/loader.ts). */
export function loadUndiciWith(loader: () => unknown): void {
  load = loader;
}

export function undici(): UndiciParts {
  return (loaded ??= load() as UndiciParts);
}

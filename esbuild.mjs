// Bundles the extension (and, on request, the integration tests) into CommonJS files.
// `vscode` stays external because the editor provides it at run time.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const withTests = process.argv.includes('--tests');
// `--out-root DIR` writes DIR/dist/extension.js, for the packaging test's own copy.
const outRootAt = process.argv.indexOf('--out-root');
const outRoot = outRootAt >= 0 ? process.argv[outRootAt + 1] : '.';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // Drop dependency source maps from the bundle's map so the .vsix stays small.
  sourcesContent: false,
};

await esbuild.build({
  ...common,
  entryPoints: ['src/extension.ts'],
  outfile: join(outRoot, 'dist', 'extension.js'),
});

if (withTests) {
  const dir = 'test/integration';
  const entryPoints = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
  await esbuild.build({
    ...common,
    sourcemap: true,
    minify: false,
    entryPoints,
    outdir: 'out/test/integration',
    // `proxy` (the tests' real proxy server) reads its package.json through import.meta.url,
    // which a CommonJS bundle lacks: it is loaded from node_modules instead.
    external: ['vscode', 'mocha', 'proxy'],
  });
}

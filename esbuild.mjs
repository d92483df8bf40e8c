// Bundles the extension (and, on request, the integration tests) into CommonJS files.
// `vscode` stays external because the editor provides it at run time.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const withTests = process.argv.includes('--tests');

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
  outfile: 'dist/extension.js',
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
    external: ['vscode', 'mocha'],
  });
}

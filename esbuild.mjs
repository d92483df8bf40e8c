// Bundles the extension (and, on request, the integration tests) into CommonJS files.
// `vscode` stays external because the editor provides it at run time. `--readme` also
// writes dist/README.md, the installed extension's page (see installedReadme).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const withTests = process.argv.includes('--tests');
// `--readme-only`: the page alone, from README.md and package.json of the working directory.
const readmeOnly = process.argv.includes('--readme-only');
const withReadme = readmeOnly || process.argv.includes('--readme');
// `--out-root DIR` writes DIR/dist/, for the packaging test's own copy.
const outRootAt = process.argv.indexOf('--out-root');
const outRoot = outRootAt >= 0 ? process.argv[outRootAt + 1] : '.';
// `--bench-child` alone: the benchmark's child (test/bench/child.ts) as the extension ships,
// minified, into out/bench/child.js, so the benchmark measures the code users run.
const benchChild = process.argv.includes('--bench-child');

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
  // Dependencies sniff the browser (`typeof navigator !== 'undefined'`: zod's eval probe,
  // debug's colour check); in VS Code's extension host `navigator` is a trap that logs a
  // PendingMigrationError at activation. They run in Node, where it is undefined.
  define: { navigator: 'undefined' },
};

/**
 * undici in a file of its own beside the extension (dist/undici.js), loaded by the first
 * request (src/core/network/undici.ts): a third of the bundle, which activation would
 * otherwise compile. The bridge and the benchmark's child keep it inside their bundle.
 */
const undiciApart = {
  name: 'undici-apart',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/** zod too (dist/zod.js): src/loader.ts loads it in a turn of its own before the rest. */
const zodApart = {
  name: 'zod-apart',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: './zod.js', external: true }));
  },
};

/**
 * jsonc-parser's ES modules: its `main` is a UMD build whose modules require each other at
 * run time by relative path, which a bundle does not keep.
 */
const jsoncAsModules = {
  name: 'jsonc-as-modules',
  setup(build) {
    build.onResolve({ filter: /^jsonc-parser$/ }, (args) => build.resolve('jsonc-parser/lib/esm/main.js', { kind: args.kind, resolveDir: args.resolveDir }));
  },
};

/**
 * One copy of VS Code's API object for the whole bundle. esbuild gives each module that
 * writes `import * as vscode from 'vscode'` its own copy of the object's few hundred
 * properties, made while the bundle loads (dozens of modules: milliseconds of activation
 * for nothing); through one re-exporting module they share one.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

if (!readmeOnly && !benchChild) {
  // The extension, loaded with V8's code cache by its entry (src/loader.ts, built last).
  await esbuild.build({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: join(outRoot, 'dist', 'main.js'),
    plugins: [undiciApart, zodApart, vscodeOnce, jsoncAsModules],
  });
  await esbuild.build({ ...common, entryPoints: ['zod'], outfile: join(outRoot, 'dist', 'zod.js') });
  // Only the parts of undici the extension uses (src/core/network/undici.ts): its index also
  // sets up fetch, WebSocket, caches and mocks, which held the host's thread at the first
  // request longer than all the rest.
  // The dispatchers get their request methods as undici's index gives them.
  await esbuild.build({
    ...common,
    stdin: {
      contents: [
        "const Dispatcher = require('undici/lib/dispatcher/dispatcher');",
        "Object.assign(Dispatcher.prototype, require('undici/lib/api'));",
        "const { Headers } = require('undici/lib/web/fetch/headers');",
        "const { getSetCookies } = require('undici/lib/web/cookies');",
        "module.exports = { Agent: require('undici/lib/dispatcher/agent'), Pool: require('undici/lib/dispatcher/pool'), ProxyAgent: require('undici/lib/dispatcher/proxy-agent'), Headers, getSetCookies };",
      ].join('\n'),
      resolveDir: process.cwd(),
      sourcefile: 'undici-parts.js',
      loader: 'js',
    },
    outfile: join(outRoot, 'dist', 'undici.js'),
  });
  // The entry VS Code loads, with each bundle's content hash: it names the bundle's code cache,
  // so a cache is only ever handed to the code it was made from (core/load/codeCache.ts).
  const hashes = Object.fromEntries(['main.js', 'zod.js', 'undici.js'].map((name) => [name, createHash('sha256').update(readFileSync(join(outRoot, 'dist', name))).digest('hex')]));
  await esbuild.build({
    ...common,
    entryPoints: ['src/loader.ts'],
    outfile: join(outRoot, 'dist', 'extension.js'),
    define: { ...common.define, CODE_SCANNER_BUNDLE_HASHES: JSON.stringify(hashes) },
  });
  // The MCP bridge an AI agent starts (src/mcp/bridge.ts): a program of its own, no `vscode`.
  await esbuild.build({
    ...common,
    external: [],
    entryPoints: ['src/mcp/bridge.ts'],
    outfile: join(outRoot, 'dist', 'mcp-server.js'),
  });
}

if (benchChild) {
  await esbuild.build({
    ...common,
    minify: true,
    sourcemap: false,
    entryPoints: ['test/bench/child.ts'],
    outfile: join(outRoot, 'out', 'bench', 'child.js'),
  });
}

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
    plugins: [jsoncAsModules],
  });
}

if (withReadme) {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  mkdirSync(join(outRoot, 'dist'), { recursive: true });
  writeFileSync(join(outRoot, 'dist', 'README.md'), installedReadme(readFileSync('README.md', 'utf8'), publicBase(pkg.repository)));
}

/**
 * The repository's public web address, when it has one: `https://` on a real host (not a
 * reserved name such as `example.invalid`).
 */
function publicBase(repository) {
  const raw = typeof repository === 'string' ? repository : repository?.url;
  let url;
  try {
    url = new URL(String(raw ?? '').replace(/^git\+/, ''));
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || /(^|\.)(invalid|example|test|localhost)$/i.test(url.hostname)) return undefined;
  return url.href.replace(/\.git$/, '').replace(/\/$/, '');
}

/**
 * VS Code shows an extension's page with images only from https addresses (its sanitizer
 * keeps http and https sources, its page allows https and data), and drops relative links:
 * a relative image is an empty frame there. So the installed page gets the README with
 * each relative image and link made absolute on the repository's public address, or, with
 * none, images left out (the text says what they show) and links made plain text.
 */
function installedReadme(markdown, base) {
  const relative = (href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('#');
  // The page of an installed extension is for its users: the section on running the demo and
  // the tests from a clone stays in the repository's README.
  return markdown
    .replace(/^## Trying it out and running the tests\n[\s\S]*?(?=^## |(?![\s\S]))/m, '')
    .replace(/^!\[([^\]]*)\]\(([^)\s]+)\)\n\n?/gm, (all, alt, href) => {
      if (!relative(href)) return all;
      return base ? `![${alt}](${base}/raw/HEAD/${href})\n\n` : '';
    })
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (all, text, href) => {
      if (!relative(href)) return all;
      return base ? `[${text}](${base}/blob/HEAD/${href})` : `${text} (in the extension's folder or its repository)`;
    });
}

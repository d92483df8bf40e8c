// Builds the .vsix exactly as `npm run package` does (its vsce arguments are read from
// package.json), in a copy of the repository, and checks what users would get: it packages
// at all (vsce refuses some README links), it holds only the allow-listed files, and its
// README (the installed extension's page) has no relative image or link: VS Code shows
// images there only from https addresses and drops relative links (measured in the
// offline VS Code: a relative screenshot is an empty frame).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Lexer, type Token } from 'marked';
import * as yauzl from 'yauzl';
import type { UndiciParts } from '../../../src/core/network/undici';

const root = path.resolve(__dirname, '..', '..', '..');
const LEFT_OUT = new Set(['node_modules', '.tools', '.git', 'dist', 'out', '.bench', '.demo', '.service-data']);

function entriesOf(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => { names.push(e.fileName); zip.readEntry(); });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

function readEntry(file: string, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      zip.on('entry', (e: yauzl.Entry) => {
        if (e.fileName !== name) return zip.readEntry();
        zip.openReadStream(e, (error, stream) => {
          if (error || !stream) return reject(error ?? new Error('no stream'));
          const parts: Buffer[] = [];
          stream.on('data', (d: Buffer) => parts.push(d));
          stream.on('end', () => { zip.close(); resolve(Buffer.concat(parts).toString('utf8')); });
        });
      });
      zip.on('end', () => reject(new Error(`${name} is not in ${file}`)));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The vsce arguments of the `package` script, with the output put in `out`. */
function vsceArgs(out: string): string[] {
  const script = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.package;
  const vsce = script.split('&&').map((s) => s.trim()).find((s) => s.startsWith('vsce '));
  assert.ok(vsce, `the package script runs vsce: ${script}`);
  const args = vsce.split(/\s+/).slice(1);
  const at = args.indexOf('--out');
  assert.ok(at >= 0, 'the package script names its output');
  args[at + 1] = out;
  return args;
}

function relativeTargets(markdown: string): string[] {
  const found: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if ((t.type === 'link' || t.type === 'image') && 'href' in t) found.push(String(t.href));
      const nested = (t as { tokens?: Token[] }).tokens;
      if (nested) walk(nested);
      const items = (t as { items?: { tokens: Token[] }[] }).items;
      if (items) for (const i of items) walk(i.tokens);
      const rows = (t as { rows?: { tokens: Token[] }[][] }).rows;
      if (rows) for (const r of rows) for (const c of r) walk(c.tokens);
      const header = (t as { header?: { tokens: Token[] }[] }).header;
      if (header) for (const c of header) walk(c.tokens);
    }
  };
  walk(new Lexer().lex(markdown));
  return found.filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('#')).map((href) => decodeURI(href.split('#')[0]));
}

let work: string;
let entries: string[];

before(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'code-scanner-vsix-'));
  cpSync(root, work, { recursive: true, filter: (src) => !LEFT_OUT.has(path.relative(root, src).split(path.sep)[0]) });
  execFileSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--production', '--readme', '--out-root', work], { cwd: root, stdio: 'pipe' });
  const vsix = path.join(work, 'test.vsix');
  execFileSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), ...vsceArgs(vsix)], { cwd: work, stdio: 'pipe' });
  entries = (await entriesOf(vsix)).filter((e) => e.startsWith('extension/')).map((e) => e.slice('extension/'.length));
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the package holds the bundle, the manifest, the docs and media, nothing else', () => {
  const allowed = [/^dist\/extension\.js$/, /^dist\/main\.js$/, /^dist\/mcp-server\.js$/, /^dist\/undici\.js$/, /^dist\/zod\.js$/, /^package\.json$/, /^package\.nls(\.[a-z-]+)?\.json$/, /^l10n\/bundle\.l10n\.[a-z-]+\.json$/, /^readme\.md$/, /^changelog\.md$/, /^LICENSE(\.txt)?$/, /^SECURITY\.md$/, /^CONTRIBUTING\.md$/, /^media\//];
  const stray = entries.filter((e) => !allowed.some((re) => re.test(e)));
  assert.deepEqual(stray, [], 'nothing outside the allow-list');
  for (const needed of ['dist/extension.js', 'dist/main.js', 'dist/mcp-server.js', 'dist/undici.js', 'dist/zod.js', 'package.json', 'package.nls.json', 'package.nls.ja.json', 'package.nls.de.json', 'package.nls.zh-cn.json', 'l10n/bundle.l10n.ja.json', 'l10n/bundle.l10n.de.json', 'l10n/bundle.l10n.zh-cn.json', 'readme.md', 'SECURITY.md', 'media/icon.png']) assert.ok(entries.includes(needed), needed);
  assert.ok(entries.some((e) => /^LICENSE(\.txt)?$/.test(e)), 'the licence (Open VSX shows it)');
  assert.ok(!entries.some((e) => e.endsWith('.map')), 'no source maps');
});

test('the installed page: no relative image or link; every screenshot of the repository README is left out, the text kept', async () => {
  const page = await readEntry(path.join(work, 'test.vsix'), 'extension/readme.md');
  assert.deepEqual(relativeTargets(page), [], 'nothing relative, which VS Code would show as an empty frame or a dead link');
  assert.ok(!/!\[/.test(page), 'no image without a public https address (the repository has none)');
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  assert.ok(relativeTargets(readme).some((t) => t.startsWith('media/screenshots/')), 'the repository README shows screenshots');
  // Every section for users; the one on running the demo and the tests from a clone is the repository's.
  const forDevelopers = '## Trying it out and running the tests';
  for (const heading of readme.match(/^#+ .+$/gm) ?? []) assert.equal(page.includes(heading), heading !== forDevelopers, `${heading} ${heading === forDevelopers ? 'is not' : 'is'} on the page`);
  assert.ok(!/npm run demo|npm test/.test(page), 'no developer commands on the installed page');
  assert.ok(!entries.some((e) => e.startsWith('media/screenshots/')), 'screenshots the page cannot show stay out of the package');
});

test('with a public https repository, the page\'s images and links point there', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'code-scanner-readme-'));
  try {
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ repository: { type: 'git', url: 'https://github.com/acme/code-scanner.git' } }));
    writeFileSync(path.join(dir, 'README.md'), 'Intro, see [SECURITY.md](SECURITY.md) and [the site](https://acme.example.com).\n\n![The tree](media/screenshots/dark-tree.png)\n\nAfter.\n');
    execFileSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--readme-only'], { cwd: dir, stdio: 'pipe' });
    const page = readFileSync(path.join(dir, 'dist', 'README.md'), 'utf8');
    assert.match(page, /!\[The tree\]\(https:\/\/github\.com\/acme\/code-scanner\/raw\/HEAD\/media\/screenshots\/dark-tree\.png\)/);
    assert.match(page, /\[SECURITY\.md\]\(https:\/\/github\.com\/acme\/code-scanner\/blob\/HEAD\/SECURITY\.md\)/);
    assert.match(page, /\[the site\]\(https:\/\/acme\.example\.com\)/, 'absolute links stay as they are');
    assert.deepEqual(relativeTargets(page), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the bundles touch no browser global: VS Code\'s extension host traps `navigator` and logs an error at activation', () => {
  for (const file of ['extension.js', 'main.js', 'undici.js', 'zod.js']) {
    const bundle = readFileSync(path.join(work, 'dist', file), 'utf8');
    assert.ok(!/\bnavigator\b/.test(bundle), `no reference to navigator is left in ${file}`);
  }
});

test('the shipped parts of undici make a request through a dispatcher and read cookies, as the extension uses them', async () => {
  const server = createServer((req, res) => {
    res.setHeader('set-cookie', ['lb=one; Path=/; HttpOnly', 'second=two; Max-Age=60']);
    res.end(`${req.method} ${req.url}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const req = createRequire(__filename);
  const parts = req(path.join(work, 'dist', 'undici.js')) as UndiciParts;
  const agent = new parts.Agent();
  try {
    const { port } = server.address() as AddressInfo;
    const res = await agent.request({ origin: `http://127.0.0.1:${port}`, path: '/api/x?y=1', method: 'GET' });
    assert.equal(res.statusCode, 200);
    assert.equal(await res.body.text(), 'GET /api/x?y=1');
    const headers = new parts.Headers();
    for (const v of res.headers['set-cookie'] as string[]) headers.append('set-cookie', v);
    assert.deepEqual(parts.getSetCookies(headers).map((c) => [c.name, c.value]), [['lb', 'one'], ['second', 'two']]);
    assert.equal(typeof parts.ProxyAgent, 'function');
    assert.equal(typeof parts.Pool, 'function');
  } finally {
    await agent.close();
    server.close();
  }
});

// A benchmark workspace with the shape of a real repository: every path and size from a
// `<size>\t<path>` listing (../shared/data/*-shape.tsv, taken from `git ls-tree -r -l`),
// with content that compresses like source code (JSON-, JS- or prose-like text generated
// from a fixed seed per path; images and fonts as random bytes), every file tracked in git,
// and .gitignore files of the listed sizes that ignore build output and dependencies while
// keeping the fixtures' node_modules, as real repositories do. Generated once and cached.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { rng } from './generateWorkspace';

export interface ShapeFile { path: string; size: number }

export function readShape(file: string): ShapeFile[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => {
    const tab = l.indexOf('\t');
    return { size: Number(l.slice(0, tab)), path: l.slice(tab + 1) };
  }).filter((f) => Number.isFinite(f.size) && f.path);
}

const BINARY = /\.(png|jpe?g|gif|ico|webp|woff2?|ttf|eot|wasm|zip|gz|tgz|br|pdf|mp4|mp3)$/i;
const WORDS = ['node', 'path', 'scope', 'binding', 'program', 'plugin', 'options', 'state', 'visitor', 'parent', 'type',
  'value', 'name', 'expression', 'statement', 'identifier', 'literal', 'member', 'call', 'function', 'class', 'module',
  'export', 'import', 'default', 'return', 'const', 'loc', 'start', 'end', 'line', 'column', 'source', 'file', 'code'];

function seeded(text: string): () => number {
  return rng(createHash('sha1').update(text).digest().readUInt32LE(0));
}

function textLike(rel: string, size: number): string {
  const rand = seeded(rel);
  const w = () => WORDS[Math.floor(rand() * WORDS.length)];
  const out: string[] = [];
  let n = 0;
  const json = /\.json$/i.test(rel);
  const prose = /\.(md|txt)$/i.test(rel);
  if (json) out.push('{\n');
  while (n < size) {
    const line = json
      ? `  "${w()}${Math.floor(rand() * 50)}": { "${w()}": ${Math.floor(rand() * 1000)}, "${w()}": "${w()} ${w()}", "${w()}": [${Math.floor(rand() * 30)}, ${Math.floor(rand() * 30)}] },\n`
      : prose
        ? `The ${w()} of the ${w()} is ${w()} when ${w()} ${w()} the ${w()}; see \`${w()}.${w()}()\`.\n`
        : `  const ${w()}${Math.floor(rand() * 20)} = ${w()}.${w()}(${w()}, { ${w()}: ${Math.floor(rand() * 100)}, ${w()}: "${w()}" });\n`;
    out.push(line);
    n += line.length;
  }
  return out.join('').slice(0, size);
}

function padded(lines: string[], size: number): string {
  let text = lines.join('\n') + '\n';
  for (let i = 0; text.length < size; i++) text += `# generated padding line ${i}\n`;
  return text.slice(0, size);
}

function gitignoreText(rel: string, size: number): string {
  const dir = path.posix.dirname(rel);
  const lines = dir === '.'
    ? ['# dependencies and build output', 'node_modules', '!/packages/*/test/fixtures/**/node_modules', '!/test/fixtures/**/node_modules', '/coverage', '/build', '*.log', '.DS_Store', '/.cache', 'lib/', '!/packages/*/test/fixtures/**/lib/']
    : ['/lib', '*.tmp'];
  return padded(lines, size);
}

function contentFor(f: ShapeFile): Buffer {
  if (f.size === 0) return Buffer.alloc(0);
  if (/(^|\/)\.gitignore$/.test(f.path)) return Buffer.from(gitignoreText(f.path, f.size));
  if (/(^|\/)\.gitattributes$/.test(f.path)) return Buffer.from(padded(['* text=auto eol=lf', '*.png binary'], f.size));
  if (BINARY.test(f.path)) {
    const rand = seeded(f.path);
    const b = Buffer.allocUnsafe(f.size);
    for (let i = 0; i < f.size; i++) b[i] = Math.floor(rand() * 256);
    return b;
  }
  return Buffer.from(textLike(f.path, f.size));
}

export async function ensureShapeWorkspace(shapeFile: string, dir: string, log = console.log): Promise<ShapeFile[]> {
  const shape = readShape(shapeFile);
  const marker = path.join(dir, '.git', 'bench-shape.json');
  const want = JSON.stringify({ shape: createHash('sha1').update(readFileSync(shapeFile)).digest('hex'), v: 2 });
  if (existsSync(marker) && (await fsp.readFile(marker, 'utf8')) === want) return shape;
  log(`generating ${dir} from ${path.basename(shapeFile)} (${shape.length} files; once, then cached) ...`);
  const t0 = Date.now();
  await fsp.rm(dir, { recursive: true, force: true });
  await fsp.mkdir(dir, { recursive: true });
  const dirs = new Set(shape.map((f) => path.dirname(path.join(dir, f.path))));
  for (const d of dirs) await fsp.mkdir(d, { recursive: true });
  const writes: Promise<void>[] = [];
  for (const f of shape) {
    writes.push(fsp.writeFile(path.join(dir, f.path), contentFor(f)));
    if (writes.length >= 64) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 256 * 1024 * 1024 });
  git('init', '-q');
  // Every listed file is tracked in the real repository, ignored or not (-f).
  git('-c', 'core.autocrlf=false', 'add', '-A', '-f');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'bench workspace');
  await fsp.writeFile(marker, want);
  log(`generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return shape;
}

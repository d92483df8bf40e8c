import { execFileSync } from 'node:child_process';
import { promises as fsp, existsSync } from 'node:fs';
import * as path from 'node:path';

/**
 * A synthetic git workspace of about 20,000 files / 300 MB: TypeScript-like sources
 * (compress roughly like real code) plus random binary blobs (incompressible). Generated
 * once and cached; the marker file records the parameters so a change regenerates it.
 */
export interface BenchWorkspaceSpec {
  /** 2: blobs without NUL bytes (a NUL makes a file binary by content, and it is left out). */
  generation: number;
  textFiles: number;
  binaryFiles: number;
  textBytes: number;
  binaryBytes: number;
}

export const DEFAULT_SPEC: BenchWorkspaceSpec = {
  generation: 2,
  textFiles: 19_700,
  binaryFiles: 300,
  textBytes: 200 * 1024 * 1024,
  binaryBytes: 100 * 1024 * 1024,
};

const WORDS = [
  'user', 'account', 'token', 'session', 'request', 'response', 'handler', 'service', 'repository',
  'config', 'value', 'result', 'error', 'item', 'list', 'index', 'count', 'buffer', 'stream', 'cache',
  'policy', 'scan', 'issue', 'project', 'branch', 'commit', 'file', 'path', 'range', 'offset', 'chunk',
  'upload', 'transfer', 'status', 'message', 'payload', 'header', 'query', 'filter', 'page', 'limit',
];

/** Small deterministic PRNG (mulberry32) so every run generates the same tree. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sourceText(rand: () => number, targetBytes: number, fileNo: number): string {
  const w = () => WORDS[Math.floor(rand() * WORDS.length)];
  const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
  const parts: string[] = [`// generated module ${fileNo}\nimport { ${cap(w())}${cap(w())} } from '../shared/${w()}';\n\n`];
  let size = parts[0].length;
  let n = 0;
  while (size < targetBytes) {
    const name = `${w()}${cap(w())}${n++}`;
    const block =
      `export function ${name}(${w()}: string, ${w()}Count: number): ${cap(w())}${cap(w())} | undefined {\n` +
      `  const ${w()}${cap(w())} = ${Math.floor(rand() * 100000)};\n` +
      `  if (${w()}Count > ${Math.floor(rand() * 1000)}) {\n` +
      `    throw new Error('${w()} ${w()} ${w()} failed for ' + ${w()});\n  }\n` +
      `  for (let i = 0; i < ${Math.floor(rand() * 64)}; i++) {\n    ${w()}.${w()}(${w()}[i], '${w()}-${Math.floor(rand() * 1e6).toString(36)}');\n  }\n` +
      `  return { ${w()}: ${w()}Count, ${w()}: '${w()}' } as unknown as ${cap(w())}${cap(w())};\n}\n\n`;
    parts.push(block);
    size += block.length;
  }
  return parts.join('');
}

export async function ensureBenchWorkspace(dir: string, spec: BenchWorkspaceSpec = DEFAULT_SPEC, log = console.log): Promise<void> {
  const marker = path.join(dir, '.bench-workspace.json');
  const want = JSON.stringify(spec);
  if (existsSync(marker) && (await fsp.readFile(marker, 'utf8')) === want) return;
  log(`generating the benchmark workspace in ${dir} (once; cached) ...`);
  const t0 = Date.now();
  await fsp.rm(dir, { recursive: true, force: true });
  await fsp.mkdir(dir, { recursive: true });
  const rand = rng(42);
  const avgText = spec.textBytes / spec.textFiles;
  const writes: Promise<void>[] = [];
  const flush = async () => { await Promise.all(writes.splice(0)); };
  for (let i = 0; i < spec.textFiles; i++) {
    // sizes 0.2x..1.8x the average, so there are small and large files
    const target = Math.floor(avgText * (0.2 + rand() * 1.6));
    const rel = path.join('src', `pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`, `file${i}.ts`);
    const abs = path.join(dir, rel);
    writes.push(fsp.mkdir(path.dirname(abs), { recursive: true }).then(() => fsp.writeFile(abs, sourceText(rand, target, i))));
    if (writes.length >= 64) await flush();
  }
  const avgBin = spec.binaryBytes / spec.binaryFiles;
  const { randomBytes } = await import('node:crypto');
  for (let i = 0; i < spec.binaryFiles; i++) {
    const size = Math.floor(avgBin * (0.2 + rand() * 1.6));
    const abs = path.join(dir, 'data', `set${i % 10}`, `blob${i}.dat`);
    // Incompressible but not binary by content (no NUL): packaging stores them, as it would a
    // minified bundle or an encrypted blob, rather than leaving them out (binaryContent.ts).
    const blob = randomBytes(size);
    for (let b = 0; b < blob.length; b++) if (blob[b] === 0) blob[b] = 1;
    writes.push(fsp.mkdir(path.dirname(abs), { recursive: true }).then(() => fsp.writeFile(abs, blob)));
    if (writes.length >= 8) await flush();
  }
  await flush();
  await fsp.writeFile(path.join(dir, '.gitignore'), '.bench-workspace.json\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  git('init', '-q');
  git('-c', 'core.autocrlf=false', 'add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'bench workspace');
  await fsp.writeFile(marker, want);
  log(`generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

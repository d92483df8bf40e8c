// The editor layer is one folder per surface, and no two folders lean on each other: where
// folder A uses a value (a function, a class, a constant) of folder B, B uses none of A's.
// Types may go both ways (they leave nothing in the bundle and make no load order). Read
// from the source, so a cross-import fails here before it tangles the surfaces.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const EDITOR = path.resolve(__dirname, '..', '..', '..', 'src', 'editor');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : name.endsWith('.ts') ? [p] : [];
  });
}

/** The editor folder of a file, or undefined for a file at the top of src/editor (shared services). */
function folderOf(file: string): string | undefined {
  const parts = path.relative(EDITOR, file).split(path.sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** The relative modules a file takes values from: `import type` and imports of types alone are left out. */
function valueImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s+'(\.[^']+)'/gms)) {
    if (m[2]) continue;
    const names = /\{([^}]*)\}/.exec(m[3]!)?.[1];
    const onlyTypes = names !== undefined && !/^\s*\*|^[A-Za-z_$][\w$]*\s*,/.test(m[3]!) && names.split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '));
    if (!onlyTypes) out.push(m[4]!);
  }
  return out;
}

/** Pairs of editor folders that each take values from the other, with one import each way. */
function crossImports(files: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string>();
  for (const [file, text] of files) {
    const from = folderOf(file);
    if (!from) continue;
    for (const spec of valueImports(text)) {
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(EDITOR + path.sep)) continue;
      const to = folderOf(target.endsWith('.ts') ? target : `${target}.ts`);
      if (to && to !== from && !edges.has(`${from}>${to}`)) edges.set(`${from}>${to}`, `${path.relative(EDITOR, file)} imports ${spec}`);
    }
  }
  const found: string[] = [];
  for (const [key, why] of edges) {
    const [a, b] = key.split('>');
    if (a! < b! && edges.has(`${b}>${a}`)) found.push(`${a} <-> ${b}: ${why}; ${edges.get(`${b}>${a}`)}`);
  }
  return found;
}

test('no two editor folders take values from each other', () => {
  assert.deepEqual(crossImports(new Map(sources(EDITOR).map((f) => [f, readFileSync(f, 'utf8')]))), []);
});

test('the check sees a planted cross-import, and lets types both ways and one-way values pass', () => {
  const at = (rel: string) => path.join(EDITOR, rel);
  const planted = crossImports(new Map([
    [at('results/tree.ts'), "import { detailsOf } from '../review/details';\nimport type { Tree } from '../scan/run';"],
    [at('review/details.ts'), "import {\n  toolTip,\n} from '../results/tree';"],
    [at('scan/run.ts'), "import { type Row } from '../results/tree';\nimport { notify } from '../notifier';"],
  ]));
  assert.equal(planted.length, 1, planted.join('\n'));
  assert.match(planted[0]!, /^results <-> review: /);
});

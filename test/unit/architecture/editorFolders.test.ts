// The editor layer is one folder per surface, and no folders lean on each other in a ring:
// where folder A uses a value (a function, a class, a constant) of folder B, B uses none of
// A's, directly or through other folders (A -> B -> C -> A is a ring too).
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

/** Rings of editor folders that take values from each other, each with one import per step. */
function crossImports(files: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string>();
  const next = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    const from = folderOf(file);
    if (!from) continue;
    for (const spec of valueImports(text)) {
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(EDITOR + path.sep)) continue;
      const to = folderOf(target.endsWith('.ts') ? target : `${target}.ts`);
      if (!to || to === from || edges.has(`${from}>${to}`)) continue;
      edges.set(`${from}>${to}`, `${path.relative(EDITOR, file)} imports ${spec}`);
      next.set(from, (next.get(from) ?? new Set()).add(to));
    }
  }
  // Each ring once, from its smallest folder name: a path back to where it started.
  const found: string[] = [];
  const walk = (start: string, at: string, trail: string[]) => {
    for (const to of [...(next.get(at) ?? [])].sort()) {
      if (to === start) {
        const ring = [...trail, start];
        found.push(`${ring.join(' -> ')}: ${ring.slice(1).map((b, i) => edges.get(`${ring[i]}>${b}`)).join('; ')}`);
      } else if (to > start && !trail.includes(to)) walk(start, to, [...trail, to]);
    }
  };
  for (const start of [...next.keys()].sort()) walk(start, start, [start]);
  return found;
}

test('no editor folders take values from each other, in pairs or in rings', () => {
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
  assert.match(planted[0]!, /^results -> review -> results: /);
});

test('the check sees a ring of three folders, each importing the next', () => {
  const at = (rel: string) => path.join(EDITOR, rel);
  const ring = crossImports(new Map([
    [at('agent/tools.ts'), "import { check } from '../push/check';"],
    [at('push/check.ts'), "import { scan } from '../scan/run';"],
    [at('scan/run.ts'), "import { tools } from '../agent/tools';"],
  ]));
  assert.deepEqual(ring, ['agent -> push -> scan -> agent: agent/tools.ts imports ../push/check; push/check.ts imports ../scan/run; scan/run.ts imports ../agent/tools']);
});

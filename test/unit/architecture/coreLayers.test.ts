// The core is built in layers: a module imports only from its own folder or from a layer
// below. Read from the source, so an import that runs upward (or a new folder nobody
// placed) fails here before it tangles the core. The VS Code layer is kept out of the core
// by ESLint (no `vscode` import in src/core).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const CORE = path.resolve(__dirname, '..', '..', '..', 'src', 'core');

/** Lowest first. Each folder (or top-level file) of src/core is in exactly one layer. */
const LAYERS: readonly (readonly string[])[] = [
  ['text'],
  ['async', 'persist', 'errors', 'scratch', 'load'],
  ['network'],
  ['api'],
  ['workspace'],
  ['fixes', 'archive'],
  ['issues', 'upload'],
  ['scan'],
  ['results', 'export', 'agent', 'account'],
];

function rankOf(part: string): number {
  return LAYERS.findIndex((l) => l.includes(part));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : name.endsWith('.ts') ? [p] : [];
  });
}

/** The folder of src/core a path is in (a top-level file counts as its own part). */
function partOf(file: string): string {
  return path.relative(CORE, file).split(path.sep)[0]!.replace(/\.ts$/, '');
}

function importsOf(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gms)].map((m) => m[1]!);
}

/** Imports of `files` (absolute path -> text) that leave src/core, run upward or sideways. */
function wrongImports(files: ReadonlyMap<string, string>): string[] {
  const wrong: string[] = [];
  for (const [file, text] of files) {
    const from = partOf(file);
    for (const spec of importsOf(text)) {
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(CORE + path.sep)) {
        wrong.push(`${path.relative(CORE, file)} imports ${spec}, outside src/core`);
        continue;
      }
      const to = partOf(target.endsWith('.ts') ? target : `${target}.ts`);
      if (to !== from && rankOf(to) >= rankOf(from)) wrong.push(`${path.relative(CORE, file)} (${from}) imports ${spec} (${to})`);
    }
  }
  return wrong;
}

test('every part of src/core has its layer', () => {
  const parts = [...new Set(sources(CORE).map(partOf))].filter((p) => p !== 'index');
  assert.deepEqual(parts.filter((p) => rankOf(p) < 0), [], 'place new folders in LAYERS');
});

test('no import inside src/core runs upward, or sideways into another part of the same layer', () => {
  assert.deepEqual(wrongImports(new Map(sources(CORE).map((f) => [f, readFileSync(f, 'utf8')]))), []);
});

test('the check sees an upward, a sideways and an outside import, and lets a downward one pass', () => {
  const at = (rel: string) => path.join(CORE, rel);
  const found = wrongImports(new Map([
    [at('workspace/readInside.ts'), "import { isInsideFolder } from '../fixes/applyFix';\nimport { redactSecrets } from '../text/redact';"],
    [at('api/baseUrl.ts'), "import {\n  something,\n} from '../workspace/git';"],
    [at('network/proxy.ts'), "import type { X } from '../../editor/settings';"],
  ]));
  assert.equal(found.length, 3, found.join('\n'));
  assert.match(found[0]!, /\(workspace\) imports \.\.\/fixes\/applyFix \(fixes\)/);
  assert.match(found[1]!, /\(api\) imports \.\.\/workspace\/git \(workspace\)/);
  assert.match(found[2]!, /outside src\/core/);
});

// One table of what is kept between sessions (core/persist/stateKeys.ts): every key is
// there, once, with its scope; no module writes a key of its own; nothing listed is unused.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { STATE_KEYS } from '../../../src/core/persist/stateKeys';

const SRC = path.resolve(__dirname, '../../../src');
const TABLE = path.join(SRC, 'core', 'persist', 'stateKeys.ts');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : n.endsWith('.ts') && p !== TABLE ? [p] : [];
  });
}

/** Where a key of its own is written: a constant named like a key, or a literal given to a store. */
function ownKeys(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (/\b\w*KEY\w*\s*=\s*['`]codeScanner\./.test(line) || /(State|secrets|state)\.(get|update|store|delete)(<[^>]*>)?\(\s*['`]codeScanner\./.test(line)) found.push(`${path.relative(SRC, file)}:${i + 1}`);
  }
  return found;
}

test('every key once, each with its scope and a comment saying what it holds', () => {
  const keys = Object.values(STATE_KEYS).map((k) => k.key);
  assert.equal(new Set(keys).size, keys.length, 'no key twice');
  for (const [name, k] of Object.entries(STATE_KEYS)) {
    assert.match(k.key, /^codeScanner\./, name);
    assert.ok(['workspace', 'global', 'secret'].includes(k.scope), name);
  }
  const table = readFileSync(TABLE, 'utf8');
  for (const name of Object.keys(STATE_KEYS)) assert.match(table, new RegExp(`/\\*\\* [^\\n]{10,} \\*/\\n  ${name}: `), `${name} says what it holds`);
});

test('no module keeps a key of its own, and every key in the table is used', () => {
  const files = sources(SRC).map((f) => [f, readFileSync(f, 'utf8')] as const);
  assert.deepEqual(files.flatMap(([f, t]) => ownKeys(f, t)), [], 'take the key from STATE_KEYS (core/persist/stateKeys.ts)');
  const unused = Object.keys(STATE_KEYS).filter((name) => !files.some(([, t]) => t.includes(`STATE_KEYS.${name}.`)));
  assert.deepEqual(unused, [], 'listed but used nowhere: take it off the table');
});

test('the check sees a key written outside the table', () => {
  assert.deepEqual(ownKeys(path.join(SRC, 'editor', 'x.ts'), "const FOO_KEY = 'codeScanner.foo';\nthis.context.workspaceState.get<string>('codeScanner.bar');\nconst ok = STATE_KEYS.results.key;"), ['editor/x.ts:1', 'editor/x.ts:2']);
});

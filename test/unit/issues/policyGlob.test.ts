// The service's glob patterns (policies and their excludes) are matched without regular
// expressions, in time bounded by the pattern's and the path's size: the same answers as
// minimatch on the patterns policies use, and no pattern a hostile service sends can hold
// the extension host (a guard with a generous timeout, so a catastrophic case fails instead
// of hanging; speed itself is the benchmark's business).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minimatch } from 'minimatch';
import { compileGlob } from '../../../src/core/issues/policyGlob';
import { PolicyMatcher } from '../../../src/core/issues';
import { PolicySchema } from '../../../src/core/api';

const PATTERNS = [
  '**/*', '**/*.py', 'api/**', 'src/**/*.ts', 'web/**/*.{js,jsx,ts,tsx}', '*.js', 'src/*.js', '**/test/**', '**/*.min.js',
  'src/**', 'src/?.js', 'src/[ab]*.js', 'src/[!a]*.js', 'src/[a-c]/*.ts', '**/.env', 'docs/**/README.md', 'a/**/b/**/c.js',
  '**/*test*/**', 'lib\\*.js', '**', 'src/**/*', './src/**/*.ts',
];
const PATHS = [
  'a.js', 'src/a.js', 'src/b.js', 'src/cc.js', 'src/a/b.ts', 'src/b/x.ts', 'src/d/x.ts', 'web/app/main.ts', 'web/main.jsx', 'web/x/y/z.tsx',
  'api/v1/routes.py', 'api', 'x/y/test/z.js', 'test/a.js', 'lib/a.min.js', '.env', 'conf/.env', 'docs/a/README.md', 'docs/README.md',
  'a/b/c.js', 'a/x/b/y/c.js', 'a/b/x/c.js', 'my-tests/a.js', 'lib*.js', 'src/.hidden/x.ts', 'src/x.py',
];

test('the same answers as minimatch on the patterns policies use', () => {
  for (const pattern of PATTERNS) {
    const g = compileGlob(pattern);
    assert.ok(g, `${pattern} is readable`);
    for (const path of PATHS) {
      const want = minimatch(path, pattern.replace(/^\.\//, ''), { dot: true, nocomment: true, nonegate: true });
      assert.equal(g.matches(path), want, `${pattern} on ${path}`);
    }
  }
});

test('extglobs are literal text and braces expand one level, boundedly; a pattern too big cannot be read', () => {
  assert.equal(compileGlob('+(a|aa)b')!.matches('aab'), false);
  assert.equal(compileGlob('+(a|aa)b')!.matches('+(a|aa)b'), true, 'read as the text it is');
  assert.equal(compileGlob('!(x).js')!.matches('y.js'), false);
  assert.equal(compileGlob('{a,b}{c,d}.js')!.matches('bd.js'), true);
  assert.equal(compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}'), undefined, '64 alternatives: unreadable');
  assert.equal(compileGlob('x'.repeat(301)), undefined);
  assert.equal(compileGlob('*'.repeat(1) + 'a*'.repeat(41)), undefined, 'too many wildcards');
  assert.equal(compileGlob(''), undefined);
  assert.equal(compileGlob('src/[ab.js')!.matches('src/[ab.js'), true, 'an open class is text');
});

test('no hostile pattern holds the thread: each answers at once on long and deep paths', { timeout: 5000 }, () => {
  const long = 'a'.repeat(29);
  const hostile = [
    `+(a|aa)+(a|aa)+(a|aa)+(a|aa)+(a|aa)+(a|aa)+(a|aa)+(a|aa)+(a|aa)+(a|aa)b`,
    `${'*a'.repeat(19)}*b`,
    `${'**/'.repeat(19)}x`,
    `${'*/'.repeat(19)}**/b`,
    `${'?'.repeat(39)}`,
    `{${'*a,'.repeat(15)}*a}*b*b*b*b*b*b*b*b*b*b`,
  ];
  const paths = [long, `${long}/`.repeat(60) + 'c', 'a/'.repeat(500) + 'y', 'a'.repeat(4000)];
  for (const p of hostile) {
    const g = compileGlob(p);
    if (!g) continue;
    for (let round = 0; round < 200; round++) for (const path of paths) g.matches(path);
  }
});

test('a policy whose pattern is hostile matches nothing and costs nothing', { timeout: 5000 }, () => {
  const policy = PolicySchema.parse({ id: 1, name: 'P', cwes: ['CWE-95'], projects: [], active: true, excludes: [], glob_pattern: `+(a|aa)${'+(a|aa)'.repeat(30)}b` });
  const m = new PolicyMatcher([policy]);
  const issue = { id: 'i', path: 'a'.repeat(29), line: 1, classificationId: 'CWE-95', classificationName: 'Eval', classificationDescription: '', urgency: 'high', status: 'open', falsePositive: false };
  for (let i = 0; i < 10_000; i++) assert.deepEqual(m.violations(issue, undefined), []);
});

// The fast matcher gives exactly the answers of `ignore` for the fixed rule lists it serves,
// on every path built from names those rules care about (and some they do not), up to
// three levels deep, in any letter case the rules ignore.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import ignore from 'ignore';
import { CREDENTIAL_FILE_PATTERNS } from '../../../src/core/workspace/credentials';
import { DEFAULT_EXCLUDED_DIRS, DEFAULT_EXCLUDED_FILES } from '../../../src/core/workspace/defaultExcludes';
import { fastMatcher } from '../../../src/core/workspace/fastMatcher';

const NAMES = [
  'src', 'index.js', 'node_modules', 'NODE_MODULES', 'dist', 'Build', 'x.egg-info', 'app.js.map', 'a.min.js', '.DS_Store',
  '.env', '.env.local', '.env.example', 'prod.env', 'id_rsa', 'server.pem', 'cert.PEM', '.ssh', '.aws', 'credentials', 'config',
  '.docker', 'config.json', '.kube', 'kubeconfig', '.config', 'gcloud', 'secrets.yml', 'client_secret_1.json', 'x.tfstate.backup',
  // Near misses of the cheap checks: suffixes, prefixes and pieces that must not be enough.
  'X.MIN.JS', 'min.js', 'a.tfvars.json', 'tfvars.json', '.secrets.x', '.secretsx', 'service-account-1.json', 'service-account.yaml',
  '.env.production', 'env', 'my.env.d', 'a.keystore', 'keystore', 'x.egg-info.txt', 'client_secret.JSON',
  // Decided by their text alone only in ASCII and with no negation near: negations in other
  // letter cases, and letters whose lower case JavaScript and `ignore` disagree on.
  '.ENV.Example', '.Env.Sample', 'PROD.ENV', '\u212Aubeconfig', '\u0130D_RSA', 'id_rsa\u0131', 'Node_Modul\u00e9s', '\u017Fecrets.yml',
];

function* paths(depth: number, prefix = ''): Generator<string> {
  for (const n of NAMES) {
    const p = prefix ? `${prefix}/${n}` : n;
    yield p;
    yield `${p}/`;
    if (depth > 1) yield* paths(depth - 1, p);
  }
}

for (const [label, rules] of [
  ['default excludes', [...DEFAULT_EXCLUDED_DIRS, ...DEFAULT_EXCLUDED_FILES]],
  ['credential files', [...CREDENTIAL_FILE_PATTERNS]],
] as const) {
  test(`${label}: the same answer as ignore for every path`, () => {
    const fast = fastMatcher(rules, { ignorecase: true });
    const slow = ignore({ ignorecase: true }).add([...rules]);
    let n = 0;
    for (const p of paths(3)) {
      assert.equal(fast(p), slow.ignores(p), p);
      n++;
    }
    assert.ok(n > 50_000);
  });

  test(`${label}: folder by folder (as a selection walks sorted paths) gives the same answers`, () => {
    const fast = fastMatcher(rules, { ignorecase: true });
    const slow = ignore({ ignorecase: true }).add([...rules]);
    for (const p of paths(3)) {
      if (p.endsWith('/')) continue;
      const names = p.split('/');
      let folder = fast.top;
      for (let i = 0; i < names.length - 1; i++) folder = fast.folder(folder, names[i], names.slice(0, i + 1).join('/'));
      assert.equal(fast.file(folder, names[names.length - 1], p), slow.ignores(p), p);
    }
  });
}

test('a negated rule with a path falls back to judging whole paths', () => {
  const rules = ['*.log', '!keep/**/*.log'];
  const fast = fastMatcher(rules, { ignorecase: false });
  assert.equal(fast('a/b.log'), true);
  assert.equal(fast('keep/x/b.log'), false);
});

test('a negated name rule takes back what an exact or suffix rule matched, as in ignore', () => {
  const rules = ['*.log', '!keep.log', 'build/', '!build/', 'notes', '*.tmp', '!*.tmp'];
  const fast = fastMatcher(rules, { ignorecase: true });
  const slow = ignore({ ignorecase: true }).add(rules);
  for (const p of ['a.log', 'keep.log', 'KEEP.LOG', 'x/keep.log', 'build/', 'build/a.js', 'notes', 'notes/', 'a.tmp', 'a.TMP/']) {
    assert.equal(fast(p), slow.ignores(p), p);
  }
  assert.equal(fast('keep.log'), false);
  assert.equal(fast('a.log'), true);
});

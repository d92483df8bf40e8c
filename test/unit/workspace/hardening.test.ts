// What the repository can do to selection and packaging: folders that became links out of
// the workspace, files swapped for links or FIFOs after selection, credential files,
// pathological ignore patterns, and names the zip format would rewrite.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { buildZip } from '../../../src/core/archive/zip';
import { boundPattern, MAX_GLOBSTARS } from '../../../src/core/workspace/patterns';
import { selectGivenFiles, selectWorkspaceFiles, type Selection } from '../../../src/core/workspace/selectFiles';
import { git, readZip, tempDir, writeTree } from './helpers';

const reasonOf = (sel: Selection, p: string) => sel.skipped.find((s) => s.path === p)?.reason;
const paths = (sel: Selection) => sel.files.map((f) => f.path);

describe('selection and packaging against a hostile workspace', () => {
  test('a tracked path under a folder that is now a link out of the workspace is not packaged', async () => {
    const parent = await tempDir('harden-');
    const root = path.join(parent, 'repo');
    try {
      await writeTree(root, { 'lnk/id_rsa': 'tracked placeholder\n', 'src/a.js': 'a\n' });
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'init');
      await writeTree(parent, { 'outside/id_rsa': 'PRIVATE KEY\n', 'outside/notes.txt': 'private\n' });
      await fsp.rm(path.join(root, 'lnk'), { recursive: true });
      await fsp.symlink('../outside', path.join(root, 'lnk'));
      git(root, 'update-index', '--assume-unchanged', 'lnk/id_rsa');
      // git still lists the path from the index.
      assert.match(git(root, 'ls-files'), /lnk\/id_rsa/);
      const sel = await selectWorkspaceFiles(root, { allowCredentialFiles: ['id_rsa'] });
      assert.deepEqual(paths(sel), ['src/a.js']);
      assert.equal(reasonOf(sel, 'lnk/id_rsa'), 'symlink-outside');
    } finally {
      await fsp.rm(parent, { recursive: true, force: true });
    }
  });

  test('files replaced by a link, a FIFO or another file after selection are skipped, never followed or waited on', async () => {
    const parent = await tempDir('harden-');
    const root = path.join(parent, 'repo');
    const tmpRoot = await tempDir('harden-tmp-');
    try {
      await writeTree(root, { 'a.js': 'a\n', 'b.js': 'b\n', 'c/d.js': 'd\n', 'big.js': 'x'.repeat(2 * 1024 * 1024), 'keep.js': 'keep\n' });
      await writeTree(parent, { 'outside/secret.js': 'SECRET\n', 'outside2/d.js': 'SECRET TOO\n' });
      const sel = await selectWorkspaceFiles(root);
      assert.deepEqual(paths(sel), ['a.js', 'b.js', 'big.js', 'c/d.js', 'keep.js']);
      // Swaps between choosing and packaging.
      await fsp.rm(path.join(root, 'a.js'));
      await fsp.symlink('../outside/secret.js', path.join(root, 'a.js'));
      await fsp.rm(path.join(root, 'b.js'));
      execFileSync('mkfifo', [path.join(root, 'b.js')]);
      await fsp.rename(path.join(root, 'c'), path.join(root, 'c-old'));
      await fsp.symlink('../outside2', path.join(root, 'c'));
      await fsp.rm(path.join(root, 'big.js'));
      execFileSync('mkfifo', [path.join(root, 'big.js')]);

      const zip = await buildZip(sel, { tmpRoot });
      try {
        const entries = await readZip(zip.path);
        assert.deepEqual(entries.map((e) => e.name), ['keep.js']);
        assert.ok(!entries.some((e) => e.data.toString().includes('SECRET')));
        const skipped = Object.fromEntries(zip.skipped.map((s) => [s.path, s.reason]));
        assert.deepEqual(skipped, { 'a.js': 'not-a-file', 'b.js': 'not-a-file', 'big.js': 'not-a-file', 'c/d.js': 'changed' });
      } finally {
        await zip.dispose();
      }
    } finally {
      await fsp.rm(parent, { recursive: true, force: true });
      await fsp.rm(tmpRoot, { recursive: true, force: true });
    }
  });

  test('credential files are left out with reason credentials unless the user names them', async () => {
    const root = await tempDir('harden-');
    try {
      const creds = ['.env', '.env.local', 'config/prod.env', '.npmrc', '.pypirc', '.netrc', '.git-credentials', 'keys/id_rsa', 'keys/id_ed25519',
        'certs/server.pem', 'certs/server.key', 'certs/client.p12', 'certs/client.pfx', 'infra/terraform.tfstate', 'infra/terraform.tfstate.backup',
        'home/.aws/credentials', '.docker/config.json', '.kube/config', 'gcp/credentials.json'];
      const fine = ['.env.example', 'src/env.ts', 'src/keys.ts', 'docs/id_rsa.md', 'infra/main.tf'];
      await writeTree(root, Object.fromEntries([...creds, ...fine].map((p) => [p, 'x\n'])));
      git(root, 'init', '-q');
      const sel = await selectWorkspaceFiles(root);
      for (const p of creds) assert.equal(reasonOf(sel, p), 'credentials', p);
      assert.deepEqual(paths(sel).sort(), [...fine].sort());
      const allowed = await selectWorkspaceFiles(root, { allowCredentialFiles: ['config/prod.env'] });
      assert.ok(paths(allowed).includes('config/prod.env'));
      assert.equal(reasonOf(allowed, '.env'), 'credentials');
      const open = await selectGivenFiles(root, [path.join(root, '.env'), path.join(root, 'src/env.ts')]);
      assert.deepEqual(paths(open), ['src/env.ts']);
      assert.equal(reasonOf(open, '.env'), 'credentials');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('pathological exclude patterns are bounded: the selection finishes without stalling the event loop', async () => {
    const root = await tempDir('harden-');
    try {
      const deep = 'a/'.repeat(30);
      const files: Record<string, string> = {};
      for (let i = 0; i < 40; i++) files[`${deep}f${i}.js`] = 'x\n';
      files[`${deep}b`] = 'named b\n';
      const evil = `${'**/a/'.repeat(9)}**/b`;
      files['.gitignore'] = `${evil}\n!${evil}x\n`;
      await writeTree(root, files);
      let worst = 0;
      let last = performance.now();
      const timer = setInterval(() => { const now = performance.now(); worst = Math.max(worst, now - last); last = now; }, 5);
      let sel: Selection;
      try {
        // Outside git: the `.gitignore` is matched here, not by git. And the same pattern as a setting.
        sel = await selectWorkspaceFiles(root, { excludeGlobs: [evil] });
      } finally {
        clearInterval(timer);
      }
      assert.equal(paths(sel).filter((p) => p.endsWith('.js')).length, 40, 'every .js file is selected');
      assert.ok(!paths(sel).some((p) => p.endsWith('/b')), 'what the pattern excludes stays excluded');
      assert.ok(sel.notes.some((n) => n.includes('codeScanner.excludeGlobs') && n.includes('too complex')), sel.notes.join('\n'));
      assert.ok(sel.notes.some((n) => n.includes('.gitignore') && n.includes('re-inclusion')), sel.notes.join('\n'));
      // Unbounded, one test of this pattern against one of these paths takes seconds; the loop never waited near that.
      assert.ok(worst < 1000, `the event loop was blocked for ${Math.round(worst)} ms`);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('bounded patterns match at least what the original matched', () => {
    const p = `${'**/x/'.repeat(5)}**/secret.txt`;
    const b = boundPattern(p)!;
    assert.equal(b.changed, true);
    assert.equal(b.pattern, '**/secret.txt');
    assert.ok(b.pattern.split('/').filter((s) => s === '**').length <= MAX_GLOBSTARS);
    assert.equal(boundPattern('!' + p), undefined, 'a complex re-inclusion is dropped');
    assert.deepEqual(boundPattern('**/a/**/b'), { pattern: '**/a/**/b', changed: false });
    assert.equal(boundPattern(`${'**/x/'.repeat(5)}**/cache/**`)!.pattern, '**/cache/**');
  });

  test('archive entry names equal the selected paths byte for byte; names the zip would rewrite are left out', async () => {
    const root = await tempDir('harden-');
    const tmpRoot = await tempDir('harden-tmp-');
    try {
      const kept = ['src/zz:main.js', 'a,b.js', '..data/x.js', '...js', 'sp ace.js', 'ünïcödé/файл.js', 'main.js'];
      await writeTree(root, Object.fromEntries([...kept, 'zz:main.js', 'C:evil.js'].map((p) => [p, `// ${p}\n`])));
      git(root, 'init', '-q');
      const sel = await selectWorkspaceFiles(root);
      assert.equal(reasonOf(sel, 'zz:main.js'), 'unsafe-name');
      assert.equal(reasonOf(sel, 'C:evil.js'), 'unsafe-name');
      assert.deepEqual(paths(sel).sort(), [...kept].sort());
      const zip = await buildZip(sel, { tmpRoot });
      try {
        const entries = await readZip(zip.path);
        assert.deepEqual(entries.map((e) => e.name), paths(sel), 'stored names are the selected paths');
        for (const e of entries) assert.equal(e.data.toString(), `// ${e.name}\n`, `${e.name} holds its own content`);
      } finally {
        await zip.dispose();
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(tmpRoot, { recursive: true, force: true });
    }
  });

  test('partial scans: a comma in a name is skipped with a reason, `..data` and `...js` are ordinary names', async () => {
    const root = await tempDir('harden-');
    try {
      const names = ['a,b.js', '..data/x.js', '...js', 'ok.js'];
      await writeTree(root, Object.fromEntries(names.map((p) => [p, 'x\n'])));
      git(root, 'init', '-q');
      const sel = await selectGivenFiles(root, names.map((p) => path.join(root, p)));
      assert.deepEqual(paths(sel), ['...js', '..data/x.js', 'ok.js']);
      assert.equal(reasonOf(sel, 'a,b.js'), 'comma-in-name');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });
});

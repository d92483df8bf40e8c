import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { lstatSync, promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  formatSelectionSummary,
  selectChangedFiles,
  selectGivenFiles,
  selectWorkspaceFiles,
  summarizeSelection,
  MAX_TRACKED_UNRECORDED,
  type KnownFiles,
  type Selection,
  type SkipReason,
} from '../../../src/core/workspace/selectFiles';
import { buildZip } from '../../../src/core/archive/zip';
import { committedRepo, git, tempDir, writeTree } from './helpers';

const reasonOf = (sel: Selection, p: string): SkipReason | undefined => sel.skipped.find((s) => s.path === p)?.reason;
/** The reason for `p` itself or for the folder it sits in (a walk reports pruned folders once). */
const reasonOfOrFolder = (sel: Selection, p: string): SkipReason | undefined =>
  reasonOf(sel, p) ?? sel.skipped.find((s) => s.path.endsWith('/') && p.startsWith(s.path))?.reason;
const paths = (sel: Selection) => sel.files.map((f) => f.path);

/** The same tree, used both as a git repository and as a plain folder. */
const TREE: Record<string, string | Buffer> = {
  'src/app.ts': 'export const a = 1;\n',
  'src/lib/util.py': 'x = 1\n',
  'README.md': '# hi\n',
  '.gitignore': 'secret.env\nlogs/\n*.tmp\n!keep.tmp\n',
  'secret.env': 'TOKEN=abc\n',
  'logs/run.log': 'log\n',
  'scratch.tmp': 'tmp\n',
  'keep.tmp': 'kept by negation\n',
  'sub/.gitignore': 'generated.ts\n',
  'sub/generated.ts': 'generated\n',
  'sub/real.ts': 'real\n',
  'node_modules/pkg/index.js': 'module.exports = 1;\n',
  'web/node_modules/pkg/index.js': 'nested dependency\n',
  'dist/bundle.js': 'bundle\n',
  'build/out.o': 'obj\n',
  '.venv/lib/site.py': 'venv\n',
  'pkg/__pycache__/m.cpython-311.pyc': 'pyc\n',
  '.vscode/settings.json': '{}\n',
  '.idea/workspace.xml': '<x/>\n',
  'src/app.js.map': '{}\n',
  'assets/logo.png': randomBytes(64),
  'assets/font.woff2': randomBytes(64),
  'docs/guide.md': 'user-excluded\n',
  'big.txt': 'x'.repeat(5000),
  'Makefile': 'all:\n',
};

/** Default-excluded paths of TREE, left untracked in the git variant. */
const UNTRACKED_DEFAULTS = ['node_modules', 'web/node_modules', 'dist', 'build', '.venv', 'pkg/__pycache__', '.vscode', '.idea', 'src/app.js.map'];

const INCLUDED = ['.gitignore', 'Makefile', 'README.md', 'keep.tmp', 'src/app.ts', 'src/lib/util.py', 'sub/.gitignore', 'sub/real.ts'];
const opts = { excludeGlobs: ['docs/**'], maxFileSizeBytes: 4000 };

let outside: string;
before(async () => {
  outside = await tempDir('outside-');
  await fsp.writeFile(path.join(outside, 'secret.txt'), 'outside the folder');
});
after(() => fsp.rm(outside, { recursive: true, force: true }));

async function makeTree(): Promise<string> {
  const root = await tempDir('ws-');
  await writeTree(root, TREE);
  await fsp.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-out.txt'));
  await fsp.symlink(outside, path.join(root, 'linkdir-out'));
  await fsp.symlink('src/app.ts', path.join(root, 'link-in.ts'));
  return root;
}

function assertCommonRules(sel: Selection): void {
  const expectSkipped: [string, SkipReason][] = [
    ['node_modules/pkg/index.js', 'default-exclude'],
    ['web/node_modules/pkg/index.js', 'default-exclude'],
    ['dist/bundle.js', 'default-exclude'],
    ['.vscode/settings.json', 'default-exclude'],
    ['.idea/workspace.xml', 'default-exclude'],
    ['src/app.js.map', 'default-exclude'],
    ['assets/logo.png', 'binary'],
    ['assets/font.woff2', 'binary'],
    ['docs/guide.md', 'user-exclude'],
    ['big.txt', 'too-large'],
    ['link-out.txt', 'symlink-outside'],
  ];
  for (const [p, reason] of expectSkipped) assert.equal(reasonOfOrFolder(sel, p), reason, `${p} should be skipped as ${reason}`);
  for (const f of sel.files) {
    assert.ok(!f.path.includes('..') && !f.path.startsWith('/') && !f.path.includes('\\'), `unsafe path ${f.path}`);
    assert.ok(!f.path.startsWith('linkdir-out/'), 'followed a symlinked folder out of the workspace');
  }
  assert.deepEqual(paths(sel), [...paths(sel)].sort(), 'files are sorted');
  assert.equal(sel.totalBytes, [...sel.files].reduce((n, f) => n + f.size, 0));
}

describe('selectWorkspaceFiles', () => {
  test('in git: tracked + untracked-not-ignored, every exclusion reported', async () => {
    const root = await makeTree();
    try {
      git(root, 'init', '-q');
      await fsp.writeFile(path.join(root, '.git/info/exclude'), 'local-only.txt\n');
      await fsp.writeFile(path.join(root, 'local-only.txt'), 'excluded through .git/info/exclude\n');
      await fsp.writeFile(path.join(root, 'gone.ts'), 'tracked, then deleted\n');
      // As in a real repository, dependencies, build output and editor state are not committed.
      git(root, 'add', '-A', '--', '.', ...UNTRACKED_DEFAULTS.map((p) => `:(exclude)${p}`));
      git(root, 'commit', '-qm', 'init');
      await fsp.rm(path.join(root, 'gone.ts'));
      await fsp.writeFile(path.join(root, 'src/new.ts'), 'untracked\n');

      const sel = await selectWorkspaceFiles(root, { ...opts, listIgnored: true });
      assert.deepEqual(paths(sel), [...INCLUDED, 'link-in.ts', 'src/new.ts'].sort());
      assertCommonRules(sel);
      // A scan does not ask for what git ignores (a second walk of the tree, only for a report).
      const forScan = await selectWorkspaceFiles(root, opts);
      assert.deepEqual(paths(forScan), paths(sel));
      assert.deepEqual(forScan.skipped, sel.skipped.filter((s) => s.reason !== 'gitignored'));
      assert.equal(reasonOf(sel, 'secret.env'), 'gitignored');
      assert.equal(reasonOf(sel, 'logs/'), 'gitignored');
      assert.equal(reasonOf(sel, 'local-only.txt'), 'gitignored');
      assert.ok(!sel.skipped.some((s) => s.path === 'gone.ts'), 'a deleted file is not a skipped file');
      const gitsOwn = git(root, 'ls-files', '-z', '--others', '--exclude-standard').split('\0').filter(Boolean).length;
      assert.ok(gitsOwn > 1);
      assert.equal(sel.gitUntracked, gitsOwn, "git's own count of untracked files, before our exclusions");
      const summary = summarizeSelection(sel);
      assert.equal(summary.files, sel.files.length);
      assert.equal(summary.skippedByReason['too-large'], 1);
      assert.match(formatSelectionSummary(sel), /^10 files, .*; skipped \d+: .*1 over the size limit/);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('outside git: a walk applying every nested .gitignore', async () => {
    const root = await makeTree();
    try {
      const sel = await selectWorkspaceFiles(root, opts);
      assert.deepEqual(paths(sel), [...INCLUDED, 'link-in.ts'].sort());
      assertCommonRules(sel);
      // Not git's doing here: the reason names the .gitignore files (Upload Preview and the scan's message say so).
      assert.equal(reasonOf(sel, 'secret.env'), 'ignore-file');
      assert.equal(reasonOf(sel, 'logs/'), 'ignore-file');
      assert.equal(reasonOf(sel, 'scratch.tmp'), 'ignore-file');
      assert.equal(reasonOf(sel, 'sub/generated.ts'), 'ignore-file', 'the nested .gitignore applies to its folder');
      assert.equal(reasonOf(sel, 'node_modules/'), 'default-exclude', 'excluded folders are reported once, not walked');
      assert.equal(reasonOf(sel, 'linkdir-out'), 'symlink-outside');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('what the repository keeps on purpose is uploaded despite the default excludes: tracked files, and folders a .gitignore re-includes', async () => {
    const tree = {
      '.gitignore': 'node_modules\n!test/fixtures/**/node_modules\n',
      'src/index.js': 'x\n',
      'node_modules/dep/index.js': 'dependency\n',
      'test/fixtures/a/node_modules/fake/index.js': 'fixture\n',
      'dist/bundle.js': 'build output\n',
    };
    const inGit = await tempDir('kept-git-');
    const plain = await tempDir('kept-plain-');
    try {
      await writeTree(inGit, tree);
      git(inGit, 'init', '-q');
      git(inGit, 'add', '-f', '.gitignore', 'src', 'test', 'dist/bundle.js');
      git(inGit, 'commit', '-qm', 'init');
      await writeTree(inGit, { 'dist/untracked.js': 'not committed\n' });
      const sel = await selectWorkspaceFiles(inGit);
      assert.deepEqual(paths(sel), ['.gitignore', 'dist/bundle.js', 'src/index.js', 'test/fixtures/a/node_modules/fake/index.js']);
      assert.equal(reasonOfOrFolder(sel, 'dist/untracked.js'), 'default-exclude', 'untracked build output stays out');

      await writeTree(plain, tree);
      const walked = await selectWorkspaceFiles(plain);
      assert.deepEqual(paths(walked), ['.gitignore', 'src/index.js', 'test/fixtures/a/node_modules/fake/index.js']);
      assert.equal(reasonOfOrFolder(walked, 'node_modules/dep/index.js'), 'ignore-file');
      assert.equal(reasonOfOrFolder(walked, 'dist/bundle.js'), 'default-exclude');
      // The user's own excludes still apply.
      assert.deepEqual(paths(await selectWorkspaceFiles(inGit, { excludeGlobs: ['test/fixtures/**'] })), ['.gitignore', 'dist/bundle.js', 'src/index.js']);
    } finally {
      await fsp.rm(inGit, { recursive: true, force: true });
      await fsp.rm(plain, { recursive: true, force: true });
    }
  });

  test("a work tree whose listing git refuses (a damaged index) gives git's error, not a walk by other rules", async () => {
    const root = await tempDir('bad-index-');
    try {
      await writeTree(root, { 'a.ts': 'a\n', '.gitignore': 'secret.env\n', 'secret.env': 'TOKEN=abc\n' });
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      await fsp.writeFile(path.join(root, '.git/index'), 'not an index');
      await assert.rejects(selectWorkspaceFiles(root), /git ls-files failed: .*index/i);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('with the last packaging given, the tracked paths that are not the very file it recorded', async () => {
    const root = await committedRepo('unrecorded-', { 'a.ts': 'a\n', 'b.ts': 'b\n', 'gone.ts': 'g\n', 'docs/skip.md': 'x\n', 'lib/c.ts': 'c\n' });
    try {
      await fsp.symlink('a.ts', path.join(root, 'link.ts'));
      git(root, 'add', 'link.ts');
      git(root, 'commit', '-qm', 'link');
      const first = await buildZip(await selectWorkspaceFiles(root), { workers: 1 });
      try {
        await fsp.appendFile(path.join(root, 'b.ts'), 'changed\n');
        await fsp.rm(path.join(root, 'gone.ts'));
        await writeTree(root, { 'untracked.ts': 'u\n' });
        const sel = await selectWorkspaceFiles(root, { known: first.index, excludeGlobs: ['docs/**'] });
        // Written, left out, gone, a link (its target was recorded, not the link); untracked files are not git's to compare.
        assert.deepEqual(sel.trackedUnrecorded, ['b.ts', 'docs/skip.md', 'gone.ts', 'link.ts']);
        assert.equal((await selectWorkspaceFiles(root, { known: () => first.index })).trackedUnrecorded?.length, 3, 'known given as a function');
        assert.equal((await selectWorkspaceFiles(root)).trackedUnrecorded, undefined, 'nothing on record, no list');
      } finally {
        await first.dispose();
      }
      // More than MAX_TRACKED_UNRECORDED: no list (git then compares the whole folder).
      const many: Record<string, string> = {};
      for (let i = 0; i <= MAX_TRACKED_UNRECORDED; i++) many[`many/f${i}.ts`] = `${i}\n`;
      await writeTree(root, many);
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'many');
      const other = await buildZip(await selectWorkspaceFiles(root, { excludeGlobs: ['many/**'] }), { workers: 1 });
      try {
        assert.equal((await selectWorkspaceFiles(root, { known: other.index })).trackedUnrecorded, undefined);
      } finally {
        await other.dispose();
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test("a tracked file still the very file recorded keeps the verdict of the same rules; other rules judge it again", async () => {
    const root = await committedRepo('verdicts-', { 'a.ts': 'a\n', 'docs/guide.md': 'guide\n', 'deploy/.env': 'TOKEN=abc\n' });
    try {
      const first = await selectWorkspaceFiles(root);
      assert.equal(reasonOf(first, 'deploy/.env'), 'credentials');
      const same = await selectWorkspaceFiles(root);
      assert.equal(same.rulesKey, first.rulesKey, 'the same rules, the same key');
      const other = await selectWorkspaceFiles(root, { excludeGlobs: ['docs/**'] });
      assert.notEqual(other.rulesKey, first.rulesKey);
      assert.notEqual((await selectWorkspaceFiles(root, { maxFileSizeBytes: 1000 })).rulesKey, first.rulesKey);
      assert.notEqual((await selectWorkspaceFiles(root, { allowCredentialFiles: ['deploy/.env'] })).rulesKey, first.rulesKey);
      // A record of the files as they are, made under `rulesKey`; it claims the credential file passed.
      const record = (rulesKey: string): KnownFiles => {
        const names = ['a.ts', 'deploy/.env', 'docs/guide.md'];
        const stats = names.map((n) => lstatSync(path.join(root, n)));
        const bytes = names.map((n) => Buffer.from(n));
        const ends = new Uint32Array(names.length);
        bytes.reduce((at, b, i) => (ends[i] = at + b.length), 0);
        const column = (pick: (st: Stats) => number) => Float64Array.from(stats, pick);
        return {
          names: Buffer.concat(bytes), ends, length: names.length, selectedBy: rulesKey,
          columns: { size: column((st) => st.size), mtimeMs: column((st) => st.mtimeMs), ctimeMs: column((st) => st.ctimeMs), ino: column((st) => st.ino) },
        };
      };
      const taken = await selectWorkspaceFiles(root, { known: record(first.rulesKey) });
      assert.deepEqual(taken.files.paths(), ['a.ts', 'deploy/.env', 'docs/guide.md'], 'what these rules accepted then, unchanged since, is not judged again');
      const judged = await selectWorkspaceFiles(root, { known: record(first.rulesKey), excludeGlobs: ['docs/**'] });
      assert.deepEqual(judged.files.paths(), ['a.ts']);
      assert.equal(reasonOf(judged, 'docs/guide.md'), 'user-exclude');
      assert.equal(reasonOf(judged, 'deploy/.env'), 'credentials');
      const before = record(first.rulesKey);
      await fsp.appendFile(path.join(root, 'deploy/.env'), 'MORE=1\n');
      assert.equal(reasonOf(await selectWorkspaceFiles(root, { known: before }), 'deploy/.env'), 'credentials', 'written since: judged again');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test("the folder's size is told once: in git the tracked files, outside git what the walk found", async () => {
    const files: Record<string, string> = { '.gitignore': 'build/\n' };
    for (let i = 0; i < 30; i++) files[`src/m${i}.ts`] = `export const m${i} = ${i};\n`;
    const root = await committedRepo('count-', files);
    const plain = await tempDir('count-plain-');
    try {
      await writeTree(root, { 'untracked.ts': 'u\n', 'build/out.js': 'o\n' });
      const told: number[] = [];
      const sel = await selectWorkspaceFiles(root, { onCount: (n) => told.push(n) });
      assert.deepEqual(told, [31], 'the tracked files, .gitignore included');
      assert.equal(sel.files.length, 32, 'and the untracked file not ignored');
      await writeTree(plain, { 'a.ts': 'a\n', 'lib/b.ts': 'b\n', 'node_modules/x/index.js': 'x\n' });
      const toldPlain: number[] = [];
      await selectWorkspaceFiles(plain, { onCount: (n) => toldPlain.push(n) });
      assert.equal(toldPlain.length, 1);
      assert.ok(toldPlain[0] >= 2, `told ${toldPlain[0]}`);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(plain, { recursive: true, force: true });
    }
  });

  test('a folder that does not exist gives a clear error', async () => {
    await assert.rejects(selectWorkspaceFiles('/nonexistent/folder/x'), /does not exist/);
  });
});

describe('partial selections', () => {
  test('given files (open editors): same rules, outside and missing files reported', async () => {
    const root = await makeTree();
    try {
      git(root, 'init', '-q');
      const sel = await selectGivenFiles(root, [
        path.join(root, 'src/app.ts'),
        path.join(root, 'secret.env'),
        path.join(root, 'node_modules/pkg/index.js'),
        path.join(root, 'big.txt'),
        path.join(root, 'missing.ts'),
        path.join(outside, 'secret.txt'),
        path.join(root, 'linkdir-out/secret.txt'),
        path.join(root, 'src/../README.md'),
      ], opts);
      assert.deepEqual(paths(sel), ['README.md', 'src/app.ts']);
      assert.equal(reasonOf(sel, 'secret.env'), 'gitignored');
      assert.equal(reasonOf(sel, 'node_modules/pkg/index.js'), 'default-exclude');
      assert.equal(reasonOf(sel, 'big.txt'), 'too-large');
      assert.equal(reasonOf(sel, 'missing.ts'), 'missing');
      assert.equal(reasonOf(sel, path.join(outside, 'secret.txt')), 'outside-folder');
      assert.equal(reasonOf(sel, 'linkdir-out/secret.txt'), 'symlink-outside');
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('given files where git gives no answer: outside git by the .gitignore files, with a damaged index an error, never the ignored file', async () => {
    const root = await tempDir('given-nogit-');
    try {
      await writeTree(root, { 'a.ts': 'a\n', 'ignored.ts': 'i\n', '.gitignore': 'ignored.ts\n' });
      const given = [path.join(root, 'a.ts'), path.join(root, 'ignored.ts')];
      const outsideGit = await selectGivenFiles(root, given);
      assert.deepEqual(paths(outsideGit), ['a.ts']);
      assert.equal(reasonOf(outsideGit, 'ignored.ts'), 'ignore-file');
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'init');
      assert.deepEqual(paths(await selectGivenFiles(root, given)), ['a.ts']);
      // Both of git's listings fail on an index it cannot read; the folder is still a work tree.
      await fsp.writeFile(path.join(root, '.git', 'index'), 'not an index');
      await assert.rejects(selectGivenFiles(root, given), /git ls-files failed: .*index/i);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('given files outside git are chosen as the walk of the whole folder chooses them', async () => {
    const root = await tempDir('given-walk-');
    try {
      await writeTree(root, {
        '.gitignore': 'logs/\n*.tmp\n!keep.tmp\n!fixtures/**/node_modules\n',
        'a.ts': 'a\n', 'x.tmp': 't\n', 'keep.tmp': 'k\n', 'logs/today.log': 'l\n',
        'pkg/.gitignore': 'generated/\n!x.tmp\nlocal.ts\n', 'pkg/x.tmp': 'kept below\n', 'pkg/local.ts': 'l\n',
        'pkg/generated/out.ts': 'g\n', 'pkg/src/b.ts': 'b\n', 'pkg/src/local.ts': 'ignored deeper too\n',
        'node_modules/dep/index.js': 'default excluded\n', 'fixtures/case/node_modules/dep/index.js': 're-included\n',
      });
      const all: string[] = [];
      const list = async (dir: string): Promise<void> => {
        for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
          const abs = path.join(dir, e.name);
          if (e.isDirectory()) await list(abs);
          else all.push(abs);
        }
      };
      await list(root);
      const walked = await selectWorkspaceFiles(root, { useGit: false });
      const given = await selectGivenFiles(root, all, { useGit: false });
      assert.deepEqual(paths(given), paths(walked));
      assert.deepEqual(paths(given), ['.gitignore', 'a.ts', 'fixtures/case/node_modules/dep/index.js', 'keep.tmp', 'pkg/.gitignore', 'pkg/src/b.ts', 'pkg/x.tmp']);
      for (const rel of ['x.tmp', 'logs/today.log', 'pkg/local.ts', 'pkg/generated/out.ts', 'pkg/src/local.ts']) assert.equal(reasonOf(given, rel), 'ignore-file', rel);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('git changes: staged, modified and untracked; deletions dropped; same filters', async () => {
    const root = await tempDir('changes-');
    try {
      await writeTree(root, { 'a.ts': 'a\n', 'b.ts': 'b\n', 'c.ts': 'c\n', 'd.ts': 'd\n', '.gitignore': 'ignored.ts\n', 'sub/e.ts': 'e\n' });
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'init');
      await writeTree(root, {
        'a.ts': 'modified\n',
        'staged.ts': 'staged\n',
        'untracked.ts': 'untracked\n',
        'ignored.ts': 'ignored\n',
        'dist/out.js': 'build output\n',
        'sub/e.ts': 'modified in a subfolder\n',
      });
      git(root, 'add', 'staged.ts');
      await fsp.rm(path.join(root, 'b.ts'));
      git(root, 'rm', '-q', 'c.ts');
      const sel = await selectChangedFiles(root);
      assert.deepEqual(paths(sel), ['a.ts', 'staged.ts', 'sub/e.ts', 'untracked.ts']);
      assert.equal(reasonOf(sel, 'dist/out.js'), 'default-exclude');

      // From a subfolder of the repository: paths relative to that folder, nothing from outside it.
      const subSel = await selectChangedFiles(path.join(root, 'sub'));
      assert.deepEqual(paths(subSel), ['e.ts']);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('git changes outside a repository: a clear error', async () => {
    const root = await tempDir('nogit-');
    try {
      await assert.rejects(selectChangedFiles(root), (e: unknown) => e instanceof Error && /is not a git repository/.test(e.message) && !e.message.includes(root) && !e.message.endsWith('.'));
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });
});

// A big folder's scan leaves each file's lstat to packaging (SelectOptions.statsLater): the
// archive, and what is left out and why, must be what the selection's own look at every file
// gives, whatever is on disk: links inside and out, a folder turned into a link leading out,
// a FIFO, a folder where a file was, a file over the size limit, a file deleted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { buildZip, startDeflateWorkers } from '../../../src/core/archive/zip';
import { STATS_LATER_FILES, selectWorkspaceFiles, type SelectOptions, type SkippedFile } from '../../../src/core/workspace/selectFiles';
import { committedRepo, git, readZip, tempDir, writeTree } from '../workspace/helpers';

const MAX_SIZE = 4096;

/** A committed tree of `n` small sources plus every odd thing on disk a scan may meet. */
async function oddRepo(n: number): Promise<{ root: string; outside: string }> {
  const outside = await tempDir('stats-later-outside-');
  await writeTree(outside, { 'secret.txt': 'outside the folder\n', 'lib/a.js': 'not ours\n' });
  const root = await tempDir('stats-later-');
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`src/m${i % 40}/f${i}.js`] = `export const v${i} = ${i};\n`;
  files['big.js'] = 'x'.repeat(MAX_SIZE + 1);
  files['gone.js'] = 'deleted after the commit\n';
  files['was-file.js'] = 'a folder now\n';
  files['fifo.js'] = 'a FIFO now\n';
  files['lib/a.js'] = 'ours, until lib is a link leading out\n';
  files['real/target.js'] = 'reached through a link\n';
  await writeTree(root, files);
  await fsp.symlink('real/target.js', path.join(root, 'inside-link.js'));
  await fsp.symlink(path.join(outside, 'secret.txt'), path.join(root, 'outside-link.txt'));
  await fsp.symlink('missing-target.js', path.join(root, 'broken-link.js'));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  await fsp.rm(path.join(root, 'gone.js'));
  await fsp.rm(path.join(root, 'was-file.js'));
  await fsp.mkdir(path.join(root, 'was-file.js'));
  await fsp.rm(path.join(root, 'fifo.js'));
  execFileSync('mkfifo', [path.join(root, 'fifo.js')]);
  await fsp.rm(path.join(root, 'lib'), { recursive: true });
  await fsp.symlink(path.join(outside, 'lib'), path.join(root, 'lib'));
  await writeTree(root, { 'untracked.js': 'new, not committed\n' });
  return { root, outside };
}

/** The archive's entries and everything left out, with why, from one selection and its packaging. */
async function packaged(root: string, opts: SelectOptions) {
  const sel = await selectWorkspaceFiles(root, { maxFileSizeBytes: MAX_SIZE, ...opts });
  const workers = startDeflateWorkers();
  const archive = await buildZip(sel, { workersStarted: workers });
  try {
    const entries = await readZip(archive.path);
    const leftOut = [...sel.skipped, ...archive.skipped].map((s: SkippedFile) => `${s.path}: ${s.reason}`).sort();
    // The index keeps the file list's numbers rather than its own copy of them (3.2 MB at 100,000 files).
    const shared = (archive.index.columns.size as Float64Array).buffer === (sel.files.statColumns().size as Float64Array).buffer;
    return { sel, sha256: archive.sha256, entries: entries.map((e) => `${e.name} ${e.data.toString('base64')}`), leftOut, shared };
  } finally {
    await archive.dispose();
    await workers.close();
  }
}

describe('a scan that leaves each file\'s lstat to packaging', () => {
  test('packages the same archive and leaves out the same files, for the same reasons, as one that looked at every file', async () => {
    const { root, outside } = await oddRepo(STATS_LATER_FILES);
    try {
      const looked = await packaged(root, {});
      const later = await packaged(root, { statsLater: true });
      assert.equal(looked.sel.statsLater, undefined);
      assert.ok(later.sel.statsLater, 'the selection left the files\' lstat to packaging');
      assert.equal(later.sel.totalBytes, 0);
      assert.deepEqual(later.entries, looked.entries);
      assert.equal(later.sha256, looked.sha256);
      assert.deepEqual(later.leftOut, looked.leftOut);
      // What each odd file came to, so that neither way can drift with the other.
      assert.deepEqual(later.leftOut, [
        'big.js: too-large',
        'broken-link.js: missing',
        'fifo.js: not-a-file',
        'lib/a.js: symlink-outside',
        'lib: symlink-outside',
        'outside-link.txt: symlink-outside',
        'was-file.js: not-a-file',
      ]);
      const names = later.entries.map((e) => e.split(' ')[0]);
      assert.ok(names.includes('inside-link.js') && names.includes('untracked.js') && names.includes('real/target.js'));
      assert.ok(!names.includes('gone.js'));
      assert.ok(!later.entries.some((e) => Buffer.from(e.split(' ')[1], 'base64').toString().includes('outside the folder') || e.includes(Buffer.from('not ours\n').toString('base64'))));
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });

  test('keeps the numbers packaging found in the file list, which the archive index shares when it holds every file', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < STATS_LATER_FILES; i++) files[`src/m${i % 40}/f${i}.js`] = `export const v${i} = ${i};\n`;
    const root = await committedRepo('stats-later-clean-', files);
    try {
      const later = await packaged(root, { statsLater: true });
      assert.ok(later.sel.statsLater);
      assert.ok(later.shared, 'the index shares the file list\'s numbers (3.2 MB at 100,000 files, not made twice)');
      const rel = 'src/m7/f7.js';
      const i = later.sel.files.paths().indexOf(rel);
      const st = await fsp.stat(path.join(root, rel));
      assert.deepEqual([later.sel.files.size(i), later.sel.files.ino(i), later.sel.files.mtimeMs(i)], [st.size, st.ino, st.mtimeMs]);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('looks at every file itself in a folder with fewer tracked files, or when it is told what an earlier archive holds', async () => {
    const { root, outside } = await oddRepo(STATS_LATER_FILES - 100);
    try {
      const small = await selectWorkspaceFiles(root, { maxFileSizeBytes: MAX_SIZE, statsLater: true });
      assert.equal(small.statsLater, undefined);
      assert.ok(small.totalBytes > 0);
      for (let i = 0; i < 100; i++) await writeTree(root, { [`more/g${i}.js`]: `export const g${i} = ${i};\n` });
      git(root, 'add', 'more');
      const earlier = await buildZip(await selectWorkspaceFiles(root, { maxFileSizeBytes: MAX_SIZE }));
      try {
        const told = await selectWorkspaceFiles(root, { maxFileSizeBytes: MAX_SIZE, statsLater: true, known: earlier.index });
        assert.equal(told.statsLater, undefined);
        assert.ok(told.totalBytes > 0);
      } finally {
        await earlier.dispose();
      }
      const big = await selectWorkspaceFiles(root, { maxFileSizeBytes: MAX_SIZE, statsLater: true });
      assert.ok(big.statsLater, `${STATS_LATER_FILES} tracked files now`);
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });
});

// What a person (or an agent's person) confirms is what leaves the machine: for every way a
// scan chooses its files (a whole folder, changed files, given files as scan on save and an
// agent name them, the staged content a check before a push writes out), the files the
// confirmation lists (the selection with files binary by their content left out, as Upload
// Preview, the first-scan question and the agent's confirmation show it) are exactly the
// archive's entries, in the same order.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildZip } from '../../../src/core/archive/zip';
import { leaveOutBinaryContent } from '../../../src/core/workspace/binaryContent';
import { stagedChanges, writeOutgoing } from '../../../src/core/workspace/outgoing';
import { selectChangedFiles, selectGivenFiles, selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import type { Selection } from '../../../src/core/workspace/selection';
import { committedRepo, git, readZip, tempDir, writeTree } from './helpers';

const TREE = {
  'src/app.js': 'const a = eval(x);\n',
  'src/util.ts': 'export const u = 1;\n',
  'bin/compiled': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]),
  '.env': 'SECRET=1\n',
  '.gitignore': 'dist/\n',
  'dist/out.js': 'built\n',
  'README.md': '# r\n',
};

async function confirmedAndUploaded(selection: Selection): Promise<{ confirmed: string[]; uploaded: string[] }> {
  const confirmed = (await leaveOutBinaryContent(selection)).files.map((f) => f.path);
  const archive = await buildZip(selection);
  try {
    return { confirmed, uploaded: (await readZip(archive.path)).map((e) => e.name) };
  } finally {
    await archive.dispose();
  }
}

test('a whole folder, changed files, given files and staged content: the confirmed files are the archive\'s entries', async () => {
  const root = await committedRepo('confirmed-', TREE);
  const out = await tempDir('confirmed-staged-');
  try {
    await writeTree(root, { 'src/app.js': 'const a = eval(y);\n', 'src/new.js': 'n\n', 'bin/other': Buffer.from([0, 0, 1]) });
    const cases: [string, Selection][] = [
      ['whole folder', await selectWorkspaceFiles(root)],
      ['changed files', await selectChangedFiles(root)],
      ['given files (scan on save, an agent)', await selectGivenFiles(root, ['src/app.js', '.env', 'bin/compiled', 'dist/out.js', 'README.md'].map((p) => path.join(root, p)))],
    ];
    git(root, 'add', 'src/app.js', 'src/new.js');
    const staged = await stagedChanges(root);
    const written = await writeOutgoing(root, staged, out);
    cases.push(['staged content (before a push)', await selectGivenFiles(out, [...written.keys()].map((p) => path.join(out, p)))]);
    for (const [what, selection] of cases) {
      const { confirmed, uploaded } = await confirmedAndUploaded(selection);
      assert.ok(confirmed.length > 0, `${what}: something to upload`);
      assert.deepEqual(uploaded, confirmed, what);
      assert.ok(!uploaded.some((p) => p === '.env' || p.startsWith('dist/') || p.startsWith('bin/')), `${what}: ${uploaded.join(', ')}`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

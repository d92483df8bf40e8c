// Where a fix may write: only uploaded files, never VCS/editor/dependency files, never
// through a link out of the folder, never a non-file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFixTarget, isProtectedPath } from '../../../src/core/fixes';

describe('fix targets', () => {
  let parent: string;
  let root: string;

  before(() => {
    parent = realpathSync(mkdtempSync(join(tmpdir(), 'fix-target-')));
    root = join(parent, 'project');
    for (const f of ['src/a.js', '.git/config', '.vscode/tasks.json', 'node_modules/x/index.js', 'pkg/.git/HEAD', 'proj.code-workspace']) {
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), 'x\n');
    }
    mkdirSync(join(parent, 'outside'));
    writeFileSync(join(parent, 'outside', 'victim.js'), 'x\n');
    symlinkSync('../outside', join(root, 'link'));
    symlinkSync('../../outside/victim.js', join(root, 'src', 'alias.js'));
    execFileSync('mkfifo', [join(root, 'src', 'pipe.js')]);
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('accepts an uploaded regular file inside the folder', async () => {
    const r = await checkFixTarget(root, 'src/a.js', true);
    assert.equal(r.ok, true);
  });

  it('refuses a file that was not uploaded', async () => {
    const r = await checkFixTarget(root, 'src/a.js', false);
    assert.deepEqual(r.ok ? r : r.reason, 'not-scanned');
  });

  for (const rel of ['.git/config', '.vscode/tasks.json', 'node_modules/x/index.js', 'pkg/.git/HEAD', 'proj.code-workspace', '.GIT/config']) {
    it(`refuses ${rel} even if the archive held it`, async () => {
      assert.equal(isProtectedPath(rel), true);
      const r = await checkFixTarget(root, rel, true);
      assert.equal(r.ok ? 'ok' : r.reason, 'protected');
    });
  }

  it('refuses a path through a symlinked folder leading outside', async () => {
    const r = await checkFixTarget(root, 'link/victim.js', true);
    assert.equal(r.ok ? 'ok' : r.reason, 'outside-folder');
  });

  it('refuses a symlinked file leading outside', async () => {
    const r = await checkFixTarget(root, 'src/alias.js', true);
    assert.equal(r.ok ? 'ok' : r.reason, 'outside-folder');
  });

  it('refuses a FIFO without blocking', async () => {
    const r = await checkFixTarget(root, 'src/pipe.js', true);
    assert.equal(r.ok ? 'ok' : r.reason, 'not-a-file');
  });

  it('refuses climbing paths and a missing file', async () => {
    for (const rel of ['../outside/victim.js', '/etc/passwd', 'src/../../outside/victim.js']) {
      const r = await checkFixTarget(root, rel, true);
      assert.equal(r.ok ? 'ok' : r.reason, 'outside-folder', rel);
    }
    const missing = await checkFixTarget(root, 'src/gone.js', true);
    assert.equal(missing.ok ? 'ok' : missing.reason, 'missing');
  });
});

// Trust nothing, second round (pure parts): what the service sends is bounded field by
// field; fixes never write files that make other tools run commands; an export never writes
// through a link; the change an agent's fix confirmation shows is the whole change, or the
// fix is refused.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { changeListing, MAX_CONFIRMED_CHANGE_CHARS } from '../../../src/core/agent/toolText';
import { UnsafeTargetError, writeExportFile } from '../../../src/core/export';
import { isProtectedPath } from '../../../src/core/fixes/target';
import { MAX_FIELD_CHARS, toStoredIssue } from '../../../src/core/issues';
import { tempDir } from '../workspace/helpers';

describe('every text field of a finding is bounded', () => {
  test('long texts are shortened and marked; a diff too big to apply is no fix; a path that long is no finding', () => {
    const huge = 'x'.repeat(MAX_FIELD_CHARS * 3);
    const s = toStoredIssue({
      id: 'a', location: { file: { path: 'a.js' } },
      classification: { id: 'CWE-1', name: huge, description: huge },
      auto_triage: { false_positive_detection: { status: 'valid', reasoning: huge } },
      auto_fix_suggestion: { status: huge, patch: { diff: `--- a/a.js\n+++ b/a.js\n${'+'.repeat(3 * 1024 * 1024)}`, explanation: huge } },
    })!;
    assert.ok(s.classificationDescription.length <= MAX_FIELD_CHARS && s.classificationDescription.endsWith('…'));
    assert.ok(s.classificationName.length <= 2000);
    assert.ok(s.triageReasoning!.length <= MAX_FIELD_CHARS);
    assert.equal(s.fix, undefined);
    assert.equal(s.fixStatus, 'fix_too_large');
    assert.equal(toStoredIssue({ id: 'b', location: { file: { path: `${'d/'.repeat(3000)}a.js` } } }), undefined);
    const ok = toStoredIssue({ id: 'c', location: { file: { path: 'a.js' } }, auto_fix_suggestion: { status: 'fix_available', patch: { diff: '--- a/a.js\n+++ b/a.js\n', explanation: 'e' } } })!;
    assert.equal(ok.fix?.explanation, 'e');
  });
});

describe('fixes never write what makes tools run commands', () => {
  test('hooks, CI, agent configuration and git settings are protected at any depth; ordinary files are not', () => {
    for (const p of [
      '.husky/pre-commit', '.githooks/pre-push', 'sub/.githooks/x', '.github/workflows/ci.yml', '.github/actions/setup/action.yml',
      '.gitlab-ci.yml', 'services/api/.gitlab-ci.yml', '.claude/settings.json', '.cursor/rules/a.mdc', '.mcp.json', '.pre-commit-config.yaml',
      '.gitmodules', '.lfsconfig', '.gitattributes', 'CLAUDE.md', 'AGENTS.md', '.github/copilot-instructions.md', '.vscode/tasks.json',
      'Jenkinsfile', '.circleci/config.yml', 'x.code-workspace',
    ]) assert.equal(isProtectedPath(p), true, p);
    assert.equal(isProtectedPath('tools/hooks/pre-commit', 'tools/hooks'), true, 'the folder core.hooksPath names');
    assert.equal(isProtectedPath('tools/hooks-docs/readme.md', 'tools/hooks'), false);
    for (const p of ['src/app.js', '.github/CODEOWNERS', 'docs/claude-notes.md', 'README.md', 'ci.yml']) assert.equal(isProtectedPath(p), false, p);
  });
});

describe('an export writes where it was asked to, and only there', () => {
  test('never through a symbolic link, nor into a folder reached through one; an ordinary file is replaced', async () => {
    const dir = await tempDir('export-');
    try {
      const outside = path.join(dir, 'outside.txt');
      await fsp.writeFile(outside, 'keep me\n');
      const ws = path.join(dir, 'ws');
      await fsp.mkdir(ws);
      const link = path.join(ws, 'code-scanner-findings.sarif');
      await fsp.symlink(outside, link);
      await assert.rejects(writeExportFile(link, '{}'), (e: unknown) => e instanceof UnsafeTargetError && /symbolic link/.test(e.message));
      assert.equal(await fsp.readFile(outside, 'utf8'), 'keep me\n', 'the file behind the link is untouched');
      await fsp.symlink(dir, path.join(ws, 'up'));
      await assert.rejects(writeExportFile(path.join(ws, 'up', 'x.sarif'), '{}'), (e: unknown) => e instanceof UnsafeTargetError && /reached through a symbolic link/.test(e.message));
      const plain = path.join(dir, 'findings.sarif');
      await writeExportFile(plain, 'one');
      await writeExportFile(plain, 'two');
      assert.equal(await fsp.readFile(plain, 'utf8'), 'two');
      assert.deepEqual((await fsp.readdir(dir)).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the change an agent confirms is the change applied', () => {
  test('the whole change is listed as the line edits that will be made; one too large to show is refused', () => {
    const before = 'a\nb\nc\nd\n';
    const shown = changeListing(before, 'a\nB\nc\nd\nE\n');
    assert.equal(shown.tooLarge, false);
    assert.ok(!shown.tooLarge);
    assert.equal(shown.text, '@@ line 2 @@\n-b\n+B\n@@ line 5 @@\n+E');
    const other = changeListing(before, 'a\nB\nc\nd\n');
    assert.ok(!other.tooLarge && other.digest !== shown.digest, 'another change, another digest');
    const long = changeListing('x\n', `${'y'.repeat(100)}\n`.repeat(MAX_CONFIRMED_CHANGE_CHARS / 50));
    assert.equal(long.tooLarge, true);
    assert.ok(long.tooLarge && /Preview Fix/.test(long.why));
  });
});

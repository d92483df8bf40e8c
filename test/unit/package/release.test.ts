// Cutting a release (.github/workflows/release.yml): what can be tested here, without
// publishing: the notes are CHANGELOG.md's section of the version (refused when missing or
// still unreleased), and the workflow tests, packages once and ships that one file to both
// registries and the release, with tokens from the CI's secrets only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '../../..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');

test('the release notes are the version\'s CHANGELOG section, refused when missing or undated', async () => {
  const { releaseNotes } = (await import(path.join(ROOT, '.ci', 'release-notes.mjs'))) as { releaseNotes(changelog: string, version: string): string };
  const changelog = '# Changelog\n\n## 1.2.0 (2026-12-01)\n\n- New thing.\n- Fixed thing.\n\n## 1.1.0 (2026-11-01)\n\n- Older.\n';
  assert.equal(releaseNotes(changelog, '1.2.0'), '- New thing.\n- Fixed thing.');
  assert.equal(releaseNotes(changelog, '1.1.0'), '- Older.');
  assert.throws(() => releaseNotes(changelog, '1.3.0'), /no section "## 1.3.0"/);
  assert.throws(() => releaseNotes('## 1.2.0 (unreleased)\n\n- x\n', '1.2.0'), /still says "unreleased"/);
  assert.throws(() => releaseNotes(changelog, '1.2'), /no section/, 'a version is matched whole');
  const version = (JSON.parse(read('package.json')) as { version: string }).version;
  assert.match(read('CHANGELOG.md'), new RegExp(`^## ${version.replace(/\./g, '\\.')}\\b`, 'm'), 'CHANGELOG.md has a section for package.json\'s version');
});

test('the workflow: on a version tag, the tests as CI runs them, one package, the same file to both registries and the release', () => {
  const wf = read('.github/workflows/release.yml');
  assert.match(wf, /on:\n {2}push:\n {4}tags: \['v\*\.\*\.\*'\]/);
  assert.match(wf, /run: CI=true bash \.ci\/run/);
  assert.equal(wf.match(/npm run package/g)?.length, 1, 'packaged once');
  const vsix = 'dist/code-scanner.vsix';
  assert.ok(read('package.json').includes(`--out ${vsix}`), 'the package script writes the file the workflow ships');
  for (const step of [`vsce publish --packagePath ${vsix}`, `ovsx publish ${vsix}`, `gh release create "$GITHUB_REF_NAME" ${vsix}`]) assert.ok(wf.includes(step), step);
  assert.match(wf, /--notes-file release-notes\.md/);
  assert.match(wf, /node \.ci\/release-notes\.mjs "\$VERSION" > release-notes\.md/);
  assert.match(wf, /VSCE_PAT: \$\{\{ secrets\.VSCE_PAT \}\}/);
  assert.match(wf, /OVSX_PAT: \$\{\{ secrets\.OVSX_PAT \}\}/);
  assert.ok(wf.indexOf('bash .ci/run') < wf.indexOf('npm run package') && wf.indexOf('npm run package') < wf.indexOf('vsce publish'), 'tests, then the package, then publishing');
});

// The project a folder's scans go to, named as the service's command-line client names it
// (decisions.md, `project_name`), so the editor's scans land in the same project as CI's.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { archiveNameFor, projectNameFrom, projectNameOf, repositoryName, sanitizeProjectName } from '../../../src/core/workspace/projectName';
import { committedRepo, git, tempDir } from './helpers';

test('the repository name of every kind of remote URL', () => {
  const cases: [string, string | undefined][] = [
    ['https://github.com/acme/payments-api.git', 'payments-api'],
    ['https://github.com/acme/payments-api', 'payments-api'],
    ['https://gitlab.example.com/group/sub/payments-api.git/', 'payments-api'],
    ['ssh://git@github.com/acme/payments-api.git', 'payments-api'],
    ['ssh://git@host.example:2222/acme/payments-api.GIT', 'payments-api'],
    ['git@github.com:acme/payments-api.git', 'payments-api'],
    ['github.com:acme/payments-api.git', 'payments-api'],
    ['git@github.com:payments-api', 'payments-api'],
    ['file:///srv/git/payments-api.git', 'payments-api'],
    ['/srv/git/payments-api.git', 'payments-api'],
    ['C:\\repos\\payments-api.git', 'payments-api'],
    ['../payments-api', 'payments-api'],
    ['https://dev.azure.com/acme/Payments%20Team/_git/payments%20api', 'payments api'],
    ['https://github.com/', undefined],
  ];
  for (const [url, want] of cases) assert.equal(repositoryName(url), want, url);
});

test('every character outside [A-Za-z0-9._-] becomes _', () => {
  assert.equal(sanitizeProjectName('payments api (v2)/ü'), 'payments_api__v2___');
  assert.equal(sanitizeProjectName('ok.name-1_x'), 'ok.name-1_x');
});

test('the setting first, then the remote, then the folder', () => {
  assert.deepEqual(projectNameFrom({ configured: '  ci-name ', remote: 'https://h/a/b.git', folderName: 'f' }), { name: 'ci-name', from: 'setting' });
  // A repository's settings are its own text: the same characters as a derived name.
  assert.deepEqual(projectNameFrom({ configured: '../../other-team/payments\n<b>x</b>', folderName: 'f' }), { name: '.._.._other-team_payments__b_x__b_', from: 'setting' });
  assert.deepEqual(projectNameFrom({ remote: 'https://h/a/pay ments.git', folderName: 'f' }), { name: 'pay_ments', from: 'remote', remote: 'https://h/a/pay ments.git' });
  assert.deepEqual(projectNameFrom({ folderName: 'my checkout' }), { name: 'my_checkout', from: 'folder' });
  assert.deepEqual(projectNameFrom({ remote: 'https://github.com/', folderName: '' }), { name: 'project', from: 'folder' });
  assert.equal(archiveNameFor('payments-api'), 'payments-api.zip');
  assert.equal(archiveNameFor('weird name/../x'), 'weird_name_.._x.zip');
});

test('read from the folder\'s git remotes: origin first, else the first; a clone in a folder of another name still names the repository', async () => {
  const repo = await committedRepo('project-name-', { 'a.js': 'x\n' });
  try {
    const folderName = path.basename(repo);
    assert.deepEqual(await projectNameOf(repo, { folderName }), { name: sanitizeProjectName(folderName), from: 'folder' });
    git(repo, 'remote', 'add', 'upstream', 'git@github.com:acme/upstream-repo.git');
    assert.equal((await projectNameOf(repo, { folderName })).name, 'upstream-repo');
    // Credentials in the URL never come back with the name.
    git(repo, 'remote', 'add', 'origin', 'https://user:s3cret@github.com/acme/payments-api.git');
    const p = await projectNameOf(repo, { folderName });
    assert.deepEqual([p.name, p.from], ['payments-api', 'remote']);
    assert.ok(!p.remote?.includes('s3cret'), p.remote);
    assert.equal((await projectNameOf(repo, { folderName, configured: 'named-in-settings' })).name, 'named-in-settings');
    assert.deepEqual(await projectNameOf(repo, { folderName, git: false }), { name: sanitizeProjectName(folderName), from: 'folder' }, 'no git for an untrusted workspace');
    // CI's own command names the project its scans go to: the editor's go there too.
    await fsp.mkdir(path.join(repo, '.github', 'workflows'), { recursive: true });
    await fsp.writeFile(path.join(repo, '.github', 'workflows', 'scan.yml'), 'jobs:\n  s:\n    steps:\n      - run: corgea scan --project-name "payments api/ci"\n');
    assert.deepEqual(await projectNameOf(repo, { folderName }), { name: 'payments_api_ci', from: 'ci', ci: '.github/workflows/scan.yml:4' });
    assert.equal((await projectNameOf(repo, { folderName, git: false })).name, 'payments_api_ci', 'read as text, so also where git does not run');
    assert.equal((await projectNameOf(repo, { folderName, configured: 'named-in-settings' })).name, 'named-in-settings', 'the setting first');
  } finally {
    await fsp.rm(repo, { recursive: true, force: true });
  }
});

test('outside git: the folder name', async () => {
  const dir = await tempDir('project-name-plain-');
  try {
    assert.deepEqual(await projectNameOf(dir, { folderName: 'order service' }), { name: 'order_service', from: 'folder' });
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
});

// Credentials never travel in repo_url, whatever form the remote URL takes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stripCredentials } from '../../../src/core/workspace/gitInfo';

const cases: [string, string][] = [
  ['ssh://deploy:s3cret@git.example.invalid/o/r.git', 'ssh://deploy@git.example.invalid/o/r.git'],
  ['git+https://tok3n@git.example.invalid/o/r.git', 'git+https://git.example.invalid/o/r.git'],
  ['git+ssh://git:pw@git.example.invalid/o/r.git', 'git+ssh://git@git.example.invalid/o/r.git'],
  ['https://git.example.invalid/o/r.git?access_token=abc123', 'https://git.example.invalid/o/r.git'],
  ['https://user:pw@git.example.invalid/o/r.git?private_token=x#frag', 'https://git.example.invalid/o/r.git'],
  ['deploy:s3cret@git.example.invalid:o/r.git', 'git.example.invalid:o/r.git'],
  ['git@git.example.invalid:o/r.git', 'git@git.example.invalid:o/r.git'],
  ['/srv/git/r.git', '/srv/git/r.git'],
];
for (const [input, want] of cases) {
  test(`repo_url without credentials: ${input}`, () => {
    const out = stripCredentials(input);
    assert.equal(out, want);
    for (const secret of ['s3cret', 'tok3n', 'abc123', ':pw@', 'private_token']) assert.ok(!out.includes(secret), out);
  });
}

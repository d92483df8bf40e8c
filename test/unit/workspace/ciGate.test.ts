// CI's own gate, read from the repository's CI configuration as text (decisions.md, "Which
// gate this repository's CI uses"), in each CI's format, and `--fail-on` as the service's CLI
// parses it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findCiGate, gateInFile, gateOfFlags } from '../../../src/core/workspace/ciGate';
import { readCiGate } from '../../../src/core/workspace/ciGateFiles';

describe('the first corgea scan command of each CI format', () => {
  test('GitHub Actions: a run block of several lines, a commented-out command before it', () => {
    const yml = [
      'jobs:',
      '  scan:',
      '    steps:',
      '      # - run: corgea scan --fail-on LO',
      '      - run: |',
      '          npm ci',
      '          corgea scan blast --block-on criticals,malicious-deps --project-name payments-api',
      '          echo done',
    ].join('\n');
    assert.deepEqual(gateInFile('.github/workflows/ci.yml', yml), {
      gate: { kind: 'block-on', slugs: ['criticals', 'malicious-deps'] }, projectName: 'payments-api',
      file: '.github/workflows/ci.yml', line: 7, command: 'corgea scan blast --block-on criticals,malicious-deps --project-name payments-api',
    });
  });

  test('a command continued over lines: a shell backslash, or a folded YAML block of options', () => {
    const backslash = 'script:\n  - corgea scan \\\n      --fail-on HI,malicious \\\n      --project-name "my app"\n';
    const g = gateInFile('.gitlab-ci.yml', backslash)!;
    assert.deepEqual(g.gate, { kind: 'fail-on', threshold: 'HI', malicious: true });
    assert.equal(g.projectName, 'my app');
    assert.equal(g.line, 2);
    const folded = 'steps:\n  - script: >\n      corgea scan blast\n      --fail-on=ME\n  - script: echo next --fail\n';
    assert.deepEqual(gateInFile('azure-pipelines.yml', folded)!.gate, { kind: 'fail-on', threshold: 'ME', malicious: false });
  });

  test('Bitbucket, CircleCI and a Jenkinsfile (its // comments too)', () => {
    assert.deepEqual(gateInFile('bitbucket-pipelines.yml', 'pipelines:\n  default:\n    - step:\n        script:\n          - corgea scan --fail\n')!.gate, { kind: 'fail' });
    assert.deepEqual(gateInFile('.circleci/config.yml', 'jobs:\n  scan:\n    steps:\n      - run:\n          command: corgea scan -f\n')!.gate, { kind: 'fail' });
    const jenkins = "pipeline {\n  stages {\n    // sh 'corgea scan --fail-on LO'\n    stage('scan') { steps { sh 'corgea scan --block-on criticals' } }\n  }\n}\n";
    const j = gateInFile('Jenkinsfile', jenkins)!;
    assert.deepEqual(j.gate, { kind: 'block-on', slugs: ['criticals'] });
    assert.equal(j.line, 4);
  });

  test('a value made when CI runs is not guessed; a scan without a gate is said as such', () => {
    assert.equal(gateInFile('Jenkinsfile', 'sh "corgea scan --block-on ${RULES}"')!.gate.kind, 'unreadable');
    assert.equal(gateInFile('.github/workflows/a.yml', 'run: corgea scan --fail-on ${{ vars.LEVEL }}')!.gate.kind, 'unreadable');
    assert.deepEqual(gateInFile('.github/workflows/a.yml', 'run: corgea scan blast --project-name app')!.gate, { kind: 'none' });
    assert.equal(gateInFile('.github/workflows/a.yml', 'run: corgea list --fail-on HI\nrun: echo corgea scanned'), undefined, 'not a scan');
  });

  test('the first file in order: workflows by name, then GitLab, Azure, Bitbucket, CircleCI, Jenkins; other files are not CI', () => {
    const found = findCiGate([
      { path: 'Jenkinsfile', text: "sh 'corgea scan --fail'" },
      { path: '.github/workflows/b.yml', text: 'run: corgea scan --fail-on CR' },
      { path: '.github/workflows/a.yml', text: 'run: npm test' },
      { path: 'scripts/ci.yml', text: 'run: corgea scan --fail-on LO' },
    ])!;
    assert.equal(found.file, '.github/workflows/b.yml');
    assert.deepEqual(found.gate, { kind: 'fail-on', threshold: 'CR', malicious: false });
    assert.equal(findCiGate([{ path: 'README.md', text: 'corgea scan --fail' }]), undefined);
  });
});

describe('--fail-on as the CLI parses it', () => {
  const cases: [string, unknown][] = [
    ['HI', { kind: 'fail-on', threshold: 'HI', malicious: false }],
    ['LO', { kind: 'fail-on', threshold: 'LO', malicious: false }],
    ['CR,ME', { kind: 'fail-on', threshold: 'ME', malicious: false }],
    ['malicious', { kind: 'fail-on', malicious: true }],
    ['HI,malicious', { kind: 'fail-on', threshold: 'HI', malicious: true }],
    [' HI , CR ', { kind: 'fail-on', threshold: 'HI', malicious: false }],
  ];
  for (const [value, gate] of cases) test(`--fail-on "${value}"`, () => assert.deepEqual(gateOfFlags(`--fail-on "${value}"`).gate, gate));
  test('what the CLI refuses is not a gate it would pass: hi, HIGH, an empty list, a stray word, combined gates', () => {
    for (const flags of ['--fail-on hi', '--fail-on HIGH', '--fail-on ,', '--fail-on HI,critical', '--fail --fail-on HI', '--block-on x --fail', '--block-on a,,b']) {
      assert.equal(gateOfFlags(flags).gate.kind, 'unreadable', flags);
    }
    assert.deepEqual(gateOfFlags('--block-on a,b,a').gate, { kind: 'block-on', slugs: ['a', 'b'] }, 'slugs de-duplicated as the CLI does');
  });
});

test('read from the folder: its workflows first, a file linked from outside never, the setting over all', async () => {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'ci-gate-'));
  const outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'ci-gate-out-'));
  try {
    assert.equal(await readCiGate(root), undefined);
    await fsp.writeFile(path.join(root, '.gitlab-ci.yml'), 'scan:\n  script:\n    - corgea scan --fail-on CR\n');
    await fsp.mkdir(path.join(root, '.github', 'workflows'), { recursive: true });
    await fsp.writeFile(path.join(outside, 'evil.yml'), 'steps:\n  - run: corgea scan --fail-on LO\n');
    await fsp.symlink(path.join(outside, 'evil.yml'), path.join(root, '.github', 'workflows', 'a.yml'));
    assert.deepEqual(await readCiGate(root), { gate: { kind: 'fail-on', threshold: 'CR', malicious: false }, file: '.gitlab-ci.yml', line: 3, command: '- corgea scan --fail-on CR' });
    await fsp.writeFile(path.join(root, '.github', 'workflows', 'scan.yaml'), 'jobs:\n  scan:\n    steps:\n      # - run: corgea scan --fail\n      - run: corgea scan --block-on criticals --project-name web\n');
    const found = await readCiGate(root);
    assert.deepEqual([found?.file, found?.line, found?.gate, found?.projectName], ['.github/workflows/scan.yaml', 5, { kind: 'block-on', slugs: ['criticals'] }, 'web']);
    assert.deepEqual((await readCiGate(root, 'corgea scan --fail-on HI,malicious'))?.gate, { kind: 'fail-on', threshold: 'HI', malicious: true });
    assert.equal((await readCiGate(root, '  '))?.file, '.github/workflows/scan.yaml');
  } finally {
    await fsp.rm(root, { recursive: true, force: true });
    await fsp.rm(outside, { recursive: true, force: true });
  }
});

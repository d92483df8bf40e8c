// Dependency findings (decisions.md, "A dependency finding"): read tolerantly, placed on the
// manifest line that names the package, and upgraded by a one-line edit where that is clear.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DependencyIssueSchema } from '../../../src/core/api/schemas';
import { applyFix } from '../../../src/core/fixes';
import {
  dependencyLine, findingKey, isUpgrade, kindOf, serviceIdOf, toStoredDependency, toStoredIssue, upgradeEdit, upgradeFix,
} from '../../../src/core/issues';

describe('a dependency finding as the service sends it', () => {
  test('every field read; severity words and codes mean the same; the key names its list', () => {
    const raw = DependencyIssueSchema.parse({
      id: 17, created_at: '2026-11-20T10:00:00Z', description: 'Command Injection in lodash', details: 'lodash before 4.17.21 …',
      severity: 'HI', classification: 'vulnerable', cve: 'CVE-2021-23337',
      package: { name: 'lodash', version: '4.17.15', ecosystem: 'npm', fix_version: '4.17.21' }, location: { path: './package.json' },
    });
    const s = toStoredDependency(raw)!;
    assert.equal(s.id, 'dependency:17');
    assert.equal(kindOf(s), 'dependency');
    assert.equal(serviceIdOf(s), '17');
    assert.equal(s.urgency, 'high');
    assert.equal(s.path, 'package.json');
    assert.equal(s.classificationId, 'CVE-2021-23337');
    assert.equal(s.classificationName, 'Command Injection in lodash');
    assert.equal(s.classificationDescription, 'lodash before 4.17.21 …');
    assert.deepEqual(s.dependency, { name: 'lodash', version: '4.17.15', ecosystem: 'npm', fixVersion: '4.17.21', cve: 'CVE-2021-23337' });
    assert.equal(s.status, '', 'the list has no status');
    for (const [given, word] of [['critical', 'critical'], ['CR', 'critical'], ['me', 'medium'], ['Low', 'low']]) {
      assert.equal(toStoredDependency({ ...raw, severity: given })!.urgency, word, given);
    }
  });

  test('nullable and missing fields: only id and location.path are needed', () => {
    const raw = DependencyIssueSchema.parse({ id: 'x', location: { path: 'requirements.txt' }, description: null, details: null, severity: null, classification: null, cve: null, package: null });
    const s = toStoredDependency(raw)!;
    assert.equal(s.urgency, 'unknown');
    assert.equal(s.classificationId, 'vulnerable-dependency');
    assert.match(s.classificationName, /^Vulnerable package /);
    assert.equal(s.dependency!.fixVersion, undefined);
    assert.equal(DependencyIssueSchema.safeParse({ id: 'y', location: {} }).success, false, 'no path: not readable');
    assert.equal(DependencyIssueSchema.safeParse({ location: { path: 'a' } }).success, false, 'no id: not readable');
    // details as the CLI types it (a string) or as an object with an explanation.
    assert.equal(toStoredDependency(DependencyIssueSchema.parse({ id: 'z', location: { path: 'go.mod' }, details: { explanation: 'why' } }))!.classificationDescription, 'why');
  });

  test('a malicious package is said as such, at critical, whatever its severity', () => {
    const s = toStoredDependency({ id: 'm', location: { path: 'package.json' }, severity: 'low', classification: 'Malicious', package: { name: 'event-stream', version: '3.3.6' } })!;
    assert.equal(s.urgency, 'critical');
    assert.equal(s.dependency!.malicious, true);
    assert.equal(s.classificationId, 'malicious');
    assert.equal(s.classificationName, 'Malicious package event-stream');
  });

  test('an id is unique within its list only: the same id in two lists is two findings', () => {
    const q = toStoredIssue({ id: '7', location: { file: { path: 'a.js' } } }, 'quality')!;
    const sec = toStoredIssue({ id: '7', location: { file: { path: 'a.js' } } }, 'security')!;
    const dep = toStoredDependency({ id: '7', location: { path: 'package.json' } })!;
    assert.deepEqual([q.id, sec.id, dep.id], ['7', 'security:7', 'dependency:7']);
    assert.deepEqual([q, sec, dep].map(serviceIdOf), ['7', '7', '7']);
    // A quality id that looks like another list's key is kept apart from it.
    const odd = toStoredIssue({ id: 'security:7', location: { file: { path: 'a.js' } } }, 'quality')!;
    assert.equal(odd.id, 'quality:security:7');
    assert.equal(serviceIdOf(odd), 'security:7');
    assert.notEqual(odd.id, findingKey('security', '7'));
  });
});

describe('the manifest line that names a package', () => {
  const pkg = '{\n  "name": "app",\n  "devDependencies": {\n    "@types/lodash": "^4.14.0"\n  },\n  "dependencies": {\n    "lodash": "^4.17.15",\n    "lodash.merge": "4.6.0"\n  }\n}\n';
  test('npm: the key of the package, not a longer name', () => {
    assert.equal(dependencyLine('package.json', pkg, 'lodash'), 7);
    assert.equal(dependencyLine('package.json', pkg, '@types/lodash'), 4);
    assert.equal(dependencyLine('web/package.json', pkg, 'left-pad'), 1, 'not named: line 1');
    assert.equal(dependencyLine('package-lock.json', '{\n  "packages": {\n    "node_modules/lodash": {\n      "version": "4.17.15"\n', 'lodash'), 3);
    assert.equal(dependencyLine('yarn.lock', '# yarn\n"@types/lodash@^4":\n  version "4.14.0"\nlodash@^4.17.15:\n', 'lodash'), 4);
    assert.equal(dependencyLine('pnpm-lock.yaml', 'packages:\n  /lodash.merge@4.6.0:\n  /lodash@4.17.15:\n', 'lodash'), 3);
  });
  test('Python: names compare as PEP 503 says', () => {
    assert.equal(dependencyLine('requirements-dev.txt', '# tools\nflask==2.0\nPyYAML==5.3\n', 'pyyaml'), 3);
    assert.equal(dependencyLine('pyproject.toml', '[project]\ndependencies = [\n  "requests>=2.25",\n]\n', 'requests'), 3);
    assert.equal(dependencyLine('requirements.txt', 'zope.interface==5\nzope_interface_extra==1\n', 'zope-interface'), 1);
  });
  test('Maven and Go', () => {
    const pom = '<project>\n  <dependencies>\n    <dependency>\n      <groupId>org.apache.logging.log4j</groupId>\n      <artifactId>log4j-core</artifactId>\n      <version>2.14.1</version>\n    </dependency>\n  </dependencies>\n</project>\n';
    assert.equal(dependencyLine('pom.xml', pom, 'org.apache.logging.log4j:log4j-core'), 5);
    assert.equal(dependencyLine('go.mod', 'module x\n\ngo 1.21\n\nrequire (\n\tgolang.org/x/text v0.3.7\n)\n', 'golang.org/x/text'), 6);
  });
});

describe('Upgrade to X: the manifest edit, where it is clear', () => {
  const dep = (name: string, fixVersion: string, version?: string) => ({ name, fixVersion, version });
  test('npm keeps the range operator and replaces the version', () => {
    const text = '{\n  "dependencies": {\n    "lodash": "^4.17.15",\n    "minimist": "1.2.5"\n  }\n}\n';
    assert.deepEqual(upgradeEdit('package.json', text, dep('lodash', '4.17.21')), { line: 2, before: '    "lodash": "^4.17.15",', after: '    "lodash": "^4.17.21",' });
    assert.equal(upgradeEdit('package.json', text, dep('minimist', '1.2.6'))!.after, '    "minimist": "1.2.6"');
    // Unclear: a range, a tag, a URL, the package named twice, a fix version that is a range.
    assert.equal(upgradeEdit('package.json', '{"dependencies": {\n"a": ">=1 <2"\n}}', dep('a', '2.0.0')), undefined);
    assert.equal(upgradeEdit('package.json', '{\n "a": "latest"\n}', dep('a', '2.0.0')), undefined);
    assert.equal(upgradeEdit('package.json', '{\n "a": "git+https://x/a.git"\n}', dep('a', '2.0.0')), undefined);
    assert.equal(upgradeEdit('package.json', '{\n "dependencies": {\n  "a": "1.0.0"\n },\n "devDependencies": {\n  "a": "1.0.0"\n }\n}', dep('a', '2.0.0')), undefined);
    assert.equal(upgradeEdit('package.json', text, dep('lodash', '>=4.17.21')), undefined);
  });
  test('requirements files and pyproject.toml', () => {
    assert.equal(upgradeEdit('requirements.txt', 'requests==2.25.1  # http\nflask\n', dep('Requests', '2.31.0'))!.after, 'requests==2.31.0  # http');
    assert.equal(upgradeEdit('requirements.txt', 'requests[socks]>=2.0 ; python_version > "3"\n', dep('requests', '2.31.0'))!.after, 'requests[socks]>=2.31.0 ; python_version > "3"');
    assert.equal(upgradeEdit('requirements.txt', 'requests\n', dep('requests', '2.31.0')), undefined, 'nothing pinned: nothing to edit');
    assert.equal(upgradeEdit('requirements.txt', 'requests>=2.0,<3\n', dep('requests', '2.31.0')), undefined, 'a range of two bounds');
    assert.equal(upgradeEdit('pyproject.toml', '[project]\ndependencies = [\n  "pyyaml==5.3",\n]\n', dep('PyYAML', '5.4'))!.after, '  "pyyaml==5.4",');
    assert.equal(upgradeEdit('pyproject.toml', '[tool.poetry.dependencies]\nrequests = "^2.25.0"\n', dep('requests', '2.31.0'))!.after, 'requests = "^2.31.0"');
    assert.equal(upgradeEdit('pyproject.toml', '[tool.poetry.dependencies]\nrequests = { version = "^2.25.0", extras = ["socks"] }\n', dep('requests', '2.31.0'))!.after, 'requests = { version = "^2.31.0", extras = ["socks"] }');
  });
  test('Maven: the literal version of the dependency block; a property is not this line\'s', () => {
    const pom = (v: string) => `<project>\n <dependencies>\n  <dependency>\n   <groupId>org.apache.logging.log4j</groupId>\n   <artifactId>log4j-core</artifactId>\n   <version>${v}</version>\n  </dependency>\n </dependencies>\n</project>\n`;
    assert.equal(upgradeEdit('pom.xml', pom('2.14.1'), dep('org.apache.logging.log4j:log4j-core', '2.17.1'))!.after, '   <version>2.17.1</version>');
    assert.equal(upgradeEdit('pom.xml', pom('${log4j.version}'), dep('org.apache.logging.log4j:log4j-core', '2.17.1')), undefined);
    assert.equal(upgradeEdit('pom.xml', pom('2.14.1'), dep('other.group:log4j-core', '2.17.1')), undefined, 'another group');
  });
  test('Go: a require line, single or in a block; never a replace', () => {
    const mod = 'module x\n\nrequire (\n\tgolang.org/x/text v0.3.7 // indirect\n)\n\nreplace golang.org/x/text v0.3.7 => ../text\n';
    assert.deepEqual(upgradeEdit('go.mod', mod, dep('golang.org/x/text', '0.3.8')), { line: 3, before: '\tgolang.org/x/text v0.3.7 // indirect', after: '\tgolang.org/x/text v0.3.8 // indirect' });
    assert.equal(upgradeEdit('go.mod', 'module x\nrequire golang.org/x/text v0.3.7\n', dep('golang.org/x/text', 'v0.3.8'))!.after, 'require golang.org/x/text v0.3.8');
  });
  test('no edit for a manifest it cannot read safely (a lock file, Gradle, Cargo)', () => {
    assert.equal(upgradeEdit('package-lock.json', '{\n "lodash": "4.17.15"\n}', dep('lodash', '4.17.21')), undefined);
    assert.equal(upgradeEdit('build.gradle', "implementation 'org.apache.logging.log4j:log4j-core:2.14.1'\n", dep('org.apache.logging.log4j:log4j-core', '2.17.1')), undefined);
  });
  test('the upgrade is a unified diff that the fix machinery applies; CRLF kept', () => {
    for (const eol of ['\n', '\r\n']) {
      const text = ['{', '  "dependencies": {', '    "lodash": "^4.17.15"', '  }', '}', ''].join(eol);
      const fix = upgradeFix('web/package.json', text, { name: 'lodash', version: '4.17.15', fixVersion: '4.17.21' })!;
      assert.match(fix.explanation, /^Upgrades lodash from 4\.17\.15 to 4\.17\.21 in web\/package\.json\. Then refresh the lock file/);
      const applied = applyFix(fix.diff, text, 'web/package.json');
      assert.ok(applied.ok, JSON.stringify(applied));
      assert.equal(applied.ok && applied.text, text.replace('^4.17.15', '^4.17.21'));
      assert.ok(isUpgrade({ dependency: { name: 'lodash' }, fix }));
    }
  });
});

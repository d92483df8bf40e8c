// A scan's three lists in the folder's findings (decisions.md, "Every list the service keeps"):
// a list that could not be read keeps its earlier findings and every other list changes; the
// same id in two lists is two findings, each dismissed on its own; findings stored before the
// lists were told apart load unchanged; a dependency finding sits on its manifest's line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toStoredDependency, toStoredIssue, type StoredIssue } from '../../../src/core/issues';
import { FindingsModel, ResultsStorage, readRecords, type KeyValueState } from '../../../src/core/results';
import type { ScanEvent, ScanRef } from '../../../src/core/scan/events';
import { toSarif } from '../../../src/core/export';
import { FILES, FOLDER, fileText, issue, model, scanRef, shown } from './helpers';

function completed(scan: ScanRef, issues: StoredIssue[]): ScanEvent {
  return { kind: 'completed', findings: { scan, issues, archived: new Set([...FILES, 'package.json']), unreadable: 0 } };
}

const PKG = '{\n  "name": "app",\n  "dependencies": {\n    "lodash": "^4.17.15",\n    "event-stream": "3.3.6"\n  }\n}\n';

function withManifest(): FindingsModel {
  return new FindingsModel({ readText: async (_f, p) => (p === 'package.json' ? PKG : fileText(p)) });
}

function of(kind: 'security' | 'quality', id: string, path: string, line = 1): StoredIssue {
  return toStoredIssue({ id, location: { file: { path }, line_number: line }, classification: { id: 'CWE-95', name: 'Eval' }, urgency: 'high' }, kind)!;
}

function lodash(id = 'd1'): StoredIssue {
  return toStoredDependency({
    id, location: { path: 'package.json' }, severity: 'high', cve: 'CVE-2021-23337', description: 'Command Injection in lodash',
    package: { name: 'lodash', version: '4.17.15', ecosystem: 'npm', fix_version: '4.17.21' },
  })!;
}

function unread(scan: ScanRef, ...kinds: ('security' | 'quality' | 'dependency')[]): ScanRef {
  return { ...scan, unreadLists: kinds.map((kind) => ({ kind, reason: 'HTTP 503' })) };
}

test('a list that could not be read keeps its earlier findings; the lists that were read change', async () => {
  const m = withManifest();
  await m.apply(FOLDER, completed(scanRef('s1'), [of('security', '1', 'a.js'), of('quality', '2', 'b.js'), lodash()]));
  // The next full scan read security and quality (both now empty) but not the dependency list.
  const e: ScanEvent = completed(unread(scanRef('s2'), 'dependency'), []);
  await m.apply(FOLDER, e);
  assert.deepEqual(shown(m), ['package.json:dependency:d1'], 'the dependency finding stays; the others are gone, read whole');
  // A partial scan of package.json whose dependency list failed changes nothing of it either.
  await m.apply(FOLDER, completed(unread(scanRef('s3', ['package.json']), 'dependency'), []));
  assert.deepEqual(shown(m), ['package.json:dependency:d1']);
  // Read again, and empty: then it is gone.
  await m.apply(FOLDER, completed(scanRef('s4'), []));
  assert.deepEqual(shown(m), []);
});

test('Refresh Results: a list that fails keeps what the folder shows of it', async () => {
  const m = withManifest();
  const s1 = scanRef('s1');
  await m.apply(FOLDER, completed(s1, [of('security', '1', 'a.js'), lodash()]));
  await m.replaceFolder(FOLDER, [{ scan: unread(s1, 'dependency'), issues: [of('security', '9', 'c.js')], archived: new Set(['a.js', 'c.js', 'package.json']) }]);
  assert.deepEqual(shown(m), ['c.js:security:9', 'package.json:dependency:d1']);
});

test('the same id in the security and the quality list: two findings, each dismissed and fixed on its own', async () => {
  const m = model();
  await m.apply(FOLDER, completed(scanRef('s1'), [of('security', '42', 'a.js', 2), of('quality', '42', 'a.js', 2)]));
  assert.deepEqual(shown(m), ['a.js:42', 'a.js:security:42']);
  const sec = m.get(FOLDER, 'security:42')!;
  m.dismiss([{ folderUri: FOLDER, issue: sec }], 'wont-fix');
  assert.ok(m.dismissalOf(sec));
  assert.equal(m.dismissalOf(m.get(FOLDER, '42')!), undefined, 'the quality finding on the same line stays');
  m.takeOut([{ folderUri: FOLDER, issueId: '42' }]);
  assert.deepEqual(shown(m), ['a.js:security:42']);
  assert.ok(m.isFixed(FOLDER, '42') && !m.isFixed(FOLDER, 'security:42'));
});

test('a dependency finding sits on the line naming its package, with its upgrade as its fix', async () => {
  const m = withManifest();
  await m.apply(FOLDER, completed(scanRef('s1'), [lodash(), toStoredDependency({ id: 'm', classification: 'malicious', location: { path: 'package.json' }, package: { name: 'event-stream', version: '3.3.6' } })!]));
  const l = m.get(FOLDER, 'dependency:d1')!;
  assert.equal(l.range!.start.line, 3);
  assert.equal(l.lineText, '    "lodash": "^4.17.15",');
  assert.equal(l.fix?.status, 'upgrade');
  assert.ok(l.inArchive);
  const mal = m.get(FOLDER, 'dependency:m')!;
  assert.equal(mal.range!.start.line, 4);
  assert.equal(mal.fix, undefined, 'no fixed version: no upgrade');
});

test('findings stored before the lists were told apart load unchanged; an id like another list\'s key is kept apart', () => {
  const old = issue('abc', 'a.js');
  const odd = issue('security:7', 'b.js');
  const { folders, dropped } = readRecords([
    { kind: 'folder', folderUri: FOLDER, scans: [{ scanId: 's', scannedAt: '2026-11-25T10:00:00Z' }] },
    { kind: 'issues', folderUri: FOLDER, issues: [old, odd] },
  ]);
  assert.deepEqual(dropped, []);
  assert.deepEqual(folders[0]!.issues[0], old, 'unchanged, as it was stored');
  assert.deepEqual(folders[0]!.issues[1], { ...odd, id: 'quality:security:7', kind: 'quality' });
  // Read back after it was written again: the same key, not prefixed twice.
  const again = readRecords([
    { kind: 'folder', folderUri: FOLDER, scans: [] }, { kind: 'issues', folderUri: FOLDER, issues: folders[0]!.issues },
  ]);
  assert.deepEqual(again.folders[0]!.issues.map((i) => i.id), ['abc', 'quality:security:7']);
});

test('the new fields of a finding are stored and read back', async () => {
  const m = withManifest();
  const sec = toStoredIssue({ id: '1', location: { file: { path: 'a.js' } }, details: { explanation: 'why' } }, 'security')!;
  await m.apply(FOLDER, completed({ ...scanRef('s1'), absentLists: ['dependency'] }, [sec, lodash()]));
  const data = new Map<string, unknown>();
  const state: KeyValueState = { get: <T>(k: string) => data.get(k) as T, update: (k, v) => { data.set(k, JSON.parse(JSON.stringify(v))); return Promise.resolve(); } };
  await new ResultsStorage(state, undefined, () => ({ ...m.snapshot() })).write();
  const { snapshot } = new ResultsStorage(state, undefined, () => ({ folders: [], dismissals: {} })).initial();
  const back = snapshot.folders[0]!;
  assert.deepEqual(back.issues, JSON.parse(JSON.stringify(m.issuesIn(FOLDER))));
  assert.deepEqual(back.scans[0]!.absentLists, ['dependency']);
});

test('SARIF: one rule per classification tagged with its list; a dependency\'s CVE, package and fix', async () => {
  const m = withManifest();
  await m.apply(FOLDER, completed(scanRef('s1'), [of('security', '1', 'a.js'), of('quality', '1', 'b.js'), lodash()]));
  const log = toSarif([{
    folderUri: FOLDER, name: 'app', findings: m.issuesIn(FOLDER).map((issue) => ({ issue })), scanIds: ['s1'],
    readText: (p) => (p === 'package.json' ? PKG : fileText(p)),
  }], { tool: { name: 'T', version: '1' } });
  const run = log.runs[0]!;
  assert.deepEqual(run.tool.driver.rules!.map((r) => [r.id, r.properties?.tags]), [['CWE-95', ['security', 'quality']], ['CVE-2021-23337', ['dependency']]]);
  assert.ok(run.tool.driver.rules!.some((r) => r.id === 'CVE-2021-23337' && r.helpUri === 'https://nvd.nist.gov/vuln/detail/CVE-2021-23337'));
  const dep = run.results!.find((r) => r.ruleId === 'CVE-2021-23337')!;
  assert.deepEqual({ ...dep.properties }, { ...dep.properties, kind: 'dependency', package: 'lodash', installedVersion: '4.17.15', ecosystem: 'npm', cve: 'CVE-2021-23337', fixVersion: '4.17.21' });
  assert.equal(dep.locations![0]!.physicalLocation!.region!.startLine, 4);
  assert.equal(dep.fixes?.[0]?.artifactChanges[0]!.replacements[0]!.insertedContent!.text, '    "lodash": "^4.17.21",\n');
  const fingerprints = run.results!.map((r) => r.partialFingerprints!['codeScannerFinding/v1']);
  assert.equal(new Set(fingerprints).size, 3, 'the same service id in two lists: two fingerprints');
});

test('Refresh Results keeps a dependency finding where the editor followed it, with its line and its upgrade', async () => {
  const m = withManifest();
  const s1 = scanRef('s1');
  await m.apply(FOLDER, completed(s1, [lodash()]));
  // Two lines typed above it: the editor follows it to line 6.
  m.followEdits(FOLDER, 'package.json', [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '\n\n' }]);
  assert.equal(m.get(FOLDER, 'dependency:d1')!.range!.start.line, 5);
  await m.replaceFolder(FOLDER, [{ scan: s1, issues: [lodash()], archived: new Set(['package.json']) }]);
  const again = m.get(FOLDER, 'dependency:d1')!;
  assert.equal(again.range!.start.line, 5);
  assert.equal(again.line, 6, 'its line is where it is');
  assert.equal(again.fix?.status, 'upgrade', 'a refresh keeps its upgrade');
});

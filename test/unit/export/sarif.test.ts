// The SARIF export: valid against the official SARIF 2.1.0 schema (Ajv, draft-04), rules
// from classifications with CWE taxonomy references, results where the findings are now,
// fixes whose replacements turn the current text into the fixed one, suppressions, and
// server text that cannot become a link in a viewer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type * as Sarif from 'sarif';
import { relativeUri, sarifText, toSarif, type ExportedFolder } from '../../../src/core/export';
import type { StoredIssue } from '../../../src/core/issues';

const schema = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/sarif/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
// unicodeRegExp off: the published rtm.5 schema's `language` pattern has a stray `]`
// (`...{2}]?$`) that a Unicode-mode RegExp rejects; the errata release fixed the pattern.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);

const TEXT = 'import db from "./db";\nexport function find(id) {\n  const q = "SELECT * FROM t WHERE id = " + id;\n  return db.query(q);\n}\n';
const DIFF = [
  '--- a/src/find.js', '+++ b/src/find.js', '@@ -2,4 +2,4 @@',
  ' export function find(id) {', '-  const q = "SELECT * FROM t WHERE id = " + id;', '-  return db.query(q);', '+  const q = "SELECT * FROM t WHERE id = ?";', '+  return db.query(q, [id]);', ' }', '',
].join('\n');

function issue(extra: Partial<StoredIssue>): StoredIssue {
  return {
    id: 'i-1', classificationId: 'CWE-89', classificationName: 'SQL Injection', classificationDescription: 'User input reaches a query.',
    urgency: 'high', status: 'open', path: 'src/find.js', line: 3, falsePositive: false, inArchive: true,
    range: { start: { line: 2, character: 2 }, end: { line: 2, character: 46 } }, ...extra,
  };
}

function folder(findings: ExportedFolder['findings'], texts: Record<string, string> = { 'src/find.js': TEXT }): ExportedFolder {
  return { folderUri: 'file:///work/app', name: 'app', findings, readText: (p) => texts[p], scanIds: ['scan-7'] };
}

/** Applies a SARIF fix's replacements (char offsets) to the text, last first. */
function applyReplacements(text: string, fix: Sarif.Fix): string {
  const reps = [...fix.artifactChanges[0]!.replacements].sort((a, b) => b.deletedRegion.charOffset! - a.deletedRegion.charOffset!);
  for (const r of reps) text = text.slice(0, r.deletedRegion.charOffset!) + (r.insertedContent?.text ?? '') + text.slice(r.deletedRegion.charOffset! + r.deletedRegion.charLength!);
  return text;
}

function assertValid(log: unknown) {
  const ok = validate(log);
  assert.ok(ok, `schema errors: ${JSON.stringify(validate.errors, null, 1)}`);
}

test('a log with rules, CWE taxonomy, tracked locations and a fix validates against the SARIF 2.1.0 schema', () => {
  const log = toSarif([folder([
    { issue: issue({ fix: { diff: DIFF, explanation: 'Bind the id as a parameter.', status: 'fix_available' } }) },
    { issue: issue({ id: 'i-2', classificationId: 'CWE-79', classificationName: 'XSS', urgency: 'LO', line: 4, range: { start: { line: 3, character: 2 }, end: { line: 3, character: 20 } } }) },
    { issue: issue({ id: 'i-3', classificationId: 'custom-rule', classificationName: '', urgency: 'weird', range: undefined, stale: true, line: 9 }) },
  ])], { tool: { name: 'Code Scanner', version: '0.1.0' } });
  assertValid(log);
  const run = log.runs[0]!;
  assert.deepEqual(run.tool.driver.rules!.map((r) => r.id), ['CWE-89', 'CWE-79', 'custom-rule']);
  assert.equal(run.tool.driver.rules![0]!.helpUri, 'https://cwe.mitre.org/data/definitions/89.html');
  assert.deepEqual(run.taxonomies![0]!.taxa!.map((t) => t.id), ['89', '79']);
  assert.deepEqual(run.tool.driver.rules![0]!.relationships![0]!.target, { id: '89', toolComponent: { name: 'CWE' } });
  assert.deepEqual(run.results!.map((r) => r.level), ['error', 'note', 'warning']);
  assert.deepEqual(run.results![0]!.locations![0]!.physicalLocation!.region, { startLine: 3, startColumn: 3, endLine: 3, endColumn: 47 });
  assert.deepEqual(run.results![2]!.locations![0]!.physicalLocation!.region, { startLine: 9 });
  assert.equal(run.originalUriBaseIds!.SRCROOT!.uri, 'file:///work/app/');
  // The fix, applied as the replacements say, gives the fixed file.
  const fix = run.results![0]!.fixes![0]!;
  assert.equal(applyReplacements(TEXT, fix), TEXT.replace('id = " + id;', 'id = ?";').replace('db.query(q)', 'db.query(q, [id])'));
  const del = fix.artifactChanges[0]!.replacements[0]!.deletedRegion;
  assert.deepEqual([del.startLine, del.startColumn, del.endLine, del.endColumn], [3, 1, 5, 1]);
});

test('a fix that no longer applies to the current text is left out, the result stays', () => {
  const log = toSarif([folder([{ issue: issue({ fix: { diff: DIFF, explanation: 'x', status: 'fix_available' } }) }], { 'src/find.js': 'completely different\n' })], { tool: { name: 'Code Scanner', version: '0.1.0' } });
  assertValid(log);
  assert.equal(log.runs[0]!.results!.length, 1);
  assert.equal(log.runs[0]!.results![0]!.fixes, undefined);
});

test('false positives and local dismissals become suppressions', () => {
  const log = toSarif([folder([
    { issue: issue({ falsePositive: true, triageReasoning: 'Input is a constant.' }) },
    { issue: issue({ id: 'i-2' }), dismissal: { reason: 'accepted-risk', at: '2026-11-20T10:00:00.000Z' } },
  ])], { tool: { name: 'Code Scanner', version: '0.1.0' } });
  assertValid(log);
  const [fp, dismissed] = log.runs[0]!.results!;
  assert.deepEqual(fp!.suppressions, [{ kind: 'external', status: 'underReview', justification: "The service's auto-triage judged this a likely false positive: Input is a constant." }]);
  assert.equal(fp!.level, 'note');
  assert.equal(dismissed!.suppressions![0]!.status, 'accepted');
  assert.match(dismissed!.suppressions![0]!.justification!, /accepted risk on 2026-11-20/);
});

test('server text cannot make links in a viewer: brackets are escaped in every message', () => {
  const hostile = 'Open [the guide](https://evil.example/x) or [1](0)';
  assert.equal(sarifText(hostile), 'Open \\[the guide\\](https://evil.example/x) or \\[1\\](0)');
  const log = toSarif([folder([{ issue: issue({ classificationName: hostile, classificationDescription: hostile, path: 'src/[x](y).js' }) }])], { tool: { name: 'Code Scanner', version: '0.1.0' } });
  assertValid(log);
  const json = JSON.stringify(log);
  assert.ok(!/[^\\]\[the guide\]/.test(JSON.parse(JSON.stringify(json)) as string), 'no unescaped link text');
  const r = log.runs[0]!.results![0]!;
  assert.ok(r.message.text!.includes('\\[the guide\\]'));
  assert.equal(r.locations![0]!.physicalLocation!.artifactLocation!.uri, 'src/%5Bx%5D(y).js');
});

test('paths become relative URI references segment by segment: # ? % and spaces stay part of the name', () => {
  assert.equal(relativeUri('docs/a b#1?.md'), 'docs/a%20b%231%3F.md');
  assert.equal(relativeUri('src/100%/é.ts'), 'src/100%25/%C3%A9.ts');
  assert.equal(decodeURIComponent(relativeUri('x/#y').split('/')[1]!), '#y');
});

test('the validator rejects what the schema forbids (the check can fail)', () => {
  assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] }), false);
  assert.equal(validate({ version: '2.0.0', runs: [] }), false);
});

test('a finding whose path leads out of the folder is not exported (a viewer would open that file)', () => {
  const log = toSarif([folder([{ issue: issue({}) }, { issue: issue({ id: 'out', path: '../../etc/passwd' }) }, { issue: issue({ id: 'abs', path: '/etc/passwd' }) }])], { tool: { name: 'Code Scanner', version: '1.0.0' } });
  const run = log.runs[0];
  assert.deepEqual(run.results!.map((r) => r.partialFingerprints!['codeScannerFinding/v1']), ['i-1']);
  assert.ok(!JSON.stringify(run.artifacts).includes('passwd'));
});

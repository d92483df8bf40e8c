// A fix judged by the scan of its saved file: verified, not removed, or the cause of new
// findings; a fix taken back before the scan is not judged. The service gives findings new
// ids in each scan, so they are matched by classification, line text and the fix's lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredIssue } from '../../../src/core/issues';
import { fixBlocks } from '../../../src/core/results';
import { judgeFile, priorKeys, type FixCheck } from '../../../src/core/results/fixChecks';
import { FOLDER } from './helpers';

const BEFORE = [
  'function newSession(userId) {',
  '  const sessionToken = Math.random().toString(36).slice(2);',
  '  debugger; // new session',
  '  console.log(userId);',
  '  return { userId, sessionToken };',
  '}',
  '',
].join('\n');

function finding(id: string, line: number, classificationId: string, text: string, lineText = text): StoredIssue {
  return {
    id, path: 'src/session.js', line, classificationId, classificationName: classificationId, classificationDescription: '',
    urgency: 'medium', status: 'open', falsePositive: false, lineText,
    range: { start: { line: line - 1, character: 0 }, end: { line: line - 1, character: lineText.length } },
  };
}

const random = finding('r1', 2, 'CWE-338', 'random', '  const sessionToken = Math.random().toString(36).slice(2);');
const breakpoint = finding('d1', 3, 'CWE-489', 'debugger', '  debugger; // new session');
const consoleLine = finding('c1', 4, 'CWE-489', 'console', '  console.log(userId);');

function check(id: number, fixed: StoredIssue, line: number, text: string, before = BEFORE, others = [random, breakpoint, consoleLine]): { check: FixCheck; after: string } {
  const edits = [{ startLine: line - 1, endLine: line, text: `${text}\n` }];
  const lines = before.split('\n');
  lines.splice(line - 1, 1, text);
  return {
    after: lines.join('\n'),
    check: { id, folderUri: FOLDER, path: 'src/session.js', fixed, blocks: fixBlocks(before, edits), prior: priorKeys(others, new Set([fixed.id])), state: { kind: 'verifying' } },
  };
}

const AT = '2026-11-29T08:00:00.000Z';
const rescanned = (id: string, f: StoredIssue, text: string, line = f.line) => ({ ...finding(id, line, f.classificationId, '', text) });

describe('fix checks', () => {
  it('the finding no longer reported: verified; the file\'s other findings, under new ids, are not new', () => {
    const { check: c, after } = check(1, breakpoint, 3, '  // new session');
    const scanned = [rescanned('r2', random, random.lineText!), rescanned('c2', consoleLine, consoleLine.lineText!)];
    assert.deepEqual(judgeFile([c], after, scanned, AT).get(1), { kind: 'verified', at: AT });
  });

  it('the fixed finding reported again on the line the fix wrote: not removed, named by its new key', () => {
    const fixedLine = '  const sessionToken = (Math.random() * Date.now()).toString(36).slice(2);';
    const { check: c, after } = check(1, random, 2, fixedLine);
    const scanned = [rescanned('r2', random, fixedLine), rescanned('d2', breakpoint, breakpoint.lineText!), rescanned('c2', consoleLine, consoleLine.lineText!)];
    assert.deepEqual(judgeFile([c], after, scanned, AT).get(1), { kind: 'notRemoved', at: AT, issueId: 'r2' });
  });

  it('a finding of another classification on the fix\'s lines that was not there before: introduced', () => {
    const guard = "  if (arguments[0] == '') console.warn('new session without an argument');";
    const { check: c, after } = check(1, breakpoint, 3, guard);
    const eq = finding('e1', 3, 'CWE-480', 'loose', guard);
    const scanned = [rescanned('r2', random, random.lineText!), eq, rescanned('c2', consoleLine, consoleLine.lineText!)];
    assert.deepEqual(judgeFile([c], after, scanned, AT).get(1), { kind: 'introduced', at: AT, issueIds: ['e1'] });
  });

  it('a new finding away from the fix\'s lines is not the fix\'s doing', () => {
    const { check: c, after } = check(1, breakpoint, 3, '  // new session');
    const elsewhere = finding('x1', 6, 'CWE-480', 'loose', '}');
    const scanned = [rescanned('r2', random, random.lineText!), rescanned('c2', consoleLine, consoleLine.lineText!), elsewhere];
    assert.equal(judgeFile([c], after, scanned, AT).get(1)?.kind, 'verified');
  });

  it('two fixes in one file, judged at once: each by its own lines, one scanned finding counted once', () => {
    const fixedLine = '  const sessionToken = (Math.random() * Date.now()).toString(36).slice(2);';
    const first = check(1, random, 2, fixedLine);
    const second = check(2, breakpoint, 3, '  // new session', first.after, [breakpoint, consoleLine]);
    const scanned = [rescanned('r2', random, fixedLine), rescanned('c2', consoleLine, consoleLine.lineText!)];
    const out = judgeFile([first.check, second.check], second.after, scanned, AT);
    assert.equal(out.get(1)?.kind, 'notRemoved');
    assert.equal(out.get(2)?.kind, 'verified');
  });

  it('a fix the scanned text no longer holds (taken back before the scan) is not judged', () => {
    const { check: c } = check(1, breakpoint, 3, '  // new session');
    const out = judgeFile([c], BEFORE, [random, breakpoint, consoleLine], AT);
    assert.ok(out.has(1));
    assert.equal(out.get(1), undefined);
  });
});

// A folder's findings change only when a scan has completed and was read whole; a cancel,
// a failure or unreadable results keep them (and their dismissals) exactly, and say what
// happened. Scans apply in the order they were uploaded, whatever order they end in.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { folderNotes } from '../../../src/core/results';
import type { ScanEvent, ScanRef } from '../../../src/core/scan/events';
import { FOLDER, completed, issue, model, scanRef, shown } from './helpers';

const NOW = new Date('2026-11-25T12:00:00Z');

async function withBaseline() {
  const m = model();
  const base = scanRef('s0');
  await m.apply(FOLDER, { kind: 'uploaded', scan: base });
  await m.apply(FOLDER, completed(base, [issue('1', 'a.js', 2), issue('2', 'b.js', 3), issue('3', 'c.js', 4)]));
  return { m, base };
}

describe('findings lifecycle', () => {
  test('an uploaded scan is waited for; nothing is shown and nothing says "no issues" until it completes', async () => {
    const m = model();
    const s = scanRef('s1');
    await m.apply(FOLDER, { kind: 'uploaded', scan: s });
    assert.equal(m.hasResults(), false);
    assert.deepEqual(m.pendingOf(FOLDER).map((p) => [p.scanId, p.waiting]), [['s1', true]]);
    await m.apply(FOLDER, completed(s, []));
    assert.equal(m.hasResults(), true, 'a completed scan that found none: now "no issues" is true');
    assert.deepEqual(m.pendingOf(FOLDER), []);
  });

  test('a full scan replaces every finding; a partial scan only those of its files', async () => {
    const { m } = await withBaseline();
    const p = scanRef('p1', ['b.js']);
    await m.apply(FOLDER, completed(p, [issue('4', 'b.js', 5)]));
    assert.deepEqual(shown(m), ['a.js:1', 'b.js:4', 'c.js:3']);
    const f = scanRef('f1');
    await m.apply(FOLDER, completed(f, [issue('5', 'd.js')]));
    assert.deepEqual(shown(m), ['d.js:5']);
    assert.deepEqual(m.scansOf(FOLDER).map((s) => s.scanId), ['f1']);
  });

  for (const [name, event] of [
    ['cancelled while the service scans', (s: ScanRef): ScanEvent => ({ kind: 'stopped', scan: s, why: 'cancelled' })],
    ['failed on the service', (s: ScanRef): ScanEvent => ({ kind: 'failed', scan: s, reason: 'The archive holds no supported files' })],
    ['findings that could not be read', (s: ScanRef): ScanEvent => ({ kind: 'stopped', scan: s, why: 'unreadable', detail: 'HTTP 503' })],
    ['a state the service could not be asked for', (s: ScanRef): ScanEvent => ({ kind: 'stopped', scan: s, why: 'unknown', detail: 'connection lost' })],
  ] as const) {
    for (const partial of [false, true]) {
      test(`${name} (${partial ? 'partial' : 'full'} scan): findings and dismissals stay exactly, and the folder says what happened`, async () => {
        const { m, base } = await withBaseline();
        const dismissed = m.issuesIn(FOLDER).find((i) => i.path === 'b.js')!;
        m.dismiss([{ folderUri: FOLDER, issue: dismissed }], 'false-positive');
        const before = JSON.stringify(m.issuesIn(FOLDER));
        const s = scanRef('s1', partial ? ['b.js', 'c.js'] : undefined);
        await m.apply(FOLDER, { kind: 'uploaded', scan: s });
        await m.apply(FOLDER, event(s));
        assert.equal(JSON.stringify(m.issuesIn(FOLDER)), before);
        assert.ok(m.dismissalOf(m.issuesIn(FOLDER).find((i) => i.id === dismissed.id)!), 'the dismissal stays');
        assert.deepEqual(m.scansOf(FOLDER), [base]);
        assert.equal(m.hasResults(), true);
        const notes = folderNotes(m.folder(FOLDER)!, NOW);
        assert.equal(notes.length, 1, notes.join(' | '));
        assert.match(notes[0], /stopped waiting|failed on the service: The archive holds no supported files|could not be read \(HTTP 503\)|could not be asked how the scan of .* went \(connection lost\)/);
        const kind = event(s).kind;
        assert.equal(m.pendingOf(FOLDER).length, kind === 'failed' ? 0 : 1, 'a scan that may still end stays for Refresh Results');
      });
    }
  }

  test('a cancel before the service had the scan is said too, with nothing waited for', async () => {
    const { m } = await withBaseline();
    m.noteAttempt(FOLDER, { kind: 'cancelled' });
    assert.deepEqual(shown(m), ['a.js:1', 'b.js:2', 'c.js:3']);
    assert.match(folderNotes(m.folder(FOLDER)!, NOW)[0], /^The last scan \(.+\) was cancelled\.$/);
    assert.deepEqual(m.pendingOf(FOLDER), []);
  });

  test('a later completed scan clears the note; an older one completing later does not hide a newer failure', async () => {
    const { m } = await withBaseline();
    const old = scanRef('old', ['a.js']);
    await m.apply(FOLDER, { kind: 'uploaded', scan: old });
    await m.apply(FOLDER, { kind: 'stopped', scan: old, why: 'cancelled' });
    const failed = scanRef('failed');
    await m.apply(FOLDER, { kind: 'uploaded', scan: failed });
    await m.apply(FOLDER, { kind: 'failed', scan: failed, reason: 'quota' });
    // Refresh Results finds the older partial scan done: its findings apply, the failure is still news.
    await m.apply(FOLDER, completed(old, [issue('9', 'a.js', 7)]));
    assert.deepEqual(shown(m), ['a.js:9', 'b.js:2', 'c.js:3']);
    assert.match(folderNotes(m.folder(FOLDER)!, NOW).join(' '), /failed on the service: quota/);
    const next = scanRef('next');
    await m.apply(FOLDER, completed(next, [issue('10', 'd.js')]));
    assert.deepEqual(folderNotes(m.folder(FOLDER)!, NOW), []);
  });

  test('Ignore This Scan forgets that scan only: every earlier scan\'s findings stay', async () => {
    const { m, base } = await withBaseline();
    const p = scanRef('p1', ['a.js']);
    await m.apply(FOLDER, completed(p, [issue('4', 'a.js', 6)]));
    const s = scanRef('s2');
    await m.apply(FOLDER, { kind: 'uploaded', scan: s });
    await m.apply(FOLDER, { kind: 'stopped', scan: s, why: 'cancelled' });
    assert.equal(m.forgetScan('s2'), true);
    assert.deepEqual(shown(m), ['a.js:4', 'b.js:2', 'c.js:3']);
    assert.deepEqual(m.scansOf(FOLDER).map((x) => x.scanId), [base.scanId, 'p1']);
    assert.deepEqual(m.pendingOf(FOLDER), []);
    assert.deepEqual(folderNotes(m.folder(FOLDER)!, NOW), []);
    assert.equal(m.forgetScan('s2'), false, 'nothing left to forget');
  });

  test('a folder whose only scan was ignored is gone whole; one whose first scan failed says so without claiming "no issues"', async () => {
    const m = model();
    const s = scanRef('s1');
    await m.apply(FOLDER, { kind: 'uploaded', scan: s });
    await m.apply(FOLDER, { kind: 'failed', scan: s, reason: 'boom' });
    assert.equal(m.hasResults(), false);
    assert.match(folderNotes(m.folder(FOLDER)!, NOW)[0], /failed on the service: boom/);
    const t = scanRef('s2');
    await m.apply(FOLDER, { kind: 'uploaded', scan: t });
    await m.apply(FOLDER, { kind: 'stopped', scan: t, why: 'cancelled' });
    m.forgetScan('s2');
    assert.equal(m.folder(FOLDER), undefined);
  });

  test('unreadable findings of a completed scan are counted per scan kept', async () => {
    const m = model();
    await m.apply(FOLDER, completed(scanRef('f'), [issue('1', 'a.js')], 2));
    await m.apply(FOLDER, completed(scanRef('p', ['b.js']), [], 1));
    assert.equal(m.unreadableCount(), 3);
    await m.apply(FOLDER, completed(scanRef('g'), [], 0));
    assert.equal(m.unreadableCount(), 0);
  });

  test('a finding whose file is gone or outside the folder is left out; a fix taken out stays out of a refresh until a scan speaks for its file', async () => {
    const m = model({ 'a.js': 'x\n' });
    const f = scanRef('f');
    await m.apply(FOLDER, completed(f, [issue('1', 'a.js'), issue('2', 'gone.js'), issue('3', '../outside.js')]));
    assert.deepEqual(shown(m), ['a.js:1']);
    const taken = m.takeOut([{ folderUri: FOLDER, issueId: '1' }]);
    assert.deepEqual(shown(m), []);
    await m.replaceFolder(FOLDER, [{ scan: f, issues: [issue('1', 'a.js')], archived: undefined }]);
    assert.deepEqual(shown(m), [], 'a refresh of the same scan does not bring a fixed finding back');
    m.putBack(taken.map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id })));
    assert.deepEqual(shown(m), ['a.js:1'], 'putting it back does');
    m.takeOut([{ folderUri: FOLDER, issueId: '1' }]);
    await m.apply(FOLDER, completed(scanRef('p', ['a.js']), [issue('1', 'a.js')]));
    assert.deepEqual(shown(m), ['a.js:1'], 'a new scan of its file does');
  });

  test('after a full scan an undo of an older fix brings no ghost back: the scan speaks for every file', async () => {
    const m = model({ 'a.js': 'x\n' });
    await m.apply(FOLDER, completed(scanRef('f'), [issue('1', 'a.js')]));
    m.takeOut([{ folderUri: FOLDER, issueId: '1' }], () => [['fixed']]);
    await m.apply(FOLDER, completed(scanRef('g'), [issue('2', 'a.js')]));
    m.putBack([{ folderUri: FOLDER, issueId: '1' }]);
    assert.equal(await m.revisit(FOLDER), 0, 'nothing is left to look at');
    assert.deepEqual(shown(m), ['a.js:2']);
  });

  test('edits move findings; an edit that removes a finding\'s code takes it out', async () => {
    const m = model({ 'a.js': 'one\ntwo\nthree\n' });
    await m.apply(FOLDER, completed(scanRef('f'), [issue('1', 'a.js', 2)]));
    const changes: string[] = [];
    m.onDidChange((c) => changes.push(c.all ? 'all' : c.moved ? 'moved' : 'files'));
    m.followEdits(FOLDER, 'a.js', [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'zero\n' }]);
    assert.equal(m.get(FOLDER, '1')?.range?.start.line, 2);
    m.followEdits(FOLDER, 'a.js', [{ range: { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } }, text: '' }]);
    assert.equal(m.get(FOLDER, '1'), undefined);
    assert.deepEqual(changes, ['moved', 'files']);
  });
});

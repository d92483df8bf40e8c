// Every interleaving of three scans ending: a full scan, a partial scan and another full
// scan, uploaded in that order, each completing, failing or being cancelled, in every order
// they may end in. Whatever the order, the folder shows what applying the completed scans in
// upload order gives, its dismissals survive, and a scan nobody waits for any more is gone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredIssue } from '../../../src/core/issues';
import type { ScanEvent, ScanRef } from '../../../src/core/scan/events';
import { FOLDER, completed, issue, model, scanRef, shown } from './helpers';

type End = 'complete' | 'fail' | 'cancel';

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** What each scan finds (fresh objects each time: placing changes them). */
const FOUND: Record<string, () => StoredIssue[]> = {
  A: () => [issue('A1', 'a.js'), issue('A2', 'b.js'), issue('A3', 'c.js')],
  B: () => [issue('B1', 'b.js', 4)],
  C: () => [issue('C1', 'c.js', 5), issue('C2', 'd.js')],
};
const PARTIAL: Record<string, string[] | undefined> = { A: undefined, B: ['b.js'], C: undefined };

/** The expected findings: the baseline, then each completed scan in upload order. */
function expected(ends: Record<string, End>): string[] {
  let now = new Map<string, string[]>([['a.js', ['a.js:0a']], ['b.js', ['b.js:0b']]]);
  for (const name of ['A', 'B', 'C']) {
    if (ends[name] !== 'complete') continue;
    const files = PARTIAL[name];
    const next = files ? new Map([...now].filter(([p]) => !files.includes(p))) : new Map<string, string[]>();
    for (const i of FOUND[name]()) next.set(i.path, [...(next.get(i.path) ?? []), `${i.path}:${i.id}`]);
    now = next;
  }
  return [...now.values()].flat().sort();
}

test('every order of three scans ending, each completed, failed or cancelled, gives the findings of the completed ones in upload order', async () => {
  const ends: End[] = ['complete', 'fail', 'cancel'];
  let cases = 0;
  for (const a of ends) for (const b of ends) for (const c of ends) {
    const outcome: Record<string, End> = { A: a, B: b, C: c };
    for (const order of permutations(['A', 'B', 'C'])) {
      const m = model();
      const base = scanRef('base');
      await m.apply(FOLDER, completed(base, [issue('0a', 'a.js'), issue('0b', 'b.js')]));
      m.dismiss([{ folderUri: FOLDER, issue: m.get(FOLDER, '0a')! }], 'accepted-risk');
      const scans: Record<string, ScanRef> = {};
      for (const name of ['A', 'B', 'C']) {
        scans[name] = scanRef(name, PARTIAL[name]);
        await m.apply(FOLDER, { kind: 'uploaded', scan: scans[name] });
      }
      for (const name of order) {
        const s = scans[name];
        const e: ScanEvent = outcome[name] === 'complete' ? completed(s, FOUND[name]())
          : outcome[name] === 'fail' ? { kind: 'failed', scan: s, reason: 'boom' }
            : { kind: 'stopped', scan: s, why: 'cancelled' };
        await m.apply(FOLDER, e);
      }
      const where = `ends ${JSON.stringify(outcome)}, in the order ${order.join('')}`;
      assert.deepEqual(shown(m), expected(outcome), where);
      assert.equal(m.hasResults(), true, where);
      const zeroA = m.get(FOLDER, '0a');
      if (zeroA) assert.equal(m.dismissalOf(zeroA)?.reason, 'accepted-risk', `${where}: the dismissal stays`);
      // A scan still worth asking about: cancelled, and not older than a completed full scan.
      const lastFull = ['A', 'C'].filter((n) => outcome[n] === 'complete').map((n) => scans[n].scannedAt).sort().at(-1) ?? '';
      const waited = ['A', 'B', 'C'].filter((n) => outcome[n] === 'cancel' && scans[n].scannedAt > lastFull);
      assert.deepEqual(m.pendingOf(FOLDER).map((p) => p.scanId).sort(), waited.sort(), `${where}: scans left for Refresh Results`);
      cases++;
    }
  }
  assert.equal(cases, 27 * 6);
});

test('two completions of the same folder at once do not lose either one', async () => {
  const m = model();
  const a = scanRef('pa', ['a.js']);
  const b = scanRef('pb', ['b.js']);
  await Promise.all([m.apply(FOLDER, completed(a, [issue('1', 'a.js')])), m.apply(FOLDER, completed(b, [issue('2', 'b.js')]))]);
  assert.deepEqual(shown(m), ['a.js:1', 'b.js:2']);
});

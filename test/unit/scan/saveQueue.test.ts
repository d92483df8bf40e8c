// Scan on save's queue, on a clock the test moves: saves gathered into one scan after a
// quiet moment, never two scans at once, a least interval between starts, a 429 pausing it
// with the files kept, and a failure that waits for the next save instead of looping.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_PAUSE_MS, SaveQueue, type SaveQueueClock, type SaveQueueState, type SaveScanResult } from '../../../src/core/scan/saveQueue';

class FakeClock implements SaveQueueClock {
  t = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  now() { return this.t; }
  setTimeout(fn: () => void, ms: number) { const id = this.next++; this.timers.set(id, { at: this.t + ms, fn }); return id; }
  clearTimeout(h: unknown) { this.timers.delete(h as number); }
  /** Moves time on, firing timers in order; lets promises settle after each. */
  async advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers].filter(([, v]) => v.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}

async function settle() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function setup(results: (SaveScanResult | (() => Promise<SaveScanResult>))[] = []) {
  const clock = new FakeClock();
  const runs: { at: number; files: string[] }[] = [];
  const states: SaveQueueState['kind'][] = [];
  const q = new SaveQueue({
    quietMs: 1000,
    minIntervalMs: 10_000,
    clock,
    onState: (s) => states.push(s.kind),
    run: async (files) => {
      runs.push({ at: clock.t, files: [...files].flatMap(([f, ps]) => [...ps].map((p) => `${f}/${p}`)).sort() });
      const r = results.shift() ?? { kind: 'done' };
      return typeof r === 'function' ? r() : r;
    },
  });
  return { q, clock, runs, states };
}

test('saves within the quiet moment go as one scan, after the last save', async () => {
  const { q, clock, runs } = setup();
  q.add('f', 'a.js');
  await clock.advance(500);
  q.add('f', 'b.js');
  q.add('f', 'a.js');
  await clock.advance(900);
  assert.equal(runs.length, 0, 'the second save restarted the quiet moment');
  await clock.advance(200);
  assert.deepEqual(runs, [{ at: 1500, files: ['f/a.js', 'f/b.js'] }]);
  assert.equal(q.state.kind, 'idle');
});

test('a save during a scan waits for it; scans start at least the interval apart', async () => {
  let finish!: (r: SaveScanResult) => void;
  const { q, clock, runs } = setup([() => new Promise((r) => { finish = r; })]);
  q.add('f', 'a.js');
  await clock.advance(1000);
  assert.equal(q.state.kind, 'scanning');
  q.add('f', 'b.js');
  await clock.advance(30_000);
  assert.equal(runs.length, 1, 'never two scans at once');
  finish({ kind: 'done' });
  await settle();
  assert.equal(q.state.kind, 'waiting');
  await clock.advance(1000);
  assert.deepEqual(runs.map((r) => r.files), [['f/a.js'], ['f/b.js']]);
  q.add('f', 'c.js');
  await clock.advance(1000);
  assert.equal(runs.length, 2, 'the interval since the last start holds the next scan');
  await clock.advance(10_000);
  assert.equal(runs.length, 3);
  assert.ok(runs[2]!.at - runs[1]!.at >= 10_000);
});

test('the request limit pauses the queue for Retry-After, keeping the files; without it, a minute', async () => {
  const { q, clock, runs } = setup([{ kind: 'limited', retryAfterMs: 30_000 }, { kind: 'limited' }]);
  q.add('f', 'a.js');
  await clock.advance(1000);
  assert.equal(q.state.kind, 'paused');
  q.add('g', 'b.js');
  await clock.advance(29_000);
  assert.equal(runs.length, 1);
  await clock.advance(1000);
  assert.deepEqual(runs[1]!.files, ['f/a.js', 'g/b.js']);
  assert.equal(q.state.kind, 'paused');
  await clock.advance(DEFAULT_PAUSE_MS);
  assert.equal(runs.length, 3);
  assert.deepEqual(runs[2]!.files, ['f/a.js', 'g/b.js']);
  assert.equal(q.state.kind, 'idle');
});

test('another scan running: the files go with a later try, not lost', async () => {
  const { q, clock, runs } = setup([{ kind: 'busy' }]);
  q.add('f', 'a.js');
  await clock.advance(1000);
  await clock.advance(10_000);
  assert.equal(runs.length, 2);
  assert.deepEqual(runs[1]!.files, ['f/a.js']);
});

test('a failure is said and the files wait for the next save (no retry loop)', async () => {
  const { q, clock, runs } = setup([{ kind: 'failed', message: 'connection refused' }]);
  q.add('f', 'a.js');
  await clock.advance(1000);
  assert.deepEqual(q.state, { kind: 'failed', files: 1, message: 'connection refused' });
  await clock.advance(600_000);
  assert.equal(runs.length, 1, 'nothing runs until the next save');
  q.add('f', 'b.js');
  await clock.advance(10_000);
  assert.deepEqual(runs[1]!.files, ['f/a.js', 'f/b.js']);
});

test('clear forgets what waits; dispose stops everything', async () => {
  const { q, clock, runs } = setup();
  q.add('f', 'a.js');
  q.clear();
  await clock.advance(5000);
  assert.equal(runs.length, 0);
  assert.equal(q.state.kind, 'idle');
  q.add('f', 'a.js');
  q.dispose();
  await clock.advance(5000);
  assert.equal(runs.length, 0);
});

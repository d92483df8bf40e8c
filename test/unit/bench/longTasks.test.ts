import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { longTasks, ranBetween, stallRecorder, threadCpuUs, type CpuProfile } from '../../bench/longTasks';

// A profile of 1 ms samples: idle, then a task of ours (scan 3 ms, with a collection in
// the middle), idle, then 2 ms of someone else's work.
const OURS = 'file:///ext/dist/extension.js';
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: 0 }, children: [2, 3, 4, 6] },
    { id: 2, callFrame: { functionName: '(idle)', url: '', lineNumber: 0 } },
    { id: 3, callFrame: { functionName: 'scan', url: OURS, lineNumber: 1 }, children: [5] },
    { id: 4, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: 0 } },
    { id: 5, callFrame: { functionName: 'push', url: '', lineNumber: 0 } },
    { id: 6, callFrame: { functionName: 'write', url: 'node:net', lineNumber: 0 } },
  ],
  startTime: 1_000_000,
  // Sample i is taken at 1_000_000 + 1000 * (i + 1) us.
  samples: [2, 3, 5, 4, 3, 2, 6, 6, 2],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe('reading a CPU profile for the benchmark', () => {
  test('ranBetween names what ran in a stretch, ours by function and the rest by file, idle left out', () => {
    const all = ranBetween(profile, 1_000_000, 1_010_000, (url) => url === OURS);
    assert.deepEqual(all, ['scan 2 ms', 'write [node:net] 2 ms', 'scan > push [native] 1 ms', '(garbage collector) [native] 1 ms']);
    // Only the middle of our task: half of sample 1 (scan) and all of sample 2 (push, called by scan).
    assert.deepEqual(ranBetween(profile, 1_002_500, 1_004_000, (url) => url === OURS), ['scan > push [native] 1 ms', 'scan 1 ms']);
    assert.deepEqual(ranBetween(profile, 1_006_000, 1_007_000, (url) => url === OURS), [], 'an idle stretch ran nothing');
  });

  test('longTasks splits at idle samples and tells ours from the rest', () => {
    const tasks = longTasks(profile, (url) => url === OURS);
    assert.deepEqual(tasks.map((t) => [t.ms, t.ours]), [[2, true], [2, false], [1, false], [1, true]]);
  });

  test('stallRecorder tells a thread that computes from one that waits', async () => {
    const tick = () => new Promise((r) => setTimeout(r, 5));
    const rec = stallRecorder(5);
    await tick();
    // Held 80 ms without running: what a descheduled thread looks like to the event loop.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 80);
    await tick();
    // Held while running: at least 60 ms of the clock and 60 ms of the CPU time the recorder
    // reads (the process's where Node cannot tell a thread's, which other threads add to).
    const spinFromUs = Number(process.hrtime.bigint() / 1000n);
    const wallEnd = performance.now() + 60;
    const cpuEnd = threadCpuUs() + 60_000;
    while (performance.now() < wallEnd || threadCpuUs() < cpuEnd) { /* spin */ }
    await tick();
    rec.stop();
    const waited = rec.worst.find((s) => s.toUs <= spinFromUs && s.ms >= 75);
    // The stall that holds the spin: it starts at the recorder's last turn before the spin (on a
    // busy machine, a late timer, well before it) and lasts past the spin's first 55 ms.
    const computed = rec.worst.find((s) => s.fromUs <= spinFromUs + 1_000 && s.toUs >= spinFromUs + 55_000 && s.ms >= 55);
    assert.ok(waited, `the wait is a stall: ${JSON.stringify(rec.worst)}`);
    // Only a thread's own CPU time tells the wait from the spin: before Node 23.9 (no
    // threadCpuUsage) the process's is read, and on a busy machine other threads (the
    // collector's) fill the wait with CPU time of theirs (seen: 47 ms of an 80 ms wait).
    if (hasThreadCpuUsage()) assert.ok(waited.cpuMs < waited.ms - 40, `a stall of the wait, mostly off the CPU: ${JSON.stringify(rec.worst)}`);
    assert.ok(computed && computed.cpuMs >= 60, `a stall of the spin, on the CPU: ${JSON.stringify(rec.worst)}`);
    assert.equal(rec.busiest[0]!.fromUs, computed.fromUs, `the spin ranks first by CPU: ${JSON.stringify(rec.busiest)}`);
  });
});

function hasThreadCpuUsage(): boolean {
  return typeof (process as unknown as { threadCpuUsage?: unknown }).threadCpuUsage === 'function';
}

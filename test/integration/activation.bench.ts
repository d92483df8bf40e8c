// Not part of the test run: `npm run bench` runs it in a fresh real VS Code, once per round,
// on a copy of the extension that nothing activates by itself (no activation events). It
// waits until the window's own start-up has settled (other extensions activate then, on the
// same thread), starts a 1 ms timer and a CPU profile, activates the extension (VS Code
// loads the bundle then: its compile and module set-up are in the figure) and watches a few
// seconds of what activation started. One BENCH line: the longest block of the extension
// host with its own CPU time, the block with the most CPU, and what ran in each.
import * as fs from 'fs';
import * as path from 'path';
import { Session } from 'inspector';
import * as vscode from 'vscode';
import { longTasks, ownersBetween, ranBetween, stallRecorder, threadCpuUs, type CpuProfile } from '../bench/longTasks';
import { EXTENSION_ID } from './helpers';

/** How long after activate() resolves the work it started is still watched. */
const AFTER_MS = 3000;

/** Until the host has gone `quietMs` without a block over 10 ms (or `maxMs` passed). */
async function settled(quietMs = 4000, maxMs = 40_000): Promise<void> {
  const start = performance.now();
  let last = performance.now();
  let quietSince = last;
  while (performance.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 1));
    const now = performance.now();
    if (now - last > 10) quietSince = now;
    last = now;
    if (now - quietSince > quietMs) return;
  }
}

suite('bench: activation', () => {
  test('activation', async function () {
    this.timeout(120_000);
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await settled();
    const wasActive = ext.isActive;
    const session = new Session();
    session.connect();
    const post = <T>(method: string, params: object = {}) => new Promise<T>((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r as T))));
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 250 });
    await post('Profiler.start');
    const stalls = stallRecorder(3);
    const cpu0 = threadCpuUs();
    const t0 = performance.now();
    const api = await ext.activate() as { codeCache?: () => Record<string, string> } | undefined;
    const activateMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, AFTER_MS));
    stalls.stop();
    const cpuMs = (threadCpuUs() - cpu0) / 1000;
    const profile = (await post<{ profile: CpuProfile }>('Profiler.stop')).profile;
    session.disconnect();
    const files = ['extension.js', 'main.js', 'undici.js', 'zod.js'].map((f) => vscode.Uri.joinPath(ext.extensionUri, 'dist', f));
    const ourUrl = (url: string) => files.some((f) => url === f.toString() || url === f.fsPath);
    const keep = process.env.CODE_SCANNER_BENCH_PROFILES;
    if (keep) fs.writeFileSync(path.join(keep, `activation-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    const ours = longTasks(profile, ourUrl).find((x) => x.ours);
    const worst = stalls.worst[0]!;
    const busiest = stalls.busiest[0]!;
    // Each of the longest blocks by whose code ran in it; ours is the longest share of ours in any of them.
    const blocks = stalls.worst.map((x) => ({ ms: Math.round(x.ms), owners: ownersBetween(profile, x.fromUs, x.toUs, ourUrl) }));
    const result = {
      wasActive,
      activateMs: Math.round(activateMs),
      cpuMs: Math.round(cpuMs),
      longest: { ms: Math.round(worst.ms), cpuMs: Math.round(worst.cpuMs), ran: ranBetween(profile, worst.fromUs, worst.toUs, ourUrl), owners: blocks[0]?.owners },
      busiest: { ms: Math.round(busiest.ms), cpuMs: Math.round(busiest.cpuMs), ran: ranBetween(profile, busiest.fromUs, busiest.toUs, ourUrl), owners: ownersBetween(profile, busiest.fromUs, busiest.toUs, ourUrl) },
      ownLongestMs: Math.max(0, ...blocks.map((b) => b.owners.ours)),
      blocks,
      codeCache: api?.codeCache?.() ?? {},
      ours: ours ? { ms: Math.round(ours.ms), top: ours.top } : undefined,
    };
    console.log(`BENCH activation ${JSON.stringify(result)}`);
    // The extension writes its code cache a few seconds after activation: the next window's round reads it.
    await new Promise((r) => setTimeout(r, 7000));
  });
});

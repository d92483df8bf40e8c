// Activation in a real VS Code (test/integration/activation.bench.ts), a fresh window per
// round, on the bundle as it ships: how long the extension host was held at a time, and
// how much of that was its own CPU. The window loads a copy of the extension whose manifest
// has no activation events, so the suite activates it once the window's start-up is over.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Our own share of the longest blocks must stay under this (the issue's target for activation). */
export const ACTIVATION_TARGET_MS = 60;
/** No block may run more of our own CPU than this. */
export const OWN_CPU_TARGET_MS = 50;

interface Owners { ours: number; extensions: number; vscode: number }

interface Round {
  wasActive: boolean;
  activateMs: number;
  longest: { ms: number; cpuMs: number; ran: string[]; owners?: Owners };
  busiest: { ms: number; cpuMs: number; ran: string[]; owners?: Owners };
  /** The most of our own code's time in any of the longest blocks: what the target is judged on. */
  ownLongestMs?: number;
  codeCache?: Record<string, string>;
}

const ownersText = (o?: Owners) => (o ? `ours ${o.ours} ms, other extensions ${o.extensions} ms, VS Code ${o.vscode} ms` : 'owners not recorded');
const cacheText = (c?: Record<string, string>) => {
  const e = Object.entries(c ?? {});
  return e.length ? `code cache ${e.map(([f, how]) => `${f} ${how}`).join(', ')}` : 'code cache not reported';
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function runLauncher(repo: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(repo, 'test', 'launch', 'run-offline.mjs')], { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (out += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`the real-VS-Code run failed (${code}): ${out.slice(-2000)}`))));
  });
}

/**
 * `rounds` + 1 windows in turn on one code-server: the first is a fresh install's (no code
 * cache yet: it writes one), the others later windows'. The target is judged on the median
 * of the later ones, on our own code's share of the longest blocks (VS Code's and other
 * extensions' work in the same block is said beside it, not counted as ours).
 */
export async function activationBench(repo: string, rounds: number): Promise<string[]> {
  const copy = mkdtempSync(path.join(tmpdir(), 'code-scanner-activation-'));
  try {
    const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(copy, 'package.json'), JSON.stringify({ ...manifest, activationEvents: [] }, null, 2));
    // The launcher copies its build (dist/, media/) beside this manifest.
    const out = await runLauncher(repo, {
      CODE_SCANNER_BUILD_PRODUCTION: '1',
      CODE_SCANNER_TEST_SUFFIX: '.bench.js',
      CODE_SCANNER_TEST_GREP: 'bench: activation',
      CODE_SCANNER_WINDOWS: String(rounds + 1),
      CODE_SCANNER_EXTENSION_PATH: copy,
    });
    const all = [...out.matchAll(/^BENCH activation (\{.*\})$/gm)].map((m) => JSON.parse(m[1]!) as Round);
    const measured = all.filter((r) => !r.wasActive);
    if (!measured.length) return [`activation: no round measured (${all.length} printed, the extension already active in each)`];
    for (const [i, r] of measured.entries()) {
      console.log(`  activation ${i === 0 ? 'first window after install' : `window ${i + 1}`}: longest block ${r.longest.ms} ms (${ownersText(r.longest.owners)}), ${r.longest.cpuMs} ms of it on the CPU (${r.longest.ran.join(', ')}); our longest share of a block ${r.ownLongestMs ?? '?'} ms; most CPU in one block ${r.busiest.cpuMs} ms (${ownersText(r.busiest.owners)}); activate() resolved after ${r.activateMs} ms; ${cacheText(r.codeCache)}`);
    }
    const [first, ...later] = measured;
    const judged = later.length ? later : measured;
    const own = median(judged.map((r) => r.ownLongestMs ?? r.longest.ms));
    const longest = median(judged.map((r) => r.longest.ms));
    // The busiest block's CPU, of our code where the profile tells whose code ran.
    const cpu = median(judged.map((r) => r.busiest.owners?.ours ?? r.busiest.cpuMs));
    const cacheUsed = judged.filter((r) => Object.values(r.codeCache ?? {}).length && Object.values(r.codeCache!).every((c) => c === 'used')).length;
    return [
      `activation, first window after install: longest block ${first!.longest.ms} ms (${ownersText(first!.longest.owners)}); our longest share of a block ${first!.ownLongestMs ?? '?'} ms; ${cacheText(first!.codeCache)}`,
      `activation, later windows (median of ${judged.length}): our longest share of a block ${own} ms (target < ${ACTIVATION_TARGET_MS} ms: ${own < ACTIVATION_TARGET_MS ? 'met' : 'NOT met'}); the longest block whoever ran in it ${longest} ms; our CPU in the busiest block ${cpu} ms (target < ${OWN_CPU_TARGET_MS} ms: ${cpu < OWN_CPU_TARGET_MS ? 'met' : 'NOT met'}); the code cache used in ${cacheUsed} of ${judged.length}`,
    ];
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

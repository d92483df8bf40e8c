// `npm run bench`: packaging and upload speed, and peak memory, side by side with the
// reference tools in one run. Not a test: it prints figures and says whether each target
// is met. Usage: npm run bench [-- --rounds N | --quick] [--only babel,svelte,small,monorepo,synthetic,results,activation] [--sweep] [--regenerate] [--vscode] [--node-current]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import * as path from 'node:path';
import { buildZip } from '../../src/core/archive/zip';
import { DEFAULT_CHUNK_SIZE } from '../../src/core/upload/engine';
import { selectWorkspaceFiles } from '../../src/core/workspace/selectFiles';
import { startReferenceService, type ReferenceService } from '../service';
import { plural } from '../../src/core/text/l10n';
import { ratioAgainst, roundRatios } from './figures';
import { ensureBenchWorkspace } from './generateWorkspace';
import { activationBench } from './activationBench';
import { blockLine, resultsBench, type Block } from './resultsBench';
import { ensureShapeWorkspace } from './shapeWorkspace';

const REPO = path.resolve(__dirname, '../..');
const BENCH_DIR = path.join(REPO, '.bench');
const SHAPES = path.resolve(REPO, '..', 'shared', 'data');
/** Packaging targets are per workspace: the real-shaped trees are the ones that matter. */
const TARGETS = { packaging: 1.0, upload: 1.2, rssMb: 64, rescan: 0.2, saveMs: 100 };
/** Packaging targets tighter than TARGETS.packaging, per workspace (the issue's for large trees). */
const PACKAGING_TARGETS: Record<string, number> = { babel: 0.55, monorepo: 0.6 };
const MiB = 1024 * 1024;

const args = process.argv.slice(2);
/** --quick: every path once (a look, minutes instead of a quarter of an hour); its figures are not judged. */
const quick = args.includes('--quick');
const rounds = quick ? 1 : Number(args[args.indexOf('--rounds') + 1]) || 3;
/** The blocks of the extension host's thread are judged on at least five rounds (their spread is wide). */
const blockRounds = quick ? 1 : Math.max(rounds, 5);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;

function need(tool: string, pkg: string): string | undefined {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0 ? undefined : pkg;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Runs a command without blocking this process: the reference service lives here and
 * must keep answering while curl or a child uploads to it.
 */
function run(cmd: string, argv: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(cmd, argv, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) reject(new Error(`${cmd} ${argv.join(' ')} failed (${code}): ${stderr}`));
      else resolve({ ms, stdout });
    });
  });
}

const timed = (cmd: string, argv: string[], cwd?: string) => run(cmd, argv, { cwd });

interface Phases { select: number; zip: number; upload: number; caughtUp?: number }
interface ChildResult { peakRssPacked?: number; youngGenerationMb?: number; youngAtStartMb?: number; packMsEach?: number[]; warmRss?: number; rssUncommitted?: number; packMs?: number; selectMs?: number; uploadMs?: number; peakRss: number; size?: number; sha256?: string; files?: number; result?: string; coldMs?: number; warmMs?: number; coldPhases?: Phases; warmPhases?: Phases; reused?: number; saveMsEach?: number[]; saveBlocks?: Block[]; coldBlock?: Block; warmBlock?: Block }

/**
 * The child runs the code as the extension ships it: bundled and minified by esbuild.mjs with
 * the extension's own options (`--bench-child`). Through tsx each module's exports are
 * getters, called on every use across modules, which the shipped bundle does not have: a
 * fresh process compiles them too (the small library's first packaging 221 against 209 ms,
 * medians of 8 alternating pairs; HISTORY.md, 2026-11-27, 19:03). `--sources` runs the
 * TypeScript through tsx instead, for profiles that name the source files.
 */
const fromSources = args.includes('--sources');
const CHILD_BUNDLE = path.join(REPO, 'out', 'bench', 'child.js');

function buildChild(): void {
  if (fromSources) return;
  const r = spawnSync(process.execPath, [path.join(REPO, 'esbuild.mjs'), '--bench-child'], { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('bundling the benchmark child failed (node esbuild.mjs --bench-child)');
}

async function child(argv: string[], env: Record<string, string> = {}): Promise<ChildResult> {
  const program = fromSources ? ['--import', 'tsx', path.join(__dirname, 'child.ts')] : [CHILD_BUNDLE];
  const r = await run(process.execPath, [...program, ...argv], { cwd: REPO, env });
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as ChildResult;
}

interface Workspace {
  key: string;
  dir: string;
  /** Why it is here, printed with its figures. */
  about: string;
  /** A file the re-scan figure changes (path relative to the workspace). */
  change?: string;
}

/** Whether a workspace is asked for (each is generated only then: the monorepo takes minutes the first time). */
const wanted = (key: string) => !only || only.includes(key);

async function workspaces(): Promise<Workspace[]> {
  const all: Workspace[] = [];
  for (const [key, about] of [['babel', 'the shape of babel/babel: 27,674 files, 1.4 KB on average'], ['svelte', 'the shape of sveltejs/svelte: 9,080 files, 0.8 KB on average']] as const) {
    if (!wanted(key)) continue;
    const shape = path.join(SHAPES, `${key}-shape.tsv`);
    if (!existsSync(shape)) {
      console.log(`(${key}: ${shape} is missing; skipped)`);
      continue;
    }
    const dir = path.join(BENCH_DIR, key);
    if (args.includes('--regenerate')) await fsp.rm(dir, { recursive: true, force: true });
    const files = await ensureShapeWorkspace(shape, dir);
    // A mid-sized source file in the middle of the tree.
    const change = files.filter((f) => /\.js$/.test(f.path) && f.size > 1000 && f.size < 4000)[Math.floor(files.length / 4) % 500]?.path;
    all.push({ key, dir, about, change });
  }
  // A small library (the issue's ~700 files): svelte's sources, docs and tooling with one
  // test file in 200, so fixed costs (workers, selection set-up) show against Info-ZIP.
  const svelteShape = path.join(SHAPES, 'svelte-shape.tsv');
  if (existsSync(svelteShape) && wanted('small')) {
    const smallShape = path.join(BENCH_DIR, 'small-shape.tsv');
    let n = 0;
    const lines = readFileSync(svelteShape, 'utf8').split('\n').filter((l) => l && !l.startsWith('#') && (!l.split('\t')[1]?.startsWith('packages/svelte/tests/') || n++ % 200 === 0));
    await fsp.mkdir(BENCH_DIR, { recursive: true });
    await fsp.writeFile(smallShape, `# derived from svelte-shape.tsv: every file outside packages/svelte/tests, one test file in 200\n${lines.join('\n')}\n`);
    const dir = path.join(BENCH_DIR, 'small');
    if (args.includes('--regenerate')) await fsp.rm(dir, { recursive: true, force: true });
    const files = await ensureShapeWorkspace(smallShape, dir);
    all.push({ key: 'small', dir, about: `a small library: ${files.length} files of svelte's shape (sources, docs, a few tests and images)` });
  }
  // A monorepo of 100,000 files: babel's shape again and again under four roots, so memory
  // that grows with the file count shows (the issue's 100,000-file target).
  const babelShape = path.join(SHAPES, 'babel-shape.tsv');
  if (existsSync(babelShape) && wanted('monorepo')) {
    const shapeLines = readFileSync(babelShape, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    const lines: string[] = [];
    for (let k = 0; lines.length < 100_000; k++) {
      for (const l of shapeLines) {
        if (lines.length >= 100_000) break;
        const [size, rel] = l.split('\t');
        lines.push(`${size}\tpackages/app-${k}/${rel}`);
      }
    }
    const monoShape = path.join(BENCH_DIR, 'monorepo-shape.tsv');
    await fsp.mkdir(BENCH_DIR, { recursive: true });
    await fsp.writeFile(monoShape, `# derived from babel-shape.tsv: its files again and again under packages/app-<k>/, 100,000 in all\n${lines.join('\n')}\n`);
    const dir = path.join(BENCH_DIR, 'monorepo');
    if (args.includes('--regenerate')) await fsp.rm(dir, { recursive: true, force: true });
    const files = await ensureShapeWorkspace(monoShape, dir);
    // A cold scan and a re-scan at 100,000 files too: the host's thread must not be held longer for more files.
    const change = files.filter((f) => /\.js$/.test(f.path) && f.size > 1000 && f.size < 4000)[Math.floor(files.length / 4) % 500]?.path;
    all.push({ key: 'monorepo', dir, about: `a monorepo: ${files.length.toLocaleString('en-US')} files, babel's shape under four roots`, change });
  }
  const synthetic = path.join(BENCH_DIR, 'workspace');
  if (wanted('synthetic')) {
    if (args.includes('--regenerate')) await fsp.rm(synthetic, { recursive: true, force: true });
    await ensureBenchWorkspace(synthetic);
    all.push({ key: 'synthetic', dir: synthetic, about: 'generated: 20,001 files of 2-18 KB sources and random blobs, 301 MiB' });
  }
  return all;
}

async function main(): Promise<void> {
  const missing = [need('git', 'git'), need('zip', 'zip'), need('curl', 'curl')].filter(Boolean);
  if (missing.length) {
    console.error(`The benchmark compares against command-line tools that are missing: ${missing.join(', ')}.`);
    console.error(`Install them first, e.g.: apt-get update && apt-get install -y ${missing.join(' ')}`);
    process.exit(2);
  }
  await fsp.mkdir(BENCH_DIR, { recursive: true });
  const list = await workspaces();
  const tmp = await fsp.mkdtemp(path.join(BENCH_DIR, 'run-'));
  // The service's data on tmpfs when there is one: disk writeback of earlier uploads would
  // otherwise add seconds of noise to whichever upload happens to run next. A fresh service
  // per round keeps its state (and the background scans of earlier uploads) out of the way.
  const shm = '/dev/shm';
  let service: ReferenceService | undefined;
  let dataDir: string | undefined;
  const freshService = async (): Promise<ReferenceService> => {
    await service?.close();
    if (dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
    dataDir = await fsp.mkdtemp(existsSync(shm) ? path.join(shm, 'bench-service-') : path.join(tmp, 'service-'));
    // The service's background scans rule on a few files only: its work must not weigh on the uploads measured.
    service = await startReferenceService({ dataDir, scanDurationMs: 50, maxScannedFiles: 2000 });
    return service;
  };
  /** The service scans each upload in the background; let that finish before timing the next. */
  const scansIdle = async () => {
    for (let i = 0; i < 1200 && service?.scans().some((x) => x.status === 'running'); i++) await new Promise((r) => setTimeout(r, 50));
  };
  const summary: string[] = [];
  buildChild();
  console.log(`${process.platform} ${cpus().length} cores, node ${process.version} (${args.includes('--node-current') ? 'the Node this was started with' : "the extension host's, as in code-server 4.139.1"}), ${rounds} rounds per workspace, the child running ${fromSources ? 'the TypeScript sources through tsx (--sources)' : 'the code bundled and minified as the extension ships'}`);
  try {
    for (const ws of list) {
      let svc = await freshService();
      const env = { BENCH_TOKEN: svc.demoToken };
      const sel = await selectWorkspaceFiles(ws.dir);
      const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ws.dir, maxBuffer: 64 * MiB }).toString().split('\0').filter(Boolean).length;
      console.log(`\n${ws.key} (${ws.about}): ${sel.files.length} files selected (git tracks ${tracked}), ${(sel.totalBytes / MiB).toFixed(1)} MiB`);

      // Info-ZIP gets exactly the files we package, as a list (git quotes names it finds
      // unusual, so piping git ls-files into zip -@ would drop them).
      const listFile = path.join(tmp, `${ws.key}.list`);
      await fsp.writeFile(listFile, sel.files.map((f) => f.path).join('\n') + '\n');
      // The archive curl uploads: built the same way, so byte-identical to what the child uploads.
      const reference = await buildZip(sel, { tmpRoot: tmp });
      const zipOut = path.join(tmp, 'infozip.zip');
      const infozip = async () => {
        await fsp.rm(zipOut, { force: true });
        return (await timed('sh', ['-c', `zip -q -6 -@ '${zipOut}' < '${listFile}'`], ws.dir)).ms;
      };
      const curlUpload = async () => {
        await scansIdle();
        const t0 = performance.now();
        const start = await timed('curl', ['-sS', '--fail-with-body', '-H', `SERVICE-TOKEN: ${svc.demoToken}`, '-H', 'CORGEA-SOURCE: vscode',
          '-F', 'scan_type=blast', '-F', 'files=@/dev/null;filename=project.zip', `${svc.baseUrl}/start-scan?scan_type=blast`]);
        const id = (JSON.parse(start.stdout) as { transfer_id: string }).transfer_id;
        const patch = await timed('curl', ['-sS', '--fail-with-body', '-X', 'PATCH', '-H', 'Expect:', '-H', `SERVICE-TOKEN: ${svc.demoToken}`, '-H', 'CORGEA-SOURCE: vscode',
          '-H', 'Upload-Offset: 0', '-H', `Upload-Length: ${reference.size}`, '-H', 'Upload-Name: project.zip',
          '-F', `chunk_data=@${reference.path};filename=project.zip;type=application/octet-stream`, `${svc.baseUrl}/start-scan/${id}/`]);
        if (!/scan_id/.test(patch.stdout)) throw new Error(`curl upload did not complete: ${patch.stdout}`);
        return performance.now() - t0;
      };

      // Warm the page cache and both code paths once, untimed, and the service's upload
      // paths with one upload of each kind: code the service runs per request or per byte
      // is compiled, optimized, once it has run often enough, and whichever upload came
      // first paid for it (8 MiB chunks took 40-50 ms instead of ~20; our 19 requests in
      // round 1 took 0.57 s, in round 3 0.42 s, with one curl upload as the only warm-up).
      await infozip();
      await child(['--mode', 'pack', '--root', ws.dir, '--tmp', tmp]);
      await scansIdle();
      await child(['--mode', 'upload', '--archive', reference.path, '--base-url', svc.baseUrl], env);
      await curlUpload();

      const zipMs: number[] = [], packMs: number[] = [], selectMs: number[] = [], upMs: number[] = [], curlMs: number[] = [], peaks: number[] = [], starts: number[] = [], uncommitted: number[] = [], idles: number[] = [];
      for (let r = 0; r < rounds; r++) {
        svc = await freshService();
        zipMs.push(await infozip());
        await scansIdle();
        const one = await child(['--mode', 'pack-upload', '--root', ws.dir, '--tmp', tmp, '--base-url', svc.baseUrl, '--warm-base-url', svc.baseUrl], env);
        if (one.sha256 !== reference.sha256) throw new Error(`${ws.key}: the archive differs between runs: packaging is not deterministic`);
        packMs.push(one.packMs!);
        selectMs.push(one.selectMs!);
        upMs.push(one.uploadMs!);
        peaks.push(one.peakRss);
        starts.push(one.warmRss!);
        uncommitted.push(one.rssUncommitted!);
        curlMs.push(await curlUpload());
        // A second pair, curl first. The first upload after the service sat idle (while
        // Info-ZIP and our packaging ran) is the slower one, whichever client makes it: on
        // the synthetic archive ours took 0.50-0.56 s and curl after it 0.35-0.40 s; with
        // curl first, curl took 0.43-0.51 s and ours 0.44-0.58 s. One pair per round charged
        // that to us every time. Ours here is a process that only uploads, as fresh as the one
        // above, and the ratio is the median of both pairs of every round (noise per pair on
        // this machine: +-25 %, curl against curl included).
        curlMs.push(await curlUpload());
        await scansIdle();
        upMs.push((await child(['--mode', 'upload', '--archive', reference.path, '--base-url', svc.baseUrl, '--warm-base-url', svc.baseUrl], env)).uploadMs!);
        idles.push((await child(['--mode', 'idle', '--warm-base-url', svc.baseUrl], env)).peakRss);
        console.log(`  round ${r + 1}: zip ${secs(zipMs.at(-1)!)}, ours ${secs(packMs.at(-1)!)} (selection ${secs(selectMs.at(-1)!)}); upload ours ${secs(upMs.at(-2)!)} then curl ${secs(curlMs.at(-2)!)}, curl ${secs(curlMs.at(-1)!)} then ours ${secs(upMs.at(-1)!)}; peak RSS ${(one.peakRss / MiB).toFixed(0)} MB (+${((one.peakRss - one.warmRss!) / MiB).toFixed(0)} MB; +${((one.peakRssPacked! - one.warmRss!) / MiB).toFixed(0)} MB by the end of packaging; young generation ${one.youngGenerationMb} MB settled, ${one.youngAtStartMb} MB at the start)`);
      }
      const zipSize = (await fsp.stat(zipOut)).size;
      // Each round measures ours and the reference back to back, so the median of the
      // per-round ratios cancels most of the drift a shared machine adds between rounds.
      const p = median(packMs.map((x, i) => x / zipMs[i]));
      const packagingTarget = PACKAGING_TARGETS[ws.key] ?? TARGETS.packaging;
      const u = median(upMs.map((x, i) => x / curlMs[i]));
      // Growth is measured inside one process: its peak while packaging and uploading minus its
      // own RSS just before it started (after one request to the service, as an extension host).
      const growths = peaks.map((pk, i) => pk - starts[i]);
      const worst = growths.indexOf(Math.max(...growths));
      const growth = growths[worst] / MiB;
      // The same peak over the RSS before V8's young generation was committed again (as an
      // idle host has it): what the process grows by when the scan is its first work in a while.
      const fromIdle = median(peaks.map((pk, i) => pk - uncommitted[i])) / MiB;
      const lines = [
        `${ws.key} packaging: ${ratioAgainst(p, packagingTarget)}x (median of ${rounds} paired rounds: ${roundRatios(packMs, zipMs)}; ours ${secs(median(packMs))} for selection ${secs(median(selectMs))} + zip -> ${(reference.size / MiB).toFixed(1)} MiB, deterministic; zip -q -6 -@ over the same list ${secs(median(zipMs))} -> ${(zipSize / MiB).toFixed(1)} MiB; target <= ${packagingTarget}x: ${p <= packagingTarget ? 'met' : 'NOT met'})`,
        `${ws.key} upload: ${ratioAgainst(u, TARGETS.upload)}x (median of ${upMs.length} pairs, half of them with curl first; ours ${secs(median(upMs))} in ${(DEFAULT_CHUNK_SIZE / MiB).toFixed(0)} MiB chunks; one raw curl POST + PATCH ${secs(median(curlMs))}; target <= ${TARGETS.upload}x: ${u <= TARGETS.upload ? 'met' : 'NOT met'})`,
        `${ws.key} peak RSS growth (selection + packaging + upload): ${growth.toFixed(0)} MB (worst of ${rounds}: peak ${(peaks[worst] / MiB).toFixed(0)} MB - ${(starts[worst] / MiB).toFixed(0)} MB just before; median ${(median(growths) / MiB).toFixed(0)} MB; an idle child peaks at ${(median(idles) / MiB).toFixed(0)} MB; median ${fromIdle.toFixed(0)} MB counting the young generation V8 commits again after a full collection, the cost of the first second of any work in a host that was idle; target < ${TARGETS.rssMb} MB: ${growth < TARGETS.rssMb ? 'met' : 'NOT met'})`,
      ];
      if (ws.key !== 'synthetic') {
        // Context for the figure above, not a target: the same packaging in a process that has
        // packaged before, against the same Info-ZIP median.
        const again = await child(['--mode', 'pack-again', '--root', ws.dir, '--tmp', tmp]);
        const warm = again.packMsEach!.at(-1)!;
        lines.push(`${ws.key} packaging in a process that has packaged before (an extension host after its first scan): ${(warm / median(zipMs)).toFixed(2)}x (ours ${secs(warm)}; first in the process ${secs(again.packMsEach![0])}; no target, for where the time goes)`);
      }
      if (ws.change) {
        const res: { coldMs: number; warmMs: number; coldPhases: Phases; warmPhases: Phases; reused: number; files: number; walked: boolean; coldBlock: Block; warmBlock: Block }[] = [];
        for (let r = 0; r < blockRounds; r++) {
          svc = await freshService();
          await scansIdle();
          // As in an extension host, which has talked to the service (sign-in, policies) before
          // its first scan: the HTTP client's one-time set-up is not the scan's block.
          const x = await child(['--mode', 'rescan', '--root', ws.dir, '--tmp', tmp, '--base-url', svc.baseUrl, '--admin-url', svc.adminUrl, '--change', ws.change, '--warm-base-url', svc.baseUrl], env) as unknown as (typeof res)[number];
          res.push(x);
          const phases = (p: Phases) => `select ${secs(p.select)} + zip ${secs(p.zip)} + upload ${secs(p.upload)}${p.caughtUp !== undefined ? `; the watcher caught up at ${secs(p.caughtUp)}` : ''}`;
          console.log(`  re-scan round ${r + 1}: ${(x.warmMs / x.coldMs).toFixed(3)}x; cold ${secs(x.coldMs)} (${phases(x.coldPhases)}), re-scan ${secs(x.warmMs)} (${phases(x.warmPhases)}); longest block cold ${x.coldBlock.ms.toFixed(0)} ms (${x.coldBlock.cpuMs.toFixed(0)} ms own CPU at most${x.coldBlock.ran ? `: ${x.coldBlock.ran.join(', ')}` : ''}), re-scan ${x.warmBlock.ms.toFixed(0)} ms (${x.warmBlock.cpuMs.toFixed(0)}${x.warmBlock.ran ? `: ${x.warmBlock.ran.join(', ')}` : ''})`);
        }
        const ratio = median(res.map((x) => x.warmMs / x.coldMs));
        const phase = (pick: (x: (typeof res)[number]) => Phases) => (['select', 'zip', 'upload'] as const).map((k) => `${k} ${secs(median(res.map((x) => pick(x)[k])))}`).join(' + ');
        lines.push(blockLine(`${ws.key} cold scan to scan_id, the host's thread`, res.map((x) => x.coldBlock)), blockLine(`${ws.key} re-scan to scan_id, the host's thread`, res.map((x) => x.warmBlock)));
        lines.push(`${ws.key} re-scan with one file changed: ${ws.key === 'babel' ? ratioAgainst(ratio, TARGETS.rescan) : ratio.toFixed(2)}x of a cold scan, to scan_id (median of ${res.length}: ${res.map((x) => (x.warmMs / x.coldMs).toFixed(3)).join(', ')}; cold ${secs(median(res.map((x) => x.coldMs)))}, re-scan ${secs(median(res.map((x) => x.warmMs)))} with ${res[0].reused} of ${res[0].files} entries copied from the last archive, ${res.some((x) => x.walked) ? 'the tree walked again' : 'the tree not walked: the watcher had seen the one change'}; cold ${phase((x) => x.coldPhases)}, re-scan ${phase((x) => x.warmPhases)}; ${ws.key === 'babel' ? `target <= ${TARGETS.rescan}x: ${ratio <= TARGETS.rescan ? 'met' : 'NOT met'}` : `no target of its own: the issue sets ${TARGETS.rescan}x on the babel shape`})`);
      }
      if (ws.change && ws.key === 'babel') {
        // Scan on save: the path users feel most, from a save to the service's scan id.
        const each: number[] = [];
        const blocks: Block[] = [];
        for (let r = 0; r < rounds; r++) {
          svc = await freshService();
          await scansIdle();
          const x = await child(['--mode', 'save', '--root', ws.dir, '--tmp', tmp, '--base-url', svc.baseUrl, '--admin-url', svc.adminUrl, '--change', ws.change, '--warm-base-url', svc.baseUrl], env);
          const later = x.saveMsEach!.slice(1);
          console.log(`  save round ${r + 1}: first ${secs(x.saveMsEach![0])}, then ${later.map((m) => `${Math.round(m)} ms`).join(', ')}`);
          each.push(...later);
          blocks.push(...x.saveBlocks!.slice(1));
        }
        const ms = median(each);
        lines.push(blockLine(`${ws.key} a save's scan to scan id, the host's thread`, blocks));
        lines.push(`${ws.key} save to scan id (scan on save, one saved file, selection + archive + upload): ${Math.round(ms)} ms (median of ${each.length} saves after a process's first; target < ${TARGETS.saveMs} ms: ${ms < TARGETS.saveMs ? 'met' : 'NOT met'})`);
      }
      for (const l of lines) console.log(l);
      summary.push(...lines);

      if (args.includes('--sweep') && ws.key === 'synthetic') {
        console.log('\nchunk size sweep (upload of the same archive, one child each, median of 3):');
        for (const mb of [1, 2, 4, 8, 16, 32, 64]) {
          svc = await freshService();
          const ratios: number[] = [];
          const ms: number[] = [];
          const rss: number[] = [];
          for (let i = 0; i < 3; i++) {
            await scansIdle();
            const r = await child(['--mode', 'upload', '--archive', reference.path, '--base-url', svc.baseUrl, '--chunk-size', String(mb * MiB)], env);
            const c = await curlUpload();
            ms.push(r.uploadMs!);
            rss.push(r.peakRss);
            ratios.push(r.uploadMs! / c);
          }
          console.log(`  ${String(mb).padStart(2)} MiB: ${median(ratios).toFixed(2)}x of curl (ours ${secs(median(ms))}), peak RSS of the upload-only child ${(Math.max(...rss) / MiB).toFixed(0)} MB`);
        }
      }
      await reference.dispose();
    }
    if (!only || only.includes('results')) {
      // The in-process service may still be scanning the last workspace's uploads (seconds of
      // its rule engine for the synthetic archive), on this process's event loop, which the
      // results bench measures: once it held it 80 ms in the middle of that measurement.
      const waited = performance.now();
      const busy = service?.scans().filter((x) => x.status === 'running').length ?? 0;
      await scansIdle();
      await service?.close();
      service = undefined;
      console.log(`\nresults (10,000 and 50,000 findings, pure core over real HTTP; first waited ${secs(performance.now() - waited)} for ${plural(busy, '{0} scan', '{0} scans')} of the service still running):`);
      summary.push(...await resultsBench(REPO, blockRounds));
    }
    if (!only || only.includes('activation')) {
      console.log(`\nactivation in a real VS Code (the first window after install, then ${blockRounds} more, a few minutes):`);
      try {
        const lines = await activationBench(REPO, blockRounds);
        for (const l of lines) console.log(l);
        summary.push(...lines);
      } catch (e) {
        summary.push(`activation: the real-VS-Code run failed: ${e instanceof Error ? e.message.slice(0, 2000) : String(e)}`);
      }
    }
    if (args.includes('--vscode')) summary.push(...await keystrokeBench());
    console.log(quick ? '\nsummary (--quick: one round of each, so nothing is judged; "met" and "NOT met" below read one round):' : '\nsummary:');
    for (const l of summary) console.log(`  ${l}`);
  } finally {
    await service?.close();
    await fsp.rm(tmp, { recursive: true, force: true });
    if (dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The keystroke measurement in a real VS Code (test/integration/keystrokes.bench.ts, run by
 * the offline launcher like the integration tests): its BENCH lines, with the targets.
 */
async function keystrokeBench(): Promise<string[]> {
  console.log('\nkeystrokes in a real VS Code (takes a few minutes):');
  let r: { stdout: string };
  try {
    r = await run(process.execPath, [path.join(REPO, 'test', 'launch', 'run-offline.mjs')], {
      cwd: REPO, env: { CODE_SCANNER_TEST_SUFFIX: '.bench.js', CODE_SCANNER_INTEGRATION_TIMEOUT_MS: '1500000' },
    });
  } catch (e) {
    return [`vscode keystroke: the real-VS-Code run failed: ${e instanceof Error ? e.message.slice(0, 2000) : String(e)}`];
  }
  const out: string[] = [];
  for (const m of r.stdout.matchAll(/^BENCH keystroke (\d+) findings: ([\d.]+) ms .*?difference ([\d.]+) ms\); (.*)$/gm)) {
    const target = Number(m[1]) >= 50_000 ? 50 : 16;
    // Results arriving may hold the extension host 50 ms at a time, at either size.
    const rest = m[4].replace(/(blocked meanwhile: (\d+) ms)/, (_, text: string, ms: string) => `${text} (target < 50 ms: ${Number(ms) < 50 ? 'met' : 'NOT met'})`);
    const line = `vscode keystroke ${m[1]} findings: ${m[2]} ms of extension-host CPU (target < ${target} ms: ${Number(m[2]) < target ? 'met' : 'NOT met'}; ${m[3]} ms more than in a file with none); ${rest}`;
    console.log(line);
    out.push(line);
  }
  if (!out.length) out.push('vscode keystroke: no figures (the run printed none)');
  return out;
}

/**
 * The extension's code runs in VS Code's extension host, on the Node VS Code brings: the
 * real VS Code the tests run (code-server 4.139.1) runs it on Node 24. This machine's Node 20
 * is older (its fs calls, its V8) and out of support, so the whole benchmark, children and
 * reference service included, runs again on that Node unless `--node-current` says otherwise.
 */
const EXTENSION_HOST_NODE_MAJOR = '24';

async function onExtensionHostNode(): Promise<boolean> {
  if (args.includes('--node-current') || process.versions.node.split('.')[0] === EXTENSION_HOST_NODE_MAJOR) return false;
  const { provisionNode } = await import(path.join(REPO, 'test', 'launch', 'provision.mjs') as string) as { provisionNode(): string };
  const node = provisionNode();
  const r = spawnSync(node, ['--import', 'tsx', __filename, ...args], { cwd: REPO, stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
  return true;
}

onExtensionHostNode().then((done) => done ? undefined : main()).catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});

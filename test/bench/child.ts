// One measured run in its own process, so its peak RSS is its own. Prints one JSON line.
// Modes: idle (load everything, do nothing: the RSS baseline), pack, pack-upload, upload,
// rescan (a cold scan to scan_id, then one file changed and a re-scan reusing the archive),
// pack-again (packaging three times in one process), save (scan on save: one saved file to
// its scan id through the pipeline, several times).
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, watch, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ServiceClient } from '../../src/core/api';
import { sha256File } from '../../src/core/archive/hash';
import { ReuseCache, loadOnce } from '../../src/core/archive/reuseCache';
import { DEFAULT_LEVEL, WorkersAhead, buildZip, type BuiltArchive } from '../../src/core/archive/zip';
import { openTransfer, uploadArchive } from '../../src/core/upload/engine';
import { MemoryTransferStore } from '../../src/core/upload/transferStore';
import { TrackedCleanStore } from '../../src/core/workspace/trackedClean';
import { ChangeJournal } from '../../src/core/workspace/changeJournal';
import { reportedLate } from '../../src/core/scan/lateReports';
import { WATCH_FROM_FILES, fullScanGitInfo, keptIndexFor, trustedChanges } from '../../src/core/scan/pipeline';
import { selectGivenFiles, selectWorkspaceFiles, type Selection } from '../../src/core/workspace/selectFiles';
import { scanFolder } from '../../src/core/scan/pipeline';
import { ArchivedFiles } from '../../src/core/scan/archivedFiles';
import { programRunner } from '../../src/core/workspace/programRunner';
import { ranBetween, stallRecorder, type CpuProfile } from './longTasks';
import { Session } from 'node:inspector';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Peak resident set size of this process, in bytes. */
function peakRss(): number {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

function currentRss(): number {
  return process.memoryUsage.rss();
}

/** Linux: the peak (VmHWM) starts again from the current RSS. */
function resetPeakRss(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // not Linux: the peak keeps the warm-up
  }
}

/** `caughtUp`: when the watcher had reported the re-scan's cookie, from the start (not a phase of its own). */
interface Phases { select: number; zip: number; upload: number; caughtUp?: number }

const newSpaceBytes = () => v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space')?.space_size ?? 0;

/**
 * Brings V8's young generation to the size a long-running extension host has. V8 doubles
 * it whenever as many bytes have survived collections as it holds, counted over the whole
 * life of the process; a fresh process is still at a fraction of it, and would grow it in
 * the middle of whatever it measures. The extension host of a real VS Code (code-server
 * 4.139, Node 24) measured 64 MB of new space, its maximum, 5 s after the extension was
 * activated. Objects kept across a few collections grow it here the same way; then they
 * are dropped and collected, and the growth measured after is the scan's own.
 */
function settleYoungGeneration(): { sizeMb: number; rssUncommitted: number } {
  const kept: object[][] = [];
  let size = newSpaceBytes();
  for (let round = 0, still = 0; round < 200 && still < 8; round++) {
    kept.push(Array.from({ length: 50_000 }, (_, i) => ({ i, s: `x${i}` })));
    if (kept.length > 20) kept.shift();
    const now = newSpaceBytes();
    still = now > size ? 0 : still + 1;
    size = now;
  }
  kept.length = 0;
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  const rssUncommitted = currentRss();
  // A full collection leaves part of the young generation uncommitted (39 of 64 MB on
  // Node 24), and an idle host gives all of it back within seconds; the first second of
  // any work commits it again, whatever the work. Short-lived garbage, as a busy host
  // makes, commits it before the baseline; the RSS before that is kept for the figure
  // that counts it.
  const space = () => v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
  for (let i = 0; i < 2000 && (space()?.physical_space_size ?? 0) < (space()?.space_size ?? 0); i++) {
    Array.from({ length: 10_000 }, (_, k) => ({ k }));
  }
  return { sizeMb: Math.round(size / 1048576), rssUncommitted };
}

/**
 * Waits until the reference service has finished scanning what it was sent. It runs on this
 * machine (a real service does not): its scan of the cold upload would otherwise compete
 * with the re-scan for the same two cores.
 */
async function serviceIdle(adminUrl: string | undefined): Promise<void> {
  if (!adminUrl) return;
  for (let i = 0; i < 1200; i++) {
    const scans = await (await fetch(`${adminUrl}/scans`)).json() as { status?: string }[];
    if (!scans.some((x) => x.status === 'running')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * How late VS Code's watcher reports a write, in the re-scan: code-server 4.139 reported a
 * cookie 74-142 ms after it was written (30 rounds), and writes 135-159 ms after them earlier.
 */
const WATCHER_MODEL_MS = 160;

async function scanToScanId(
  root: string, client: ServiceClient, tmp: string, gitClean: TrackedCleanStore, cache?: ReuseCache, journal?: ChangeJournal,
): Promise<{ ms: number; phases: Phases; archive: BuiltArchive; scanId?: string; selection: Selection; walked: boolean }> {
  const t0 = performance.now();
  // As scanFolder does: a scan with no archive kept starts its deflate workers during the
  // selection when the folder is big enough (WorkersAhead); one with an archive reads it back (in the measured time) when the selection
  // asks, once git is at work (SelectOptions.known; the watcher's record is judged by the
  // index's header alone before); the git details go into the upload's form (the zip phase
  // ends when both are ready).
  const loadPrevious = loadOnce(cache, DEFAULT_LEVEL);
  const workers = cache?.has() ? undefined : new WorkersAhead();
  // As the pipeline does: what the watcher saw since the kept archive, when it is that archive.
  const startedAt = Date.now();
  const snapshot = journal?.restart({ root, fromFiles: WATCH_FROM_FILES });
  const { watched } = trustedChanges(snapshot, () => cache?.peek(DEFAULT_LEVEL));
  const selecting = selectWorkspaceFiles(root, { known: keptIndexFor(loadPrevious, watched), watched, onCount: workers?.onCount, statsLater: true });
  // The upload's git details, read while the selection and packaging run, awaited before the upload.
  const gitInfo = fullScanGitInfo(root, selecting, gitClean).catch(() => undefined);
  const sel = await selecting;
  const t1 = performance.now();
  // As the pipeline does: the transfer is started (POST and HEAD) while packaging runs.
  const opened = openTransfer(client, 'project.zip');
  const archive = await buildZip(sel, { tmpRoot: tmp, name: 'project.zip', previous: await loadPrevious(), workersStarted: workers?.pool });
  // As the pipeline does: a re-scan told by the watcher holds back the archive's last bytes
  // until writes made before it started have been reported.
  let caughtUp: number | undefined;
  void snapshot?.caughtUp?.then((reported) => { if (reported) caughtUp = performance.now() - t0; });
  const late = sel.watcher && journal && snapshot ? reportedLate(root, journal, snapshot.epoch, startedAt, archive.index, new AbortController().signal, { caughtUp: snapshot.caughtUp }) : undefined;
  const holdLast = late?.then((why) => { if (why) throw new Error(`the watcher ${why}`); });
  const git = await gitInfo;
  const t2 = performance.now();
  const fields = { projectName: 'bench', branch: git?.branch, sha: git?.sha, repoUrl: git?.repoUrl, dirty: git?.dirty };
  const result = await uploadArchive({ client, archive, fields, store: new MemoryTransferStore(), holdLast, opened });
  const t3 = performance.now();
  // As scanFolder does once the scan id is in (unmeasured there: the scan waits for the service).
  programRunner().prepare();
  if (sel.watcher?.missed) throw new Error('the selection found files changed that the watcher had not seen');
  return {
    ms: t3 - t0, phases: { select: t1 - t0, zip: t2 - t1, upload: t3 - t2, ...(caughtUp !== undefined ? { caughtUp } : {}) }, archive, scanId: result.kind === 'complete' ? result.scanId : undefined,
    selection: sel, walked: !sel.watcher || sel.watcher.walked,
  };
}

/**
 * Runs `work` with a 1 ms timer watching this thread: its longest block, and the most of the
 * thread's own CPU in one block (a block the thread spent waiting for a core is not our work).
 * With CODE_SCANNER_BENCH_PROFILE set, a CPU profile says what ran in the busiest block.
 */
async function blocked<T>(work: () => Promise<T>): Promise<{ value: T; block: { ms: number; cpuMs: number; ran?: string[] } }> {
  const profiling = !!process.env.CODE_SCANNER_BENCH_PROFILE;
  const session = profiling ? new Session() : undefined;
  const post = <R>(method: string, params: object = {}) => new Promise<R>((resolve, reject) => session!.post(method, params, (e, r) => (e ? reject(e) : resolve(r as R))));
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 250 });
    await post('Profiler.start');
  }
  const rec = stallRecorder(1);
  try {
    const value = await work();
    // The timer's last tick after the work: a block at its very end counts.
    await new Promise((r) => setTimeout(r, 3));
    const busiest = rec.busiest[0];
    let ran: string[] | undefined;
    if (session && busiest) {
      const profile = (await post<{ profile: CpuProfile }>('Profiler.stop')).profile;
      ran = ranBetween(profile, busiest.fromUs, busiest.toUs, (url) => !url.includes('node:') && url !== '', 6);
    }
    return { value, block: { ms: Math.max(0, rec.worst[0]?.ms ?? 0), cpuMs: Math.max(0, busiest?.cpuMs ?? 0), ...(ran ? { ran } : {}) } };
  } finally {
    rec.stop();
    session?.disconnect();
  }
}

async function main(): Promise<void> {
  const mode = arg('mode') ?? 'idle';
  const out: Record<string, unknown> = { mode };
  const warmUrl = arg('warm-base-url');
  if (warmUrl) {
    // An extension host has talked to the service (sign-in, results: a poll of 10,000
    // findings is 200 requests) before it scans. The HTTP client's first request sets up its
    // HTTP/1 parser (undici compiles llhttp's WebAssembly in the background: ~20 MB resident,
    // ~35 MB while it compiles), and within the next twenty requests one of V8's background
    // threads maps 1.8, 3.7 and 7.5 MB for a moment (the parser compiled again, optimized):
    // +18 MB of peak RSS in the first upload of a process, none after 20 requests. One-time
    // costs of the process, not of packaging or uploading. Both the idle and the measured
    // child pay them first, then the peak is reset, so the RSS line compares like with like.
    const warmClient = new ServiceClient({ baseUrl: warmUrl, token: process.env.BENCH_TOKEN ?? '' });
    for (let i = 0; i < 30; i++) await warmClient.verify();
    const settled = settleYoungGeneration();
    out.youngGenerationMb = settled.sizeMb;
    out.rssUncommitted = settled.rssUncommitted;
    await new Promise((r) => setTimeout(r, 1000));
    out.youngAtStartMb = Math.round(newSpaceBytes() / 1048576);
    out.warmRss = currentRss();
    resetPeakRss();
  }
  if (mode === 'pack-again') {
    // Packaging twice in one process: the second is what an extension host that has scanned
    // before spends (its code compiled by V8, its caches warm); the first is a fresh process's.
    const times: number[] = [];
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      const workers = new WorkersAhead();
      const archive = await buildZip(await selectWorkspaceFiles(arg('root')!, { onCount: workers.onCount, statsLater: true }), { tmpRoot: arg('tmp'), workersStarted: workers.pool });
      times.push(performance.now() - t0);
      await archive.dispose();
    }
    out.packMsEach = times;
  } else if (mode === 'save') {
    // Scan on save: from the save of one file to the service's scan id, through the very
    // pipeline a save runs (scanFolder, partial, the saved file chosen by selectGivenFiles,
    // the revision read without a status). The first save is a fresh process's; the figure
    // is the median of the saves after it, as in an extension host that has scanned before.
    const root = arg('root')!;
    const tmp = mkdtempSync(path.join(arg('tmp')!, 'save-'));
    const client = new ServiceClient({ baseUrl: arg('base-url')!, token: process.env.BENCH_TOKEN ?? '', timeoutMs: 120_000 });
    const changed = path.join(root, arg('change')!);
    const size = statSync(changed).size;
    const store = new MemoryTransferStore();
    const uploads = {
      store, archiveRoot: tmp, archivedFiles: new ArchivedFiles(path.join(tmp, 'archived-files')),
      discard: () => store.clear(), deleteArchive: async (p: string) => rmSync(path.dirname(p), { recursive: true, force: true }),
    };
    const times: number[] = [];
    const blocks: { ms: number; cpuMs: number }[] = [];
    try {
      for (let k = 0; k < 6; k++) {
        appendFileSync(changed, `\n// saved ${k}\n`);
        const stop = new AbortController();
        let at: number | undefined;
        const t0 = performance.now();
        const { block } = await blocked(() => scanFolder({ root, projectName: 'bench', partial: true, select: () => selectGivenFiles(root, [changed]) }, {
          client, uploads, signal: stop.signal, onProgress: () => undefined, log: () => undefined,
          // The scan id is there: what a save costs ends; the wait for findings is the service's.
          onScan: async (e) => { if (e.kind === 'uploaded' && at === undefined) { at = performance.now() - t0; stop.abort(); } },
          wait: { intervalMs: 1000, maxPolls: 1 },
        }).catch(() => undefined));
        if (at === undefined) throw new Error('the saved file reached no scan id');
        times.push(at);
        blocks.push(block);
        await serviceIdle(arg('admin-url'));
      }
      out.saveMsEach = times;
      out.saveBlocks = blocks;
    } finally {
      truncateSync(changed, size);
      rmSync(tmp, { recursive: true, force: true });
    }
  } else if (mode === 'rescan') {
    const root = arg('root')!;
    const tmp = mkdtempSync(path.join(arg('tmp')!, 'rescan-'));
    const client = new ServiceClient({ baseUrl: arg('base-url')!, token: process.env.BENCH_TOKEN ?? '', timeoutMs: 120_000 });
    const cache = new ReuseCache(path.join(tmp, 'reuse'));
    const gitClean = new TrackedCleanStore(path.join(tmp, 'reuse', 'git-clean.json'));
    const changed = path.join(root, arg('change')!);
    const size = statSync(changed).size;
    try {
      // The editor's file watcher, as FolderWatch feeds it: the cold scan starts it, the change is noted.
      const journal = new ChangeJournal();
      const epoch = journal.restart().epoch;
      const { value: cold, block: coldBlock } = await blocked(() => scanToScanId(root, client, tmp, gitClean));
      await cache.keep(cold.archive.path, cold.archive.index, cold.archive.level, cold.archive.madeAtMs);
      journal.settle(epoch, cold.archive.madeAtMs, cold.selection);
      await cold.archive.dispose();
      appendFileSync(changed, '\n// changed by the benchmark\n');
      journal.note(arg('change')!);
      await serviceIdle(arg('admin-url'));
      // The re-scan's cookie (watcherCookies.ts), reported as VS Code's watcher would:
      // WATCHER_MODEL_MS after it was written (by its own time, not by when this busy thread
      // got to see it), once the thread is free.
      const dotGit = watch(path.join(root, '.git'), (_, name) => {
        if (!name) return;
        const rel = `.git/${name}`;
        let wait = 0;
        try {
          wait = statSync(path.join(root, rel)).mtimeMs + WATCHER_MODEL_MS - Date.now();
        } catch {
          // Gone already: its removal, reported at once.
        }
        setTimeout(() => journal.note(rel), Math.max(0, wait));
      });
      const { value: warm, block: warmBlock } = await blocked(() => scanToScanId(root, client, tmp, gitClean, cache, journal));
      dotGit.close();
      await warm.archive.dispose();
      Object.assign(out, {
        coldMs: cold.ms, warmMs: warm.ms, coldPhases: cold.phases, warmPhases: warm.phases, reused: warm.archive.reused, files: warm.archive.index.length,
        scanIds: [cold.scanId, warm.scanId], walked: warm.walked, coldBlock, warmBlock,
      });
    } finally {
      truncateSync(changed, size);
      rmSync(tmp, { recursive: true, force: true });
    }
  } else if (mode !== 'idle') {
    let archive: BuiltArchive | { path: string; name: string; size: number; sha256: string; dispose?: () => Promise<void> };
    if (mode === 'upload') {
      const p = arg('archive')!;
      archive = { path: p, name: 'project.zip', size: statSync(p).size, sha256: await sha256File(p) };
    } else {
      const t0 = performance.now();
      const workers = new WorkersAhead();
      const sel = await selectWorkspaceFiles(arg('root')!, { onCount: workers.onCount, statsLater: true });
      const t1 = performance.now();
      archive = await buildZip(sel, { tmpRoot: arg('tmp'), workersStarted: workers.pool });
      out.selectMs = t1 - t0;
      out.packMs = performance.now() - t0;
      out.peakRssPacked = peakRss();
      out.files = sel.files.length;
      if (arg('list')) writeFileSync(arg('list')!, sel.files.map((f) => f.path).join('\n') + '\n');
    }
    out.size = archive.size;
    out.sha256 = archive.sha256;
    if (mode === 'pack-upload' || mode === 'upload') {
      const client = new ServiceClient({ baseUrl: arg('base-url')!, token: process.env.BENCH_TOKEN ?? '', timeoutMs: 120_000 });
      const chunkSize = arg('chunk-size') ? Number(arg('chunk-size')) : undefined;
      const t2 = performance.now();
      const result = await uploadArchive({ client, archive, fields: { projectName: 'bench' }, store: new MemoryTransferStore(), chunkSize });
      out.uploadMs = performance.now() - t2;
      out.result = result.kind;
    }
    if ('dispose' in archive && archive.dispose) await archive.dispose();
  }
  out.peakRss = peakRss();
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

// The scan pipeline for one folder against the reference service: select -> package ->
// upload -> scan id -> findings, its progress stages, partial scans, cancellation and a
// resumed upload.
import assert from 'node:assert/strict';
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ServiceClient } from '../../../src/core/api';
import { isCancellation } from '../../../src/core/async';
import { rangeForLine } from '../../../src/core/issues';
import { ReuseCache } from '../../../src/core/archive/reuseCache';
import { DEFAULT_LEVEL, EARLY_WORKER_FILES } from '../../../src/core/archive/zip';
import { TrackedCleanStore } from '../../../src/core/workspace/trackedClean';
import { ArchivedFiles } from '../../../src/core/scan/archivedFiles';
import { resumeFolder, scanFolder, type FolderUploads, type PipelineContext, type ScanEvent, type ScanFindings } from '../../../src/core/scan/pipeline';
import { SCAN_STAGES, overallFraction, type ScanProgress } from '../../../src/core/scan/stages';
import { UploadInterruptedError } from '../../../src/core/upload/engine';
import { MemoryTransferStore } from '../../../src/core/upload/transferStore';
import { selectGivenFiles, selectWorkspaceFiles, type SelectOptions, type Selection } from '../../../src/core/workspace/selectFiles';
import type { ArchiveIndex } from '../../../src/core/archive/archiveIndex';
import { createHash } from 'node:crypto';
import { startReferenceService, type ReferenceService } from '../../service';
import { gitCouldFindRepository } from '../../../src/core/workspace/git';
import { programRunner } from '../../../src/core/workspace/programRunner';
import { committedRepo, git, tempDir, writeTree } from '../workspace/helpers';

describe('scan pipeline', () => {
  let svc: ReferenceService;
  let root: string;
  let storage: string;

  before(async () => {
    svc = await startReferenceService({ scanDurationMs: 30 });
    root = await tempDir('pipeline-ws-');
    storage = await tempDir('pipeline-storage-');
    await writeTree(root, {
      'src/app.js': 'const x = eval(input);\nif (a == b) { go(); }\n',
      'src/util.py': 'try:\n    go()\nexcept:\n    pass\n',
      'README.md': '# demo\n',
    });
    git(root, 'init', '-q');
  });
  after(async () => {
    await svc.close();
    await fsp.rm(root, { recursive: true, force: true });
    await fsp.rm(storage, { recursive: true, force: true });
  });

  function context(overrides: Partial<PipelineContext> = {}) {
    const progress: ScanProgress[] = [];
    const recorded: ScanFindings[] = [];
    const events: ScanEvent[] = [];
    const store = new MemoryTransferStore();
    const uploads: FolderUploads = {
      store,
      archiveRoot: storage,
      archivedFiles: new ArchivedFiles(path.join(storage, 'archived-files')),
      discard: () => store.clear(),
      deleteArchive: (p) => fsp.rm(path.dirname(p), { recursive: true, force: true }),
    };
    const ctx: PipelineContext = {
      client: new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken }),
      uploads,
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p),
      log: () => undefined,
      onScan: async (e) => {
        events.push(e);
        if (e.kind === 'completed') recorded.push(e.findings);
      },
      // Seed shapes settle when two polls agree: polls 50 ms apart both fell between two of the
      // scan's steps once, on a loaded machine, and read 2 of its 3 findings.
      wait: { intervalMs: 250, maxPolls: 60 },
      ...overrides,
    };
    return { ctx, progress, recorded, events, uploads };
  }

  test('a full scan goes through every stage in order and records the findings with the uploaded files', async () => {
    const { ctx, progress, recorded } = context();
    const result = await scanFolder({ root, projectName: 'demo', partial: false, select: () => selectWorkspaceFiles(root) }, ctx);
    assert.equal(result.kind, 'scanned');
    assert.ok(result.kind === 'scanned' && result.issues >= 3);
    const stages = [...new Set(progress.map((p) => p.stage))];
    assert.deepEqual(stages, Object.keys(SCAN_STAGES), 'select, package, upload, results');
    // A line without a fraction (a retry's message on a loaded machine) stays where it was.
    const overall = progress.filter((p) => p.fraction !== undefined).map((p) => overallFraction(p.stage, p.fraction));
    assert.deepEqual(overall, [...overall].sort((a, b) => a - b), 'progress never goes back');
    assert.equal(overall.at(-1), 1);
    assert.equal(recorded.length, 1);
    const [f] = recorded;
    assert.equal(f.scan.scanId, result.kind === 'scanned' ? result.scanId : '');
    assert.deepEqual([...(f.archived ?? [])].sort(), ['README.md', 'src/app.js', 'src/util.py']);
    assert.equal(f.issues.length, result.kind === 'scanned' ? result.issues : -1);
    assert.equal(f.scan.partialFiles, undefined);
    // The scan's metadata names what was uploaded: the archive's file count, size and digest.
    const record = svc.scans().find((x) => x.id === f.scan.scanId)!;
    const bytes = svc.transferBytes(record.transferId)!;
    assert.deepEqual(record.metadata, {
      client: 'vscode', archive: { files: 3, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') },
    });
  });

  test('a scan starts its transfer while it packages, and uploads into that one transfer', async () => {
    const stagesAtStart: string[] = [];
    let progressSeen: ScanProgress[] = [];
    class Watching extends ServiceClient {
      override startTransfer(...a: Parameters<ServiceClient['startTransfer']>) {
        stagesAtStart.push(progressSeen.at(-1)?.stage ?? 'none');
        return super.startTransfer(...a);
      }
    }
    const { ctx, progress } = context({ client: new Watching({ baseUrl: svc.baseUrl, token: svc.demoToken }) });
    progressSeen = progress;
    const before = svc.requests().length;
    const result = await scanFolder({ root, projectName: 'early', partial: false, select: () => selectWorkspaceFiles(root) }, ctx);
    assert.equal(result.kind, 'scanned');
    assert.deepEqual(stagesAtStart, ['package'], 'started once, before the upload stage');
    const routes = svc.requests().slice(before).map((r) => r.route).filter((r) => r === 'startScan' || r === 'headTransfer' || r === 'patchChunk');
    assert.deepEqual(routes, ['startScan', 'headTransfer', 'patchChunk']);
  });

  test('the service\'s scan events in order: uploaded, then completed; or uploaded, then failed with the reason, and nothing completed', async () => {
    const ok = context();
    await scanFolder({ root, projectName: 'demo', partial: false, select: () => selectWorkspaceFiles(root) }, ok.ctx);
    assert.deepEqual(ok.events.map((e) => e.kind), ['uploaded', 'completed']);
    svc.mode.shapes = 'real';
    try {
      svc.planOutcome({ failedReason: 'quota exceeded' });
      svc.mode.processingMs = 600;
      const bad = context();
      const err = await scanFolder({ root, projectName: 'demo', partial: false, select: () => selectWorkspaceFiles(root) }, bad.ctx).catch((e: unknown) => e);
      assert.match(String(err), /failed: quota exceeded/);
      assert.deepEqual(bad.events.map((e) => e.kind), ['uploaded', 'failed']);
      assert.equal(bad.recorded.length, 0);
      const progress = bad.progress.filter((p) => p.stage === 'results').map((p) => p.message);
      assert.ok(progress.some((m) => /^the service (has queued the scan|is scanning) · \d+ s$/.test(m)), progress.join(' | '));
    } finally {
      svc.mode.shapes = 'seed';
      svc.mode.processingMs = undefined;
    }
  });

  test('a partial scan sends the files it packaged and records them as its scope', async () => {
    const { ctx, recorded } = context();
    const result = await scanFolder({ root, projectName: 'demo', partial: true, select: () => selectGivenFiles(root, [path.join(root, 'src/app.js')]) }, ctx);
    assert.equal(result.kind, 'scanned');
    assert.deepEqual(recorded[0].scan.partialFiles, ['src/app.js']);
    assert.ok(recorded[0].issues.every((i) => i.path === 'src/app.js'));
    const scan = svc.scans().find((s) => s.id === recorded[0].scan.scanId)!;
    assert.equal(scan.partial, true);
    assert.deepEqual(scan.filesToScan, ['src/app.js']);
  });

  test('nothing to scan is a note, not an error', async () => {
    const { ctx } = context();
    const result = await scanFolder({ root, projectName: 'demo', partial: false, select: () => selectWorkspaceFiles(root, { excludeGlobs: ['**'] }) }, ctx);
    assert.equal(result.kind, 'nothing');
  });

  test('the deflate workers a full scan starts during its selection stop when there is nothing to package', { skip: process.platform !== 'linux' && 'counts threads in /proc' }, async () => {
    // A worker left running is a thread of this process until it ends.
    const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
    const settled = async (want: number) => {
      for (let i = 0; i < 100 && threads() > want; i++) await new Promise((r) => setTimeout(r, 20));
      return threads();
    };
    const before = threads();
    const { ctx } = context();
    // The selection tells of a folder big enough for workers (as git's listing of one would), then fails or finds nothing.
    let during = 0;
    const big = (then: () => Promise<Selection>) => (_known?: unknown, _watched?: unknown, onCount?: (files: number) => void) => {
      onCount?.(EARLY_WORKER_FILES);
      during = threads();
      return then();
    };
    assert.equal((await scanFolder({ root, projectName: 'demo', partial: false, select: big(() => selectWorkspaceFiles(root, { excludeGlobs: ['**'] })) }, ctx)).kind, 'nothing');
    assert.ok(during > before, 'the workers were started');
    assert.equal(await settled(before), before, 'nothing to scan');
    during = 0;
    await assert.rejects(scanFolder({ root, projectName: 'demo', partial: false, select: big(() => Promise.reject(new Error('the folder is gone'))) }, ctx), /the folder is gone/);
    assert.ok(during > before, 'the workers were started');
    assert.equal(await settled(before), before, 'the selection failed');
  });

  test('a full scan of a small folder starts no deflate worker; of a folder with many files, during its selection', { skip: process.platform !== 'linux' && 'counts threads in /proc' }, async () => {
    const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
    let told: number[] = [];
    let most = 0;
    const watchThreads = setInterval(() => { most = Math.max(most, threads()); }, 1);
    try {
      const scan = async (files: number) => {
        told = [];
        const before = threads();
        most = before;
        const result = await scanFolder({
          root, projectName: 'demo', partial: false,
          // The count this folder's selection gives, or one as big as a folder with `files` would.
          select: (known, watched, onCount) => selectWorkspaceFiles(root, { known, watched, onCount: (n) => { told.push(n); onCount?.(files || n); } }),
        }, context().ctx);
        assert.equal(result.kind, 'scanned');
        return { before, most };
      };
      const small = await scan(0);
      assert.equal(told.length, 1, 'the selection told its count once');
      assert.ok(told[0] < EARLY_WORKER_FILES, `told ${told[0]}`);
      assert.equal(small.most, small.before, 'no worker thread for a small folder');
      const many = await scan(EARLY_WORKER_FILES);
      assert.ok(many.most > many.before, 'workers for a folder with many files');
    } finally {
      clearInterval(watchThreads);
    }
  });

  test('a scan of a folder outside git starts no git helper; a scan in git does', { skip: process.platform !== 'linux' && 'the helper runs on Linux only' }, async (t) => {
    const plain = await tempDir('pipeline-plain-');
    try {
      await writeTree(plain, { 'src/app.js': 'const x = eval(input);\n' });
      if (await gitCouldFindRepository(plain)) {
        t.skip('the temporary folder lies in a git repository');
        return;
      }
      programRunner().dispose();
      const result = await scanFolder({ root: plain, projectName: 'plain', partial: false, select: () => selectWorkspaceFiles(plain) }, context().ctx);
      assert.equal(result.kind, 'scanned');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(programRunner().helperReady, false, 'no helper for a folder git cannot run in');
      // The same scan in a repository starts it: the check above can fail.
      assert.equal((await scanFolder({ root, projectName: 'demo', partial: false, select: () => selectWorkspaceFiles(root) }, context().ctx)).kind, 'scanned');
      for (let i = 0; i < 250 && !programRunner().helperReady; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(programRunner().helperReady, true);
    } finally {
      programRunner().dispose();
      await fsp.rm(plain, { recursive: true, force: true });
    }
  });

  test('a cancel while uploading is a cancellation, and leaves nothing to resume', async () => {
    const abort = new AbortController();
    const { ctx, uploads } = context({ signal: abort.signal, chunkSizeBytes: 64, onProgress: (p) => { if (p.stage === 'upload' && (p.fraction ?? 0) > 0) abort.abort(); } });
    const err = await scanFolder({ root, projectName: 'demo', partial: false, select: () => selectWorkspaceFiles(root) }, ctx).catch((e: unknown) => e);
    assert.ok(isCancellation(err, abort.signal), String(err));
    assert.equal(await uploads.store.load(), undefined);
  });

  test('an interrupted upload is kept and resumeFolder finishes it', async () => {
    svc.faults.failNext('patchChunk', 3, { status: 503 });
    const first = context({ chunkSizeBytes: 256, retries: { maxRetries: 1, baseDelayMs: 1 } });
    const err = await scanFolder({ root, projectName: 'demo', partial: false, select: () => selectWorkspaceFiles(root) }, first.ctx).catch((e: unknown) => e);
    assert.ok(err instanceof UploadInterruptedError, String(err));
    const retries = first.progress.map((p) => p.message).filter((m) => /retrying/.test(m));
    assert.ok(retries.some((m) => /^the service answered 503, retrying in \d+ s \(attempt 1 of 1\)$/.test(m)), `each retry is shown: ${retries.join(' | ')}`);
    const saved = await first.uploads.store.load();
    assert.ok(saved, 'the transfer is kept');
    const second = context({ chunkSizeBytes: 256 });
    await second.uploads.store.save(saved);
    const result = await resumeFolder(saved, second.ctx);
    assert.equal(result.kind, 'scanned');
    assert.equal(second.recorded[0].archived?.has('src/app.js'), true, 'the resumed scan still knows what it uploaded');
    assert.equal(await second.uploads.store.load(), undefined);
  });

  test('the scan says whether the folder differs from its commit: tracked changes, or untracked files the selection found', async () => {
    const repo = await committedRepo('pipeline-dirty-', { 'app/main.js': 'go();\n', 'app/lib.js': 'lib();\n', 'elsewhere/notes.md': '# notes\n' });
    try {
      const folder = path.join(repo, 'app');
      const dirty = async () => {
        const result = await scanFolder({ root: folder, projectName: 'demo', partial: false, select: () => selectWorkspaceFiles(folder) }, context().ctx);
        assert.equal(result.kind, 'scanned');
        return svc.scans().find((x) => result.kind === 'scanned' && x.id === result.scanId)?.formParts.dirty;
      };
      assert.equal(await dirty(), 'false');
      // Outside the scanned folder: not part of what was uploaded.
      await writeTree(repo, { 'elsewhere/notes.md': '# edited\n', 'elsewhere/new.md': 'untracked\n' });
      assert.equal(await dirty(), 'false');
      await writeTree(repo, { 'app/new.js': 'untracked();\n' });
      assert.equal(await dirty(), 'true', 'an untracked file is uploaded too');
      await fsp.rm(path.join(folder, 'new.js'));
      await writeTree(repo, { 'app/lib.js': 'changed();\n' });
      assert.equal(await dirty(), 'true', 'a modified tracked file');
    } finally {
      await fsp.rm(repo, { recursive: true, force: true });
    }
  });

  test('dirty is false only when the archive holds exactly the tracked files of HEAD: a partial scan or a tracked file left out is dirty', async () => {
    const repo = await committedRepo('pipeline-dirty-exact-', { 'main.js': 'go();\n', 'lib.js': 'lib();\n' });
    const plain = await tempDir('pipeline-not-git-');
    try {
      const form = async (root: string, partial: boolean, select: () => Promise<Selection>) => {
        const result = await scanFolder({ root, projectName: 'demo', partial, select }, context().ctx);
        assert.equal(result.kind, 'scanned');
        return svc.scans().find((x) => result.kind === 'scanned' && x.id === result.scanId)!.formParts;
      };
      assert.equal((await form(repo, false, () => selectWorkspaceFiles(repo))).dirty, 'false', 'a clean full scan');
      assert.equal((await form(repo, true, () => selectGivenFiles(repo, [path.join(repo, 'main.js')]))).dirty, 'true', 'a partial scan, even of a clean file');
      // A credential file the repository tracks is never uploaded: the archive is not the commit.
      await writeTree(repo, { '.env': 'API_KEY=1\n' });
      git(repo, 'add', '.env');
      git(repo, 'commit', '-qm', 'env');
      const withEnv = await form(repo, false, () => selectWorkspaceFiles(repo));
      assert.equal(withEnv.dirty, 'true', 'a tracked file left out');
      assert.equal(withEnv.project_name, 'demo');
      await writeTree(plain, { 'a.js': 'x\n' });
      assert.equal((await form(plain, false, () => selectWorkspaceFiles(plain))).dirty, undefined, 'outside git: unknown, left out');
    } finally {
      await fsp.rm(repo, { recursive: true, force: true });
      await fsp.rm(plain, { recursive: true, force: true });
    }
  });

  test('the archive is named after the project, as the service\'s own client names it', async () => {
    const { ctx } = context();
    const result = await scanFolder({ root, projectName: 'payments api', folderName: 'checkout', partial: false, select: () => selectWorkspaceFiles(root) }, ctx);
    assert.equal(result.kind, 'scanned');
    const scan = svc.scans().find((x) => result.kind === 'scanned' && x.id === result.scanId)!;
    assert.equal(scan.archiveName, 'payments_api.zip');
    assert.equal(scan.projectName, 'payments api');
  });

  test('re-scans that keep the archive and the clean reading between them still say whether the folder differs from its commit', async () => {
    const repo = await committedRepo('pipeline-since-', { 'main.js': 'go();\n', 'lib.js': 'lib();\n' });
    const kept = await tempDir('pipeline-since-kept-');
    try {
      const gitClean = new TrackedCleanStore(path.join(kept, 'git-clean.json'));
      const reuse = new ReuseCache(kept);
      const dirty = async () => {
        const { ctx } = context();
        Object.assign(ctx.uploads, { reuse, gitClean });
        const result = await scanFolder({ root: repo, projectName: 'demo', partial: false, select: (known) => selectWorkspaceFiles(repo, { known }) }, ctx);
        assert.equal(result.kind, 'scanned');
        return svc.scans().find((x) => result.kind === 'scanned' && x.id === result.scanId)?.formParts.dirty;
      };
      assert.equal(await dirty(), 'false');
      const reading = gitClean.load();
      assert.equal(reading?.head, git(repo, 'rev-parse', 'HEAD').trim(), 'a clean reading is kept');
      await writeTree(repo, { 'lib.js': 'changed();\n' });
      assert.equal(await dirty(), 'true', 'a modified tracked file');
      await writeTree(repo, { 'lib.js': 'lib();\n' });
      assert.equal(await dirty(), 'false', 'written back as committed');
      await fsp.rm(path.join(repo, 'main.js'));
      assert.equal(await dirty(), 'true', 'a deleted tracked file');
      git(repo, 'checkout', '--', 'main.js');
      await writeTree(repo, { 'new.js': 'untracked();\n' });
      assert.equal(await dirty(), 'true', 'an untracked file');
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'new');
      assert.equal(await dirty(), 'false', 'committed');
      assert.equal(gitClean.load()?.head, git(repo, 'rev-parse', 'HEAD').trim());
    } finally {
      await fsp.rm(repo, { recursive: true, force: true });
      await fsp.rm(kept, { recursive: true, force: true });
    }
  });

  test('a re-scan copies the files unchanged since the last full scan from its kept archive', async () => {
    const reuse = new ReuseCache(path.join(storage, 'reuse'));
    const old = new Date(Date.now() - 60_000);
    for (const f of ['src/app.js', 'src/util.py', 'README.md']) await fsp.utimes(path.join(root, f), old, old);
    const lines: string[] = [];
    const first = context({ log: (l) => lines.push(l) });
    first.ctx.uploads.reuse = reuse;
    const given: SelectOptions['known'][] = [];
    const select = (known?: SelectOptions['known']) => { given.push(known); return selectWorkspaceFiles(root, { known }); };
    // Given as a function, read once git is at work (SelectOptions.known).
    const asked = async (k: SelectOptions['known']) => (typeof k === 'function' ? await k() : k);
    assert.equal((await scanFolder({ root, projectName: 'demo', partial: false, select }, first.ctx)).kind, 'scanned');
    assert.ok((await reuse.load(DEFAULT_LEVEL)), 'the uploaded archive is kept');
    await fsp.writeFile(path.join(root, 'README.md'), '# demo, edited\n');
    const second = context({ log: (l) => lines.push(l) });
    second.ctx.uploads.reuse = reuse;
    assert.equal((await scanFolder({ root, projectName: 'demo', partial: false, select }, second.ctx)).kind, 'scanned');
    assert.ok(lines.some((l) => /3 files packaged, 2 of them unchanged since the last scan/.test(l)), lines.join('\n'));
    assert.equal(await asked(given[0]), undefined, 'a first scan has nothing on record');
    assert.deepEqual((await asked(given[1]) as ArchiveIndex | undefined)?.paths(), ['README.md', 'src/app.js', 'src/util.py'], "the re-scan's selection is given the kept archive's files");
  });

  test('a file with a lone CR: the service\'s line number, mapped for the editor, points at the flagged code', async () => {
    const rel = 'src/cr.js';
    const text = '// one\r// two\nconst y = eval(input);\n';
    await fsp.writeFile(path.join(root, rel), text);
    try {
      const { ctx, recorded } = context();
      await scanFolder({ root, projectName: 'demo', partial: true, select: () => selectGivenFiles(root, [path.join(root, rel)]) }, ctx);
      const found = recorded[0].issues.find((i) => i.path === rel && /eval/i.test(i.classificationName + i.classificationDescription));
      assert.ok(found, JSON.stringify(recorded[0].issues.map((i) => [i.path, i.line, i.classificationName])));
      assert.equal(found.line, 2, 'the service counts lines by LF');
      const editorLines = text.split(/\r\n|\r|\n/);
      assert.match(editorLines[rangeForLine(text, found.line).start.line], /eval\(input\)/);
    } finally {
      await fsp.rm(path.join(root, rel), { force: true });
    }
  });
});

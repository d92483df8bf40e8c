// A re-scan told by the file watcher what changed since the last full scan (changeJournal.ts):
// it looks again only at that, and never trusts a watcher that could not have seen a change
// (a new window, changed ignore rules, a watcher that missed writes).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fsp, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ServiceClient } from '../../../src/core/api';
import { ReuseCache } from '../../../src/core/archive/reuseCache';
import { ArchivedFiles } from '../../../src/core/scan/archivedFiles';
import { WATCH_FROM_FILES, WATCH_FROM_FILES_UNSYNCED, keptIndexFor, scanFolder, trustedChanges, type PipelineContext } from '../../../src/core/scan/pipeline';
import { ArchiveIndexBuilder } from '../../../src/core/archive/archiveIndex';
import { HELD_BYTES } from '../../../src/core/upload/engine';
import { MemoryTransferStore } from '../../../src/core/upload/transferStore';
import { ChangeJournal, MAX_WATCHED_PATHS, patternsHidingFiles } from '../../../src/core/workspace/changeJournal';
import { selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { startReferenceService, type ReferenceService } from '../../service';
import { committedRepo, git, readZip, tempDir, writeTree } from '../workspace/helpers';

describe('a re-scan told what the file watcher saw', () => {
  let svc: ReferenceService;
  let storage: string;
  const repos: string[] = [];

  before(async () => {
    svc = await startReferenceService({ scanDurationMs: 10 });
    storage = await tempDir('watched-storage-');
  });
  after(async () => {
    await svc.close();
    for (const d of [storage, ...repos]) await fsp.rm(d, { recursive: true, force: true });
  });

  /** A committed repository of `n` small files under src/, plus a .gitignore. */
  async function repo(n = 8): Promise<string> {
    const files: Record<string, string> = { '.gitignore': 'build/\n' };
    for (let i = 0; i < n; i++) files[`src/f${String(i).padStart(3, '0')}.js`] = `export const v${i} = ${i};\n`;
    const root = await committedRepo('watched-', files);
    repos.push(root);
    return root;
  }

  /**
   * Files (`rels`, or every file in src/) written long before the first scan: their entries
   * are copied by their status alone (reuseCache.ts).
   */
  async function writtenLongBefore(root: string, rels?: string[]): Promise<void> {
    const old = new Date(Date.now() - 60_000);
    for (const rel of rels ?? (await fsp.readdir(path.join(root, 'src'))).map((name) => `src/${name}`)) await fsp.utimes(path.join(root, rel), old, old);
  }

  /** The cookies in `root`/.git, as the watcher reports them. */
  const cookiesIn = (root: string) => readdirSync(path.join(root, '.git')).filter((n) => n.startsWith('.watchman-cookie-')).map((n) => `.git/${n}`);

  /** Reports each cookie that appears in `root`/.git `afterMs` later; on stop, the ones left at once. */
  function reportingCookies(journal: ChangeJournal, root: string, afterMs: number): { stop(): void } {
    const seen = new Set<string>();
    const timers: NodeJS.Timeout[] = [];
    const look = setInterval(() => {
      for (const rel of cookiesIn(root)) {
        if (seen.has(rel)) continue;
        seen.add(rel);
        timers.push(setTimeout(() => journal.note(rel), afterMs));
      }
    }, 5);
    return {
      stop() {
        clearInterval(look);
        for (const t of timers) clearTimeout(t);
        for (const rel of cookiesIn(root)) journal.note(rel);
      },
    };
  }

  /**
   * One folder's scans in one window: the same kept archive, the journal the window's watcher
   * feeds. The watcher stands in for VS Code's as to the scans' cookies: it reports each one
   * `cookies.afterMs` after it appears in .git (10 ms unless said), or none at all
   * (`'manual'`: the test reports them, as reportingLate does).
   */
  function folder(root: string, journal: ChangeJournal, {
    reuse = new ReuseCache(path.join(root, '..', `${path.basename(root)}-reuse`)), watchFromFiles = 0, watcherLatencyMs, retries, cookies = { afterMs: 10 },
  }: {
    reuse?: ReuseCache; watchFromFiles?: number; watcherLatencyMs?: number; retries?: PipelineContext['retries'];
    cookies?: 'manual' | { afterMs: number; waitMs?: number };
  } = {}) {
    const lines: string[] = [];
    const scan = async () => {
      const watcher = cookies === 'manual' ? undefined : reportingCookies(journal, root, cookies.afterMs);
      try {
        return await scanWatched();
      } finally {
        watcher?.stop();
      }
    };
    const scanWatched = async () => {
      const store = new MemoryTransferStore();
      const ctx: PipelineContext = {
        client: new ServiceClient({ baseUrl: svc.baseUrl, token: svc.demoToken }),
        uploads: {
          store, archiveRoot: storage, archivedFiles: new ArchivedFiles(path.join(storage, 'archived-files')),
          discard: () => store.clear(), deleteArchive: (p) => fsp.rm(path.dirname(p), { recursive: true, force: true }), reuse, changes: journal,
        },
        signal: new AbortController().signal,
        onProgress: () => undefined,
        log: (l) => lines.push(l),
        onScan: async () => undefined,
        wait: { intervalMs: 20, maxPolls: 200 },
        // These trees are small: trusted from the first file (WATCH_FROM_FILES is for real ones).
        watchFromFiles,
        watcherLatencyMs,
        ...(cookies !== 'manual' && cookies.waitMs !== undefined ? { cookieWaitMs: cookies.waitMs } : {}),
        retries,
      };
      const result = await scanFolder({ root, projectName: 'demo', partial: false, select: (known, watched) => selectWorkspaceFiles(root, { known, watched }) }, ctx);
      assert.equal(result.kind, 'scanned', JSON.stringify(result));
      const record = svc.scans().find((x) => result.kind === 'scanned' && x.id === result.scanId)!;
      const file = path.join(storage, `${record.id}.zip`);
      await fsp.writeFile(file, svc.transferBytes(record.transferId)!);
      const uploaded = new Map((await readZip(file)).map((e) => [e.name, e.data.toString('utf8')]));
      return { uploaded, log: lines.splice(0) };
    };
    return { scan, reuse };
  }

  test('in the window that scanned before, only what the watcher saw is looked at again; the folder is not walked', async () => {
    const root = await repo();
    const journal = new ChangeJournal();
    const f = folder(root, journal);
    const first = await f.scan();
    assert.ok(first.log.some((l) => /^Every file is looked at/.test(l)) === false, 'a first scan has no archive to compare with: nothing to say');
    assert.equal(first.uploaded.size, 9);

    await writeTree(root, { 'src/f001.js': 'export const v1 = "edited";\n', 'src/seen.js': 'seen();\n', 'src/unseen.js': 'unseen();\n', 'build/out.js': 'built();\n' });
    journal.note('src/f001.js');
    journal.note('src/seen.js');
    journal.note('build/out.js');
    const second = await f.scan();
    assert.ok(second.log.some((l) => /The file watcher saw 3 paths change since the last scan: .*the folder was not walked again/.test(l)), second.log.join('\n'));
    assert.equal(second.uploaded.get('src/f001.js'), 'export const v1 = "edited";\n', 'a change the watcher saw is uploaded');
    assert.equal(second.uploaded.get('src/seen.js'), 'seen();\n', 'a new file the watcher saw is uploaded');
    assert.ok(!second.uploaded.has('build/out.js'), 'git still decides what is ignored');
    // The proof that the tree was not walked: a file written behind the watcher's back is not looked for.
    assert.ok(!second.uploaded.has('src/unseen.js'), 'what the watcher did not see is not looked for');

    // Deleted and renamed through the watcher; a folder deleted stands for every file below it.
    await fsp.rm(path.join(root, 'src', 'seen.js'));
    journal.note('src/seen.js');
    await fsp.mkdir(path.join(root, 'lib'));
    await fsp.rename(path.join(root, 'src', 'f002.js'), path.join(root, 'lib', 'f002.js'));
    journal.note('src/f002.js');
    journal.note('lib');
    const third = await f.scan();
    assert.ok(!third.uploaded.has('src/seen.js'), 'a deleted file is gone');
    assert.ok(!third.uploaded.has('src/f002.js') && third.uploaded.get('lib/f002.js') === 'export const v2 = 2;\n', 'a moved file is found where it went (git lists the new folder)');
  });

  test('a folder the watcher reports stands for every recorded file below it: each is looked at again, and no file beside it', async () => {
    const root = await repo();
    await writeTree(root, { 'src/deep/a.js': 'a();\n', 'srcx.js': 'x();\n', 'src0.js': 'zero();\n' });
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'more');
    await writtenLongBefore(root, ['src/deep/a.js', 'srcx.js', 'src0.js']);
    const journal = new ChangeJournal();
    const f = folder(root, journal);
    await f.scan();
    // Rewritten behind the watcher's back but for their folder's report (a tool that swaps a folder in).
    await writeTree(root, { 'src/deep/a.js': 'a("rewritten");\n', 'srcx.js': 'x("unseen");\n', 'src0.js': 'zero("unseen");\n' });
    journal.note('src/deep');
    const next = await f.scan();
    assert.equal(next.uploaded.get('src/deep/a.js'), 'a("rewritten");\n', 'below the reported folder: looked at');
    assert.equal(next.uploaded.get('srcx.js'), 'x();\n', 'beside it (its name only starts the same): taken as recorded');
    assert.equal(next.uploaded.get('src0.js'), 'zero();\n');
  });

  /**
   * A folder scanned once, then `rel` written just before the next scan and reported by the
   * watcher only once that scan has chosen its files (VS Code reports a write ~140 ms after
   * it). Its archive is bigger than what an upload holds back while the watcher may still
   * report (HELD_BYTES), and the watcher slow enough that the upload reaches the archive's
   * last bytes however busy this machine is. Stop the report with clearTimeout after the scan.
   */
  async function writtenJustBefore(rel: string, retries?: PipelineContext['retries']) {
    const root = await repo();
    await fsp.writeFile(path.join(root, 'src', 'data.js'), `export const data = '${randomBytes(3 * HELD_BYTES).toString('base64')}';\n`);
    await writtenLongBefore(root);
    const journal = new ChangeJournal();
    // The cookie long after the write's report: the upload has sent the archive's first bytes by then.
    const f = folder(root, journal, { watcherLatencyMs: 2000, retries, cookies: { afterMs: 1500, waitMs: 60_000 } });
    await f.scan();
    await writeTree(root, { [rel]: 'written just before\n' });
    await new Promise((r) => setTimeout(r, 20));
    return { f, reported: setTimeout(() => journal.note(rel), 60) };
  }

  test('a write the watcher reports only after the scan has chosen its files is still uploaded as it is', async () => {
    const { f, reported } = await writtenJustBefore('src/f006.js');
    const scansBefore = svc.scans().length;
    const requestsBefore = svc.requests().length;
    const next = await f.scan();
    clearTimeout(reported);
    assert.ok(next.log.some((l) => /The file watcher reported src\/f006\.js written before the scan started only after the scan had chosen its files; every file is looked at again/.test(l)), next.log.join('\n'));
    assert.equal(next.uploaded.get('src/f006.js'), 'written just before\n');
    // The first archive went up while the watcher could still report, all but its last bytes,
    // and was abandoned there: the service scanned only the second.
    const requests = svc.requests().slice(requestsBefore);
    assert.equal(requests.filter((r) => r.method === 'POST' && r.route === 'startScan').length, 2, JSON.stringify(requests));
    assert.ok(requests.findIndex((r) => r.method === 'PATCH') < requests.map((r) => r.method).lastIndexOf('POST'), `bytes of the first archive were sent before the late report was known: ${JSON.stringify(requests.map((r) => [r.method, r.route, r.status]))}`);
    assert.equal(svc.scans().length, scansBefore + 1);
  });

  test('an upload interrupted while the watcher could still report, which then reports a late write, is chosen again rather than kept to resume', async () => {
    const { f, reported } = await writtenJustBefore('src/f005.js', { maxRetries: 1, baseDelayMs: 5 });
    // The first archive's upload fails for good (two 500s, one retry allowed) inside the window.
    svc.faults.failNext('patchChunk', 2, { status: 500 });
    const next = await f.scan();
    clearTimeout(reported);
    assert.ok(next.log.some((l) => /The file watcher reported src\/f005\.js written before the scan started only after the scan had chosen its files; every file is looked at again/.test(l)), next.log.join('\n'));
    assert.equal(next.uploaded.get('src/f005.js'), 'written just before\n');
  });

  /**
   * Runs `scan` beside a watcher that reports in order, ~40 ms late: `reported`, then the
   * scan's cookie, written after it. The cookie the last scan wrote once its archive was kept
   * is reported at once (a watcher reports it long before the next scan), and so is the one
   * this scan writes then.
   */
  async function reportingLate<T>(journal: ChangeJournal, root: string, reported: string, scan: () => Promise<T>): Promise<T> {
    const before = new Set(cookiesIn(root));
    for (const rel of before) journal.note(rel);
    let scans: string | undefined;
    const watcher = setInterval(() => {
      for (const rel of cookiesIn(root)) {
        if (before.has(rel) || rel === scans) continue;
        if (scans !== undefined) {
          journal.note(rel);
          continue;
        }
        scans = rel;
        setTimeout(() => {
          journal.note(reported);
          journal.note(rel);
        }, 40);
      }
    }, 5);
    try {
      return await scan();
    } finally {
      clearInterval(watcher);
      for (const rel of cookiesIn(root)) journal.note(rel);
    }
  }

  test('the wait for late reports ends once the watcher reports the scan\'s cookie, and a write reported with it is uploaded as it is', { timeout: 60_000 }, async () => {
    const root = await repo();
    const journal = new ChangeJournal();
    // Far longer than this test may run: only the cookie can end the wait.
    const f = folder(root, journal, { watcherLatencyMs: 600_000, cookies: 'manual' });
    await f.scan();
    // A new file: only the watcher's report finds it (the folder is not walked).
    await writeTree(root, { 'src/new.js': 'written just before\n' });
    await new Promise((r) => setTimeout(r, 20));
    const next = await reportingLate(journal, root, 'src/new.js', () => f.scan());
    assert.ok(next.log.some((l) => /^The file watcher had reported every write made before the scan \d+ ms after it started\.$/.test(l)), next.log.join('\n'));
    assert.ok(next.log.some((l) => /The file watcher reported src\/new\.js written before the scan started only after the scan had chosen its files; every file is looked at again/.test(l)), next.log.join('\n'));
    assert.equal(next.uploaded.get('src/new.js'), 'written just before\n');
    // Removed once reported, without holding up the scan.
    for (let i = 0; i < 100 && cookiesIn(root).length; i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(cookiesIn(root), [], 'the cookies are gone');
  });

  test('a re-scan whose cookie the watcher does not report in time looks at every file: a change the watcher never reported is uploaded', async () => {
    const root = await repo();
    const journal = new ChangeJournal();
    // A watcher that reports the cookie written once an archive is kept (when the scan ends),
    // then stops watching: the next scan's cookie is never reported while it waits.
    const f = folder(root, journal, { cookies: { afterMs: 600_000, waitMs: 300 } });
    await writtenLongBefore(root);
    await f.scan();
    for (let i = 0; i < 8; i++) await fsp.writeFile(path.join(root, 'src', `f00${i}.js`), `export const v${i} = "unreported";\n`);
    const next = await f.scan();
    assert.ok(next.log.some((l) => /^The file watcher had not reported the scan's marker file in \.git 0\.3 s after the scan started \(it may have stopped watching the folder\); every file is looked at again\.$/.test(l)), next.log.join('\n'));
    for (let i = 0; i < 8; i++) assert.equal(next.uploaded.get(`src/f00${i}.js`), `export const v${i} = "unreported";\n`);
  });

  test('a write reported after the latency a scan without a cookie allows, but before the cookie, is uploaded as it is', async () => {
    const root = await repo();
    const journal = new ChangeJournal();
    // A busy window: its watcher's reports arrive 0.5 s late, past WATCHER_LATENCY_MS.
    const f = folder(root, journal, { cookies: { afterMs: 500 } });
    await writtenLongBefore(root);
    await f.scan();
    await fsp.writeFile(path.join(root, 'src', 'f004.js'), 'export const v4 = "written just before";\n');
    await new Promise((r) => setTimeout(r, 20));
    const reported = setTimeout(() => journal.note('src/f004.js'), 400);
    const next = await f.scan();
    clearTimeout(reported);
    assert.ok(next.log.some((l) => /The file watcher reported src\/f004\.js written before the scan started only after the scan had chosen its files; every file is looked at again/.test(l)), next.log.join('\n'));
    assert.equal(next.uploaded.get('src/f004.js'), 'export const v4 = "written just before";\n');
  });

  /**
   * A first scan of a repository with a folder `old/`, then `change` made just before the next
   * scan, which the watcher reports as `reported` alone (in order, ~40 ms late, with the scan's
   * cookie): what VS Code's watcher does with a folder made and filled in an instant, whose
   * files it never saw, or with a deleted folder.
   */
  async function folderReportedLate(change: (root: string) => Promise<void>, reported: string) {
    const root = await repo();
    await writeTree(root, { 'old/a.js': 'a();\n', 'old/deep/b.js': 'b();\n' });
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'old');
    await writtenLongBefore(root, ['old/a.js', 'old/deep/b.js']);
    const journal = new ChangeJournal();
    const f = folder(root, journal, { watcherLatencyMs: 600_000, cookies: 'manual' });
    const first = await f.scan();
    assert.equal(first.uploaded.get('old/deep/b.js'), 'b();\n');
    await change(root);
    await new Promise((r) => setTimeout(r, 20));
    return reportingLate(journal, root, reported, () => f.scan());
  }

  test('a folder made and filled just before the scan, reported late and alone (its files escaped the watcher), has its files uploaded', { timeout: 60_000 }, async () => {
    const next = await folderReportedLate(
      (root) => writeTree(root, { 'made/a.js': 'made();\n', 'made/deep/b.js': 'deep();\n' }),
      'made',
    );
    assert.ok(next.log.some((l) => /The file watcher reported the folder made made or changed before the scan started only after the scan had chosen its files; every file is looked at again/.test(l)), next.log.join('\n'));
    assert.equal(next.uploaded.get('made/a.js'), 'made();\n');
    assert.equal(next.uploaded.get('made/deep/b.js'), 'deep();\n');
  });

  test('a folder deleted just before the scan, reported late and alone, leaves none of its files in the upload', { timeout: 60_000 }, async () => {
    const next = await folderReportedLate((root) => fsp.rm(path.join(root, 'old'), { recursive: true }), 'old');
    assert.ok(next.log.some((l) => /The file watcher reported old deleted only after the scan had chosen its files; every file is looked at again/.test(l)), next.log.join('\n'));
    assert.deepEqual([...next.uploaded.keys()].filter((n) => n.startsWith('old/')), []);
  });

  test('a link made just before the scan, reported late, is uploaded as what it leads to', { timeout: 60_000 }, async () => {
    const next = await folderReportedLate((root) => fsp.symlink('a.js', path.join(root, 'old', 'link.js')), 'old/link.js');
    assert.ok(next.log.some((l) => /The file watcher reported the link old\/link\.js made before the scan started only after the scan had chosen its files; every file is looked at again/.test(l)), next.log.join('\n'));
    assert.equal(next.uploaded.get('old/link.js'), 'a();\n');
  });

  test('a change made while the window was closed is caught: a new window\'s first re-scan looks at every file', async () => {
    const root = await repo();
    const f = folder(root, new ChangeJournal());
    await f.scan();
    // The window closes; a file changes and another appears; a new window opens (its own journal, nothing seen yet).
    await writeTree(root, { 'src/f003.js': 'export const v3 = "changed while closed";\n', 'src/new.js': 'made while closed();\n' });
    const reopened = folder(root, new ChangeJournal(), { reuse: f.reuse });
    const next = await reopened.scan();
    assert.ok(next.log.some((l) => /^Every file is looked at: no scan in this window has packaged the folder yet/.test(l)), next.log.join('\n'));
    assert.equal(next.uploaded.get('src/f003.js'), 'export const v3 = "changed while closed";\n');
    assert.equal(next.uploaded.get('src/new.js'), 'made while closed();\n');
    // Re-scanned in that window, the watcher is trusted from then on.
    const again = await reopened.scan();
    assert.ok(again.log.some((l) => /The file watcher saw no change since the last scan; the folder was not walked again/.test(l)), again.log.join('\n'));
    assert.equal(again.uploaded.size, next.uploaded.size);
  });

  test('a watcher that missed changes is noticed: every file is looked at again, and the watcher is not trusted in that window any more', async () => {
    const root = await repo(150);
    const journal = new ChangeJournal();
    const f = folder(root, journal);
    await f.scan();
    const edits: Record<string, string> = {};
    for (let i = 0; i < 150; i++) edits[`src/f${String(i).padStart(3, '0')}.js`] = `export const v${i} = "missed";\n`;
    await writeTree(root, edits);
    const next = await f.scan();
    assert.ok(next.log.some((l) => /The file watcher missed changes to \d+ files?; every file is looked at again/.test(l)), next.log.join('\n'));
    assert.ok([...next.uploaded].filter(([p]) => p.startsWith('src/')).every(([, text]) => text.endsWith('"missed";\n')), 'every change is uploaded');
    const later = await f.scan();
    assert.ok(later.log.some((l) => /^Every file is looked at: the file watcher missed changes earlier in this window/.test(l)), later.log.join('\n'));
  });

  test('what changes which files git lists sends git back to its walk: ignore rules, tracked paths', async () => {
    const root = await repo();
    const journal = new ChangeJournal();
    const f = folder(root, journal);
    await f.scan();
    await writeTree(root, { '.gitignore': 'build/\nsrc/f004.js\n', 'loose.js': 'loose();\n' });
    journal.note('.gitignore');
    const ignoring = await f.scan();
    assert.ok(ignoring.log.some((l) => /^Every file is looked at: \.gitignore changed/.test(l)), ignoring.log.join('\n'));
    assert.ok(ignoring.uploaded.has('loose.js'), 'the walk found the untracked file');

    // `git rm --cached`: the file is untracked now, and its content unchanged.
    git(root, 'rm', '-q', '--cached', 'src/f005.js');
    await fsp.writeFile(path.join(root, 'later.js'), 'later();\n');
    const untracked = await f.scan();
    assert.ok(untracked.log.some((l) => /git listed the untracked files again \(the tracked paths changed\)/.test(l)), untracked.log.join('\n'));
    assert.ok(untracked.uploaded.has('src/f005.js') && untracked.uploaded.has('later.js'));
  });

  test('a tree smaller than WATCH_FROM_FILES is looked at whole: that is sooner than the watcher\'s latency has passed', async () => {
    const root = await repo();
    const journal = new ChangeJournal();
    const f = folder(root, journal, { watchFromFiles: WATCH_FROM_FILES });
    await f.scan();
    await writeTree(root, { 'src/unseen.js': 'unseen();\n' });
    const next = await f.scan();
    assert.ok(!next.log.some((l) => /file watcher/.test(l)), next.log.join('\n'));
    assert.ok(next.uploaded.has('src/unseen.js'), 'the walk found it');
  });

  test('the kept index goes to a selection told by the watcher only while it is the archive the watcher\'s record starts from', async () => {
    const index = new ArchiveIndexBuilder().build();
    const kept = (madeAtMs: number) => async () => ({ path: 'last.zip', level: 6, madeAtMs, index });
    const watched = { madeAtMs: 5, touched: new Set<string>(), untracked: [], trackedDigest: 'd' };
    assert.equal(await keptIndexFor(kept(5), watched)(), index);
    // Judged by its header, then another scan kept another archive before the selection read it.
    assert.equal(await keptIndexFor(kept(6), watched)(), undefined, 'not that archive: every file is looked at');
    assert.equal(await keptIndexFor(kept(6), undefined)(), index, 'without the watcher, any kept archive helps');
    assert.deepEqual(trustedChanges({ epoch: 1, watched }, () => ({ madeAtMs: 5, files: 10 }), 10), { watched });
    assert.deepEqual(trustedChanges({ epoch: 1, watched }, () => ({ madeAtMs: 5, files: 9 }), 10), {}, 'a small tree is looked at whole');
    assert.match(trustedChanges({ epoch: 1, watched }, () => undefined, 10).why ?? '', /not the one the file watcher started from/);
    // Where the watcher's catch-up is known by a cookie, from fewer files than where it is waited out.
    const kept20k = () => ({ madeAtMs: 5, files: WATCH_FROM_FILES_UNSYNCED - 1 });
    assert.deepEqual(trustedChanges({ epoch: 1, watched, caughtUp: Promise.resolve(true) }, kept20k), { watched });
    assert.deepEqual(trustedChanges({ epoch: 1, watched }, kept20k), {});
    assert.ok(WATCH_FROM_FILES < WATCH_FROM_FILES_UNSYNCED);
  });

  test('the journal: a baseline only from the packaging it started, bounded, and never where settings hide files from the watcher', () => {
    const j = new ChangeJournal();
    assert.equal(j.restart().watched, undefined, 'nothing before a packaging');
    const stale = j.restart().epoch;
    const current = j.restart().epoch;
    j.settle(stale, 1, { untrackedListed: [], trackedDigest: 'd' });
    assert.equal(j.restart().watched, undefined, 'a packaging started before another is not the baseline');
    const e = j.restart().epoch;
    assert.notEqual(e, current);
    j.settle(e, 5, { untrackedListed: ['a'], trackedDigest: 'd' });
    j.note('x.js');
    j.note('.git/index');
    const w = j.restart().watched;
    assert.deepEqual([...w!.touched], ['x.js'], "git's own files are not the folder's");
    assert.equal(w!.madeAtMs, 5);
    assert.equal(j.restart().watched, undefined, 'a packaging that was not kept leaves no baseline');

    const big = new ChangeJournal();
    big.settle(big.restart().epoch, 1, { untrackedListed: [], trackedDigest: 'd' });
    for (let i = 0; i <= MAX_WATCHED_PATHS; i++) big.note(`f${i}`);
    assert.match(big.restart().why ?? '', /more than 2000 paths changed/);

    assert.deepEqual(patternsHidingFiles({ '**/.git/objects/**': true, '.hg/store/**': true, '*/.git/subtree-cache/**': true }), [], "VS Code's defaults hide nothing a scan uploads");
    assert.deepEqual(patternsHidingFiles({ '**/node_modules/**': true, '**/dist/**': false, '**/.git/objects/**': true }), ['**/node_modules/**']);
    const hidden = new ChangeJournal('files.watcherExclude hides **/node_modules/**');
    hidden.settle(hidden.restart().epoch, 1, { untrackedListed: [], trackedDigest: 'd' });
    assert.match(hidden.restart().why ?? '', /watcherExclude/);
  });
});

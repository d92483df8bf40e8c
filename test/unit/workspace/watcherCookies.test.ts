// The cookie a re-scan writes into the folder's .git to learn when the file watcher has
// caught up (watcherCookies.ts): only into a real .git of the folder's own, gone once reported.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { ChangeJournal } from '../../../src/core/workspace/changeJournal';
import { WatcherCookies } from '../../../src/core/workspace/watcherCookies';
import { tempDir } from './helpers';

const made: string[] = [];
async function dir(prefix: string): Promise<string> {
  const d = await tempDir(prefix);
  made.push(d);
  return d;
}

/** The cookies in `root`/.git, as a watcher would report them (relative, `/`-separated). */
async function cookiesIn(root: string): Promise<string[]> {
  const names = await fsp.readdir(path.join(root, '.git')).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith('.watchman-cookie-')).map((n) => `.git/${n}`);
}

describe('watcher cookies', () => {
  after(async () => {
    for (const d of made) await fsp.rm(d, { recursive: true, force: true });
  });

  test('a cookie in .git resolves once the watcher reports it, and is removed then', async () => {
    const root = await dir('cookie-');
    await fsp.mkdir(path.join(root, '.git'));
    const cookies = new WatcherCookies();
    let settled: boolean | undefined;
    const caughtUp = cookies.drop(root)!.then((v) => (settled = v));
    const [rel, ...more] = await cookiesIn(root);
    assert.ok(rel && more.length === 0, 'one cookie was written');
    assert.equal(cookies.reported('.git/index'), false, "git's own files are not cookies");
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(settled, undefined, 'not before the watcher reports it');
    assert.equal(cookies.reported(rel), true);
    assert.equal(await caughtUp, true);
    for (let i = 0; i < 100 && (await cookiesIn(root)).length; i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(await cookiesIn(root), [], 'removed once reported');
    assert.equal(cookies.reported(rel), true, 'its removal, reported too, is still not a file of the folder');
  });

  test('none where the folder has no .git folder of its own, and never a file outside it', async () => {
    const cookies = new WatcherCookies();
    const plain = await dir('cookie-plain-');
    assert.equal(cookies.drop(plain), undefined, 'not a git repository');
    assert.deepEqual(await fsp.readdir(plain), []);

    const worktree = await dir('cookie-worktree-');
    await fsp.writeFile(path.join(worktree, '.git'), 'gitdir: /somewhere/else\n');
    assert.equal(cookies.drop(worktree), undefined, 'a worktree: its .git is a file');

    const elsewhere = await dir('cookie-elsewhere-');
    const linked = await dir('cookie-linked-');
    await fsp.symlink(elsewhere, path.join(linked, '.git'));
    assert.equal(cookies.drop(linked), undefined, 'a .git that links elsewhere');
    assert.deepEqual(await fsp.readdir(elsewhere), [], 'nothing written where it points');
  });

  test('a cookie never reported is given up and removed, and no other is written in that window', async () => {
    const root = await dir('cookie-unseen-');
    await fsp.mkdir(path.join(root, '.git'));
    const cookies = new WatcherCookies(30);
    // Its timer does not keep a process alive; this test's must be.
    const alive = setInterval(() => undefined, 1000);
    try {
      assert.equal(await cookies.drop(root), false, 'given up');
    } finally {
      clearInterval(alive);
    }
    for (let i = 0; i < 100 && (await cookiesIn(root)).length; i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(await cookiesIn(root), []);
    assert.equal(cookies.drop(root), undefined);
    assert.deepEqual(await cookiesIn(root), [], 'the watcher does not report .git here: not written again');
  });

  test('a journal offers a cookie with a record it can trust, and a cookie reported is not a change of the folder', async () => {
    const root = await dir('cookie-journal-');
    await fsp.mkdir(path.join(root, '.git'));
    const j = new ChangeJournal();
    const cookie = { root, fromFiles: 2 };
    assert.equal(j.restart(cookie).caughtUp, undefined, 'no baseline: every file is looked at, nothing to wait for');
    j.settle(j.restart().epoch, 1, { untrackedListed: [], trackedDigest: 'd', files: { length: 1 } });
    assert.equal(j.restart(cookie).caughtUp, undefined, 'fewer files than a re-scan trusts the watcher from: every file is looked at');
    assert.deepEqual(await cookiesIn(root), []);
    j.settle(j.restart().epoch, 1, { untrackedListed: [], trackedDigest: 'd', files: { length: 2 } });
    const snapshot = j.restart(cookie);
    assert.ok(snapshot.watched && snapshot.caughtUp);
    const cookies = await cookiesIn(root);
    assert.equal(cookies.length, 2, 'one written once the archive was kept, one by the scan');
    for (const rel of cookies) j.note(rel);
    assert.equal(await snapshot.caughtUp, true);
    assert.deepEqual([...j.seenSince(snapshot.epoch)!], []);
  });

  test('a cookie the watcher never reports makes the journal untrusted in that window: every file is looked at again', async () => {
    const root = await dir('cookie-journal-unseen-');
    await fsp.mkdir(path.join(root, '.git'));
    const j = new ChangeJournal(undefined, 30);
    const cookie = { root, fromFiles: 1 };
    j.settle(j.restart().epoch, 1, { untrackedListed: [], trackedDigest: 'd', files: { length: 2 } });
    const snapshot = j.restart(cookie);
    assert.ok(snapshot.watched && snapshot.caughtUp, 'trusted while the cookie may still come');
    j.settle(snapshot.epoch, 2, { untrackedListed: [], trackedDigest: 'd', files: { length: 2 } });
    // Its timer does not keep a process alive; this test's must be.
    const alive = setInterval(() => undefined, 1000);
    try {
      assert.equal(await snapshot.caughtUp, false, 'given up');
    } finally {
      clearInterval(alive);
    }
    const next = j.restart(cookie);
    assert.equal(next.watched, undefined);
    assert.match(next.why ?? '', /^the file watcher did not report a file a scan wrote into \.git within 0\.03 s$/);
    j.settle(next.epoch, 3, { untrackedListed: [], trackedDigest: 'd', files: { length: 2 } });
    assert.equal(j.restart(cookie).watched, undefined, 'not in that window any more');
  });

  test('the cookie written once the first archive is kept: never reported, the first re-scan already looks at every file; reported, it trusts the watcher', async () => {
    const root = await dir('cookie-journal-first-');
    await fsp.mkdir(path.join(root, '.git'));
    const cookie = { root, fromFiles: 1 };
    // Its timer does not keep a process alive; this test's must be.
    const alive = setInterval(() => undefined, 1000);
    try {
      const unseen = new ChangeJournal(undefined, 30);
      unseen.settle(unseen.restart(cookie).epoch, 1, { untrackedListed: [], trackedDigest: 'd', files: { length: 2 } });
      assert.equal((await cookiesIn(root)).length, 1, 'written once the archive was kept');
      for (let i = 0; i < 100 && (await cookiesIn(root)).length; i++) await new Promise((r) => setTimeout(r, 5));
      const first = unseen.restart(cookie);
      assert.equal(first.watched, undefined);
      assert.match(first.why ?? '', /^the file watcher did not report a file a scan wrote into \.git within 0\.03 s$/);
    } finally {
      clearInterval(alive);
    }

    const seen = new ChangeJournal(undefined, 30);
    seen.settle(seen.restart(cookie).epoch, 1, { untrackedListed: [], trackedDigest: 'd', files: { length: 2 } });
    for (const rel of await cookiesIn(root)) seen.note(rel);
    await new Promise((r) => setTimeout(r, 60));
    const first = seen.restart(cookie);
    assert.ok(first.watched, first.why);
    for (const rel of await cookiesIn(root)) seen.note(rel);
    assert.equal(await first.caughtUp, true);
  });
});

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { formatBytes } from '../text/bytes';
import { MAX_KEPT_UNTRACKED } from './changeJournal';
import { BoundedList, filterCandidates } from './checkCandidates';
import { FileList, FileListBuilder, findPath } from './fileList';
import { gitBytes, gitListing, isInsideGitWorkTree } from './git';
import { NulSeparated, countPaths, gitCheckIgnored, listGitIgnored, sortedMembership, splitNul, untouchedPlaces, untrackedSince } from './gitListings';
import { isInside, toRelative } from './pathsOnDisk';
import { MAX_TRACKED_UNRECORDED, STATS_LATER_FILES, type SelectOptions, type Selection } from './selection';
import { makeContext, type SelectionContext } from './selectionRules';
import { judgeByGitignoreFiles, walk } from './walkOutsideGit';
import { l10n } from '../text/l10n';

export { formatBytes };
export { FileList, type SelectedFile } from './fileList';
export * from './selection';
export * from './selectionSummary';
export { absolutePathOf, compareBytes, followLinkInside, lstatQuiet } from './pathsOnDisk';
export { recordedStats } from './checkCandidates';
export { zipWouldRename } from './selectionRules';

/**
 * All files of a workspace folder worth scanning. In a git work tree: tracked plus
 * untracked-but-not-ignored files as git itself reports them, so `.gitignore`,
 * `.git/info/exclude` and the global excludes file all apply. Elsewhere: a directory walk
 * that applies every `.gitignore` found on the way.
 */
export async function selectWorkspaceFiles(root: string, opts: SelectOptions = {}): Promise<Selection> {
  // git is asked for its listings before anything else, and rather than first whether this
  // is a work tree (one process less, ~10 ms of every scan): they are the longest part of
  // the selection, and the folder's own checks (makeContext) run meanwhile. Only when the
  // listing fails does that question decide between git's error and a walk. The tracked
  // list comes back first (git reads it from its index) and is checked while git still walks
  // the tree for the untracked files: on the babel shape that overlap saves about a third of
  // the selection.
  const at = path.resolve(root);
  if (opts.useGit === false) return selectByWalk(await makeContext(root, opts), opts);
  const trackedP = gitListing(at, ['ls-files', '-z', '--cached']);
  const watched = opts.known ? opts.watched : undefined;
  const listUntracked = () => gitListing(at, ['ls-files', '-z', '--others', '--exclude-standard']);
  // Told what changed, git's walk waits to learn whether the tracked paths are still those of then.
  let untrackedP = watched ? undefined : listUntracked();
  // Awaited later or never (the folder may not even exist): a failure is not "unhandled" meanwhile.
  trackedP.catch(() => undefined);
  untrackedP?.catch(() => undefined);
  const ctx = await makeContext(root, opts);
  const ignoredP = opts.listIgnored ? listGitIgnored(ctx.root) : Promise.resolve([]);
  const known = typeof opts.known === 'function' ? await opts.known() : opts.known;
  let trackedOut: Buffer | undefined;
  try {
    trackedOut = await trackedP;
  } catch (e) {
    if (await isInsideGitWorkTree(ctx.root)) throw e;
  }
  if (trackedOut) {
    const trackedDigest = createHash('sha256').update(trackedOut).digest('hex');
    // The same tracked paths as then, so the same untracked ones but for what the watcher saw touched.
    const sinceThen = watched && known && trackedDigest === watched.trackedDigest;
    // Touched paths that were no recorded file: a folder made, moved or deleted, or a file new or left out then.
    const notRecorded = watched && known ? new Set([...watched.touched].filter((p) => findPath(known, p) < 0)) : new Set<string>();
    untrackedP ??= sinceThen ? untrackedSince(at, watched, notRecorded) : listUntracked();
    // Tracked files deleted from the worktree are listed by --cached; they are simply gone.
    // What the repository tracks is uploaded even inside a default-excluded folder (fixtures
    // with a node_modules, a committed dist): the repository chose to keep it.
    // Sized for every path git listed (no list grown by doubling), its names kept in git's
    // listing itself: the digest above is the last look at the listing as git gave it.
    const trackedCount = countPaths(trackedOut);
    opts.onCount?.(trackedCount);
    const tracked = new FileListBuilder(trackedCount, trackedOut.length, trackedOut);
    const unrecorded = known ? new BoundedList(MAX_TRACKED_UNRECORDED) : undefined;
    const trackedListing = new NulSeparated(trackedOut);
    const watch = watched && known ? { untouchedAt: untouchedPlaces(known, watched.touched, notRecorded), missed: 0 } : undefined;
    const later = opts.statsLater === true && !known && trackedCount >= STATS_LATER_FILES;
    await filterCandidates(ctx, trackedListing, tracked, { dropMissing: true, kept: () => true, known, unrecorded, tracked: true, watch, later });
    const trackedList = tracked.build();
    // A path git lists both ways (the index changed between the two listings) counts as tracked.
    const untracked = new FileListBuilder(64);
    const alsoTracked = sortedMembership(trackedList);
    const untrackedOut = await untrackedP;
    const untrackedListing = new NulSeparated(untrackedOut, alsoTracked);
    await filterCandidates(ctx, untrackedListing, untracked, { dropMissing: true, kept: () => false, known, later });
    for (const p of await ignoredP) ctx.skip(p, 'gitignored');
    const untrackedListed = untrackedListing.count <= MAX_KEPT_UNTRACKED ? splitNul(untrackedOut.toString('utf8')) : undefined;
    return {
      ...ctx.finish(FileList.merge(trackedList, untracked.build())),
      gitUntracked: untrackedListing.count, gitTrackedLeftOut: trackedListing.count - trackedList.length, trackedUnrecorded: unrecorded?.items,
      untrackedListed, trackedDigest, ...(watch && watched ? { watcher: { touched: watched.touched.size, missed: watch.missed, walked: !sinceThen } } : {}),
      ...(later ? { statsLater: { maxSize: ctx.maxSize, realRoot: ctx.realRoot } } : {}),
    };
  }
  return selectByWalk(ctx, opts);
}

/** Outside git (or without it): the walk that applies every `.gitignore` found on the way. */
async function selectByWalk(ctx: SelectionContext, opts: SelectOptions): Promise<Selection> {
  const { files, kept } = await walk(ctx);
  opts.onCount?.(files.length);
  const out = new FileListBuilder(files.length);
  await filterCandidates(ctx, files, out, { dropMissing: true, kept: (rel) => kept.has(rel) });
  const sel = ctx.finish(out.build());
  if (opts.useGit === false) sel.notes.push(l10n.t('Files were chosen without running git (the workspace is not trusted): by the .gitignore files found, which a scan in a trusted workspace may choose differently from.'));
  return sel;
}

/** A selection from explicit absolute paths: partial (typically the open editors), or a whole commit's files (`partial: false`). */
export async function selectGivenFiles(root: string, absPaths: string[], opts: SelectOptions = {}, o: { partial?: boolean } = {}): Promise<Selection> {
  const ctx = await makeContext(root, opts, { partial: o.partial ?? true });
  const candidates: string[] = [];
  for (const abs of absPaths) {
    const rel = toRelative(ctx, abs);
    if (rel === undefined) {
      ctx.skip(abs.split(path.sep).join('/'), 'outside-folder');
      continue;
    }
    // A path reached through a symlinked directory may really live elsewhere.
    const real = await fsp.realpath(path.join(ctx.root, rel)).catch(() => undefined);
    if (real && !isInside(ctx.realRoot, real)) {
      ctx.skip(rel, 'symlink-outside');
      continue;
    }
    candidates.push(rel);
  }
  const out = new FileListBuilder(candidates.length);
  // Both questions to git at once: each reads the whole index (about 20 ms on a large
  // repository), and a save's scan asks them for one file (the bench's save to scan id).
  // Both are `ls-files`, which answers only in a work tree: only when neither does is git
  // asked whether this is one (a damaged index fails them inside one), so a save in a
  // repository starts two git processes, not three.
  const inGit = opts.useGit !== false && candidates.length > 0;
  const [ignoredP, trackedP] = inGit
    ? [settled(gitCheckIgnored(ctx.root, candidates)), settled(gitBytes(ctx.root, ['--literal-pathspecs', 'ls-files', '-z', '--cached', '--', ...candidates]))]
    : [undefined, undefined];
  const answered = inGit && ((await ignoredP!).ok || (await trackedP!).ok);
  if (answered || (inGit && (await isInsideGitWorkTree(ctx.root)))) {
    const ignored = unwrap(await ignoredP!);
    for (const p of ignored) ctx.skip(p, 'gitignored');
    const listed = await trackedP!;
    const tracked = new Set(listed.ok ? splitNul(listed.value.toString('utf8')) : []);
    await filterCandidates(ctx, candidates.filter((p) => !ignored.has(p)), out, { dropMissing: false, kept: (rel) => tracked.has(rel) });
  } else {
    // Outside git (or without it) the .gitignore files decide, as for a whole folder.
    const { ignored, kept } = await judgeByGitignoreFiles(ctx, candidates);
    for (const p of ignored) ctx.skip(p, 'ignore-file');
    await filterCandidates(ctx, candidates.filter((p) => !ignored.has(p)), out, { dropMissing: false, kept: (rel) => kept.has(rel) });
  }
  return ctx.finish(out.build());
}

/**
 * A partial selection from git changes: staged, modified and untracked (not ignored)
 * files. Deleted files are dropped — there is nothing to scan.
 */
export async function selectChangedFiles(root: string, opts: SelectOptions = {}): Promise<Selection> {
  const ctx = await makeContext(root, opts, { partial: true });
  if (opts.useGit === false) throw new Error(l10n.t('changed files are listed by git, which does not run in a workspace that is not trusted; trust the workspace to scan its changed files'));
  if (!(await isInsideGitWorkTree(ctx.root))) {
    throw new Error(l10n.t('it is not a git repository, so git reports no changes to scan there; scan the workspace or the open files instead'));
  }
  const top = (await gitBytes(ctx.root, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
  const out = (await gitBytes(ctx.root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', '.'])).toString('utf8');
  const fields = splitNul(out);
  const candidates: string[] = [];
  for (const f of fields) {
    const x = f[0];
    const y = f[1];
    const repoRel = f.slice(3);
    if (x === 'D' || y === 'D' || x === '!') continue;
    const rel = toRelative(ctx, path.join(top, repoRel));
    if (rel !== undefined) candidates.push(rel);
  }
  const unique = [...new Set(candidates)];
  const tracked = new Set(splitNul((await gitBytes(ctx.root, ['ls-files', '-z', '--cached']).catch(() => Buffer.alloc(0))).toString('utf8')));
  const list = new FileListBuilder(unique.length);
  await filterCandidates(ctx, unique, list, { dropMissing: true, kept: (rel) => tracked.has(rel) });
  return ctx.finish(list.build());
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise's outcome, so one started early is not an unhandled rejection while it is not needed. */
function settled<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
}

function unwrap<T>(s: Settled<T>): T {
  if (!s.ok) throw s.error;
  return s.value;
}

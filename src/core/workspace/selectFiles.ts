/* eslint-disable max-lines -- the selection is still to split by idea: git's listings, name rules, the walk outside git (issue 58) */
import { lstatSync, promises as fsp, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { createHash } from 'node:crypto';
import { formatBytes } from '../text/bytes';
import { CREDENTIAL_FILE_PATTERNS, credentialMatcher } from './credentials';
import { BINARY_ASSET_EXTENSIONS, DEFAULT_EXCLUDED_DIRS, DEFAULT_EXCLUDED_FILES, defaultExcludeMatcher, isBinaryAssetName } from './defaultExcludes';
import type { FolderVerdict, PathMatcher } from './fastMatcher';
import { MAX_KEPT_UNTRACKED, touchedPath, type WatchedChanges } from './changeJournal';
import { FileList, FileListBuilder, findPath, pathStart, pathsBelow, type PathBytes } from './fileList';
import { gitBytes, gitListing, isInsideGitWorkTree } from './git';
import { boundPatterns } from './patterns';
import { isNotFound } from './safeOpen';
import { plural } from '../text/plural';

export { formatBytes };

export { FileList, type SelectedFile } from './fileList';

export type SkipReason =
  | 'gitignored'
  /** Outside git: a `.gitignore` file's rule (no git ignores anything there). */
  | 'ignore-file'
  | 'default-exclude'
  | 'user-exclude'
  | 'too-large'
  | 'outside-folder'
  | 'symlink-outside'
  | 'not-a-file'
  | 'missing'
  | 'binary'
  | 'unreadable'
  | 'credentials'
  /** A name the zip format would store differently (a leading `x:` or `../`). */
  | 'unsafe-name'
  /** A comma in the name: a partial scan's file list is comma-separated. */
  | 'comma-in-name'
  /** Replaced (by a link, a FIFO, another file) between selection and packaging. */
  | 'changed';

/**
 * Where a selected file is on disk (a symlink's resolved target, so it can be opened
 * without following links). `rel` is a safe relative path (no `..`, no empty segment), so
 * joining needs no normalising: most platforms' file APIs take `/` as a separator.
 */
export function absolutePathOf(root: string, rel: string): string {
  return path.sep === '/' ? `${root}/${rel}` : path.join(root, ...rel.split('/'));
}

export interface SkippedFile {
  path: string;
  reason: SkipReason;
}

export interface Selection {
  root: string;
  /** Sorted by path bytes (git's order), which is the archive's order. */
  files: FileList;
  skipped: SkippedFile[];
  totalBytes: number;
  /** Things the user should know about how files were chosen (patterns simplified, ...). */
  notes: string[];
  /**
   * A whole folder selected in a git work tree: how many untracked, not ignored files git
   * listed there (before this extension's own exclusions), which `git status` would show.
   */
  gitUntracked?: number;
  /**
   * A whole folder selected in a git work tree: how many of the paths git tracks there are
   * not in the selection (deleted, credential files, too big, excluded, submodules). Any
   * means the upload is not the commit's tracked files as they are (decisions.md, `dirty`).
   */
  gitTrackedLeftOut?: number;
  /**
   * A whole folder selected in a git work tree with `known` given: the tracked paths that are
   * not the very file recorded there (new, changed, links, left out, gone), in git's order;
   * undefined when there are more than MAX_TRACKED_UNRECORDED. The tracked files not listed
   * here have not been written since that packaging (see trackedClean.ts).
   */
  trackedUnrecorded?: string[];
  /**
   * A whole folder selected in a git work tree: the untracked, not ignored paths git listed
   * (undefined beyond MAX_KEPT_UNTRACKED). What the next selection starts from when a file
   * watcher tells it what changed since (SelectOptions.watched).
   */
  untrackedListed?: string[];
  /**
   * Chosen with SelectOptions.watched: how many paths the watcher had seen touched, how many
   * of the files it had not seen touched were looked at anyway and found changed (any such
   * miss means the watcher cannot be trusted: choose again without it), and whether git's
   * untracked walk ran all the same (the tracked paths were no longer those of then).
   */
  watcher?: { touched: number; missed: number; walked: boolean };
  /** A whole folder selected in a git work tree: the SHA-256 of git's listing of the tracked paths. */
  trackedDigest?: string;
  /**
   * Chosen with SelectOptions.statsLater: the files were judged by name and folder only. Their
   * sizes, inodes and times are 0 (and totalBytes), and packaging's own look at each file is
   * the only one: it leaves out what is not a regular file or is over `maxSize`, and follows a
   * link only to a file inside `realRoot` (followLinkInside), as the selection would have.
   */
  statsLater?: { maxSize: number; realRoot: string };
  /**
   * Names the rules that chose these files (the default, credential and binary exclusions,
   * the user's patterns, the size limit, and the code applying them): equal keys, equal
   * verdicts for the same path. Packaging records it with the archive (ArchiveIndex.selectedBy).
   */
  rulesKey: string;
}

/** Beyond this many, Selection.trackedUnrecorded is not kept (see there). */
export const MAX_TRACKED_UNRECORDED = 256;

export interface SelectOptions {
  /** gitignore-style globs relative to the root, e.g. `docs/**`, `*.snap`. */
  excludeGlobs?: string[];
  /** Files above this size are skipped with reason `too-large`. Default 10 MB. */
  maxFileSizeBytes?: number;
  /** Credential files (see credentials.ts) to upload anyway, gitignore-style. */
  allowCredentialFiles?: string[];
  /**
   * Also list what git ignores (as `gitignored`), for a preview of what is left out. A scan
   * does not ask: it is a second walk of the whole tree that only feeds a report.
   */
  listIgnored?: boolean;
  /**
   * The files of the folder's last archive (its index). A file that is still the very file
   * recorded there (same inode, size, modification and change times) was inside the folder
   * when that archive was made and has not been linked, moved or written since, so the
   * folders on its path need no symlink check: on a re-scan of the babel shape that is
   * 13,000 lstat calls, 40 of its 250 ms of selection. (Were a folder above it moved out of the
   * workspace and a symlink left in its place, what would be read is what was uploaded last
   * time, byte for byte; a planted link reaches other inodes, which get the full check.)
   * Or a function giving them, called once git is at work on its listings: reading a kept
   * index (~15 ms on the babel shape) then costs the selection nothing.
   */
  known?: KnownFiles | (() => KnownFiles | undefined | Promise<KnownFiles | undefined>);
  /**
   * false: no git process at all (a workspace that is not trusted: its `.git/config` can
   * name programs git starts). Files are then chosen by the walk that applies every
   * `.gitignore` on the way, as outside git; changed files cannot be listed.
   */
  useGit?: boolean;
  /**
   * What the folder's file watcher saw since the archive `known` describes was made
   * (changeJournal.ts); only with `known`. git's untracked walk is not run: the untracked
   * files are those git listed then, less the touched paths, plus what git lists among the
   * touched paths. A tracked file `known` records and the watcher did not see touched is
   * taken as recorded, without an lstat; one in SAMPLE_UNTOUCHED is looked at all the same,
   * and any found changed is counted (Selection.watcher.missed).
   */
  watched?: WatchedChanges;
  /**
   * Told once how many files the folder has, as soon as the selection knows it roughly
   * (in git: the tracked files, listed first; outside git: once the walk has found them all),
   * long before it ends: packaging can start what it needs for a folder that size.
   */
  onCount?: (files: number) => void;
  /**
   * A scan's selection of a whole folder in git with STATS_LATER_FILES tracked files or more,
   * and no `known`: each file's lstat is left to packaging (Selection.statsLater), which
   * opens and fstat-s every file anyway: one system call per file less on a big folder's
   * cold scan. Not for what reports sizes before packaging (the upload preview, the first
   * upload's question).
   * What it gives up: the file's inode, seen in the selection, that packaging checks once it
   * has opened the file (safeOpen.ts). That check caught a folder on the file's path turned
   * into a link leading out between the file's lstat and its opening, never before the lstat
   * (the lstat followed the link too); each folder is still checked once, when the selection
   * first meets it, and a link as the file itself is still followed only inside the folder.
   */
  statsLater?: boolean;
}

/**
 * From this many tracked files a scan's selection leaves each file's lstat to packaging
 * (SelectOptions.statsLater): EARLY_WORKER_FILES in zip.ts, so such a folder's deflate
 * workers always start with the selection, not by the bytes it has, which are not known.
 */
export const STATS_LATER_FILES = 2_500;

/** Files recorded by an earlier packaging, in ascending byte order of their paths (an ArchiveIndex). */
export interface KnownFiles extends PathBytes {
  /** The rules that chose them (Selection.rulesKey), when known. */
  readonly selectedBy?: string;
  readonly columns: {
    readonly size: ArrayLike<number>;
    readonly mtimeMs: ArrayLike<number>;
    readonly ctimeMs: ArrayLike<number>;
    readonly ino: ArrayLike<number>;
  };
}

/** More exclude patterns than this is refused (each costs a test on every path). */
export const MAX_EXCLUDE_GLOBS = 1000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export const DEFAULT_MAX_FILE_SIZE_BYTES = 10 * 1024 * 1024;

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
async function selectByWalk(ctx: Context, opts: SelectOptions): Promise<Selection> {
  const { files, kept } = await walk(ctx);
  opts.onCount?.(files.length);
  const out = new FileListBuilder(files.length);
  await filterCandidates(ctx, files, out, { dropMissing: true, kept: (rel) => kept.has(rel) });
  const sel = ctx.finish(out.build());
  if (opts.useGit === false) sel.notes.push('Files were chosen without running git (the workspace is not trusted): by the .gitignore files found, which a scan in a trusted workspace may choose differently from.');
  return sel;
}

/** A partial selection from explicit absolute paths (typically the open editors). */
export async function selectGivenFiles(root: string, absPaths: string[], opts: SelectOptions = {}): Promise<Selection> {
  const ctx = await makeContext(root, opts, { partial: true });
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
  if (opts.useGit === false) throw new Error('changed files are listed by git, which does not run in a workspace that is not trusted; trust the workspace to scan its changed files');
  if (!(await isInsideGitWorkTree(ctx.root))) {
    throw new Error('it is not a git repository, so git reports no changes to scan there; scan the workspace or the open files instead');
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

export interface SelectionSummary {
  files: number;
  bytes: number;
  skipped: number;
  skippedByReason: Partial<Record<SkipReason, number>>;
}

/** Whether git listed untracked files in a whole folder's selection; undefined when it was not asked (outside git, a partial selection). */
export function foundGitUntracked(sel: Selection): boolean | undefined {
  return sel.gitUntracked === undefined ? undefined : sel.gitUntracked > 0;
}

export function summarizeSelection(sel: Selection): SelectionSummary {
  const skippedByReason: Partial<Record<SkipReason, number>> = {};
  for (const s of sel.skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
  return { files: sel.files.length, bytes: sel.totalBytes, skipped: sel.skipped.length, skippedByReason };
}

const REASON_LABELS: Record<SkipReason, string> = {
  gitignored: 'ignored by git',
  'ignore-file': 'matched by a .gitignore',
  'default-exclude': 'dependency/build/editor folders',
  'user-exclude': 'your exclude globs',
  'too-large': 'over the size limit',
  'outside-folder': 'outside the folder',
  'symlink-outside': 'symlinks leaving the folder',
  'not-a-file': 'not regular files',
  missing: 'missing',
  binary: 'binary assets',
  unreadable: 'unreadable',
  credentials: 'credential files',
  'unsafe-name': 'names an archive cannot hold',
  'comma-in-name': 'names with a comma (partial scans)',
  changed: 'replaced while packaging',
};

export function skipReasonLabel(reason: SkipReason): string {
  return REASON_LABELS[reason];
}

/** One line for a status bar, log or notification, e.g. "412 files, 3.1 MB; skipped 12 (...)". */
export function formatSelectionSummary(sel: Selection): string {
  const s = summarizeSelection(sel);
  const head = `${plural(s.files, 'file')}, ${formatBytes(s.bytes)}`;
  if (s.skipped === 0) return head;
  const parts = (Object.entries(s.skippedByReason) as [SkipReason, number][])
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${n} ${REASON_LABELS[r]}`);
  return `${head}; skipped ${s.skipped}: ${parts.join(', ')}`;
}

// ---------------------------------------------------------------------------------------

interface Context {
  root: string;
  rulesKey: string;
  realRoot: string;
  maxSize: number;
  partial: boolean;
  defaults: PathMatcher;
  user: Ignore | undefined;
  credentials: PathMatcher;
  /** The user's choice of credential files to upload anyway. */
  allowed: Ignore | undefined;
  skipped: SkippedFile[];
  notes: string[];
  skip(p: string, reason: SkipReason): void;
  finish(files: FileList): Selection;
}

/**
 * Part of Selection.rulesKey: raise it with any change to the code that judges a path
 * (fileExclusion and what it calls, isSafeRelative, the matchers), so that files recorded
 * under the old code are judged again rather than taken on the old verdict.
 */
// 2: packaging leaves out files whose content is binary (binaryContent.ts); archives made before may hold some.
const RULES_VERSION = 2;

async function makeContext(rootIn: string, opts: SelectOptions, o: { partial?: boolean } = {}): Promise<Context> {
  const root = path.resolve(rootIn);
  let realRoot: string;
  try {
    realRoot = await fsp.realpath(root);
    if (!(await fsp.stat(realRoot)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new Error(`The folder "${rootIn}" does not exist or is not a directory.`);
  }
  const raw = (opts.excludeGlobs ?? []).map((g) => g.trim()).filter((g) => g.length > 0 && !g.startsWith('#'));
  if (raw.length > MAX_EXCLUDE_GLOBS) {
    throw new Error(`The setting codeScanner.excludeGlobs has ${raw.length} patterns; at most ${MAX_EXCLUDE_GLOBS} are supported. Combine them (for example "docs/**" instead of one pattern per file).`);
  }
  const globs = boundPatterns(raw, 'codeScanner.excludeGlobs');
  const maxSize = opts.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES;
  if (!(maxSize > 0)) throw new Error(`The maximum file size must be a positive number of bytes (got ${maxSize}).`);
  const allow = boundPatterns(opts.allowCredentialFiles ?? [], 'codeScanner.uploadCredentialFiles').patterns;
  const skipped: SkippedFile[] = [];
  const notes = [...globs.notes];
  const rulesKey = createHash('sha256').update(JSON.stringify([
    RULES_VERSION, o.partial === true, maxSize, globs.patterns, allow,
    DEFAULT_EXCLUDED_DIRS, DEFAULT_EXCLUDED_FILES, [...BINARY_ASSET_EXTENSIONS], CREDENTIAL_FILE_PATTERNS,
  ])).digest('hex');
  return {
    root,
    rulesKey,
    realRoot,
    maxSize,
    partial: o.partial === true,
    defaults: defaultExcludeMatcher(),
    user: globs.patterns.length ? ignore().add(globs.patterns) : undefined,
    credentials: credentialMatcher(),
    allowed: allow.length ? ignore({ ignorecase: true }).add([...allow]) : undefined,
    skipped,
    notes,
    skip: (p, reason) => skipped.push({ path: p, reason }),
    finish: (files) => {
      skipped.sort((a, b) => compareBytes(a.path, b.path));
      return { root, files, skipped, totalBytes: files.totalBytes, notes, rulesKey };
    },
  };
}

/**
 * Names that zip readers rewrite or refuse: a leading `word:` (read as a drive letter),
 * leading `../` or `/`, backslashes and doubled slashes. Such a file would be unpacked
 * under another name on the service (two files could collide), so it is left out instead.
 */
export function zipWouldRename(rel: string): boolean {
  return /^\w+:/.test(rel) || rel.startsWith('/') || rel.startsWith('../') || rel.includes('\\') || rel.includes('//');
}

/** What a folder's path decides for the files in it. */
interface FolderState {
  defaults: FolderVerdict;
  credentials: FolderVerdict;
  /**
   * False when the folder, or one above it, is a symlink leading out of the workspace;
   * undefined until a file in it needs to know (FolderChain.inside).
   */
  inside?: boolean;
}

/**
 * Name-based exclusion, cheapest first; undefined when the path may be included. `kept`:
 * the repository keeps the path on purpose (git tracks it, or a .gitignore re-includes it),
 * so the default excludes do not apply; the user's own excludes and the credential rule do.
 */
function nameExclusion(ctx: Context, rel: string, kept = false): SkipReason | undefined {
  if (!kept && ctx.defaults(rel)) return 'default-exclude';
  if (isBinaryAssetName(rel)) return 'binary';
  if (ctx.credentials(rel) && !ctx.allowed?.ignores(rel)) return 'credentials';
  return userOrNameExclusion(ctx, rel);
}

/** nameExclusion for a file whose folder was judged already. */
function fileExclusion(ctx: Context, folder: FolderState, name: string, rel: string, kept: boolean): SkipReason | undefined {
  if (!kept && ctx.defaults.file(folder.defaults, name, rel)) return 'default-exclude';
  if (isBinaryAssetName(name)) return 'binary';
  if (ctx.credentials.file(folder.credentials, name, rel) && !ctx.allowed?.ignores(rel)) return 'credentials';
  return userOrNameExclusion(ctx, rel);
}

function userOrNameExclusion(ctx: Context, rel: string): SkipReason | undefined {
  if (ctx.user?.ignores(rel)) return 'user-exclude';
  if (zipWouldRename(rel)) return 'unsafe-name';
  if (ctx.partial && rel.includes(',')) return 'comma-in-name';
  return undefined;
}

/**
 * The states of the folders on the way to the last path asked about. Paths come sorted
 * (git's listings) or folder by folder (the walk), so each folder is judged once, and only
 * the current chain is kept, not every folder of the tree.
 */
class FolderChain {
  private readonly rels: string[] = [''];
  private readonly states: FolderState[];

  constructor(private readonly ctx: Context) {
    this.states = [{ defaults: ctx.defaults.top, credentials: ctx.credentials.top, inside: true }];
  }

  state(dirRel: string): FolderState {
    const rels = this.rels;
    let depth = rels.length - 1;
    if (rels[depth] === dirRel) return this.states[depth];
    // Back up to the deepest folder that holds this one.
    while (depth > 0 && !(dirRel.startsWith(rels[depth]) && dirRel.charCodeAt(rels[depth].length) === 47 /* / */)) depth--;
    rels.length = depth + 1;
    this.states.length = depth + 1;
    let at = depth === 0 ? 0 : rels[depth].length + 1;
    while (at < dirRel.length) {
      let slash = dirRel.indexOf('/', at);
      if (slash < 0) slash = dirRel.length;
      const rel = dirRel.slice(0, slash);
      const name = dirRel.slice(at, slash);
      const parent = this.states[this.states.length - 1];
      rels.push(rel);
      this.states.push({
        defaults: this.ctx.defaults.folder(parent.defaults, name, rel),
        credentials: this.ctx.credentials.folder(parent.credentials, name, rel),
      });
      at = slash + 1;
    }
    return this.states[this.states.length - 1];
  }

  /** Whether the folder last asked about (`state`) stays inside the workspace; its folders are lstat-ed once, when first asked. */
  inside(depth = this.states.length - 1): boolean {
    const state = this.states[depth];
    state.inside ??= this.inside(depth - 1) && this.staysInside(this.rels[depth]);
    return state.inside;
  }

  /**
   * A folder on the way may be a symlink leading out of the workspace (git lists the paths
   * it once tracked there): it is resolved only when it is a link.
   */
  private staysInside(dirRel: string): boolean {
    const abs = absolutePathOf(this.ctx.root, dirRel);
    const st = lstatQuiet(abs);
    if (st instanceof Error || !st.isSymbolicLink()) return true;
    try {
      const real = realpathSync(abs);
      return real === this.ctx.realRoot || isInside(this.ctx.realRoot, real);
    } catch {
      return false;
    }
  }
}

/** How long the selection may hold the event loop before it yields (ms). */
const YIELD_MS = 8;

/**
 * A symlink in the folder, followed only when its final target is inside `realRoot`: that
 * file's status and its path relative to `realRoot`.
 */
export function followLinkInside(realRoot: string, abs: string): { st: Stats; target: string } | 'missing' | 'symlink-outside' {
  let real: string;
  let st: Stats;
  try {
    real = realpathSync(abs);
    st = statSync(real);
  } catch {
    return 'missing';
  }
  if (!isInside(realRoot, real)) return 'symlink-outside';
  return { st, target: path.relative(realRoot, real).split(path.sep).join('/') };
}

export function lstatQuiet(p: string): Stats | NodeJS.ErrnoException {
  try {
    return lstatSync(p);
  } catch (e) {
    return e as NodeJS.ErrnoException;
  }
}

/**
 * git's NUL-separated listing as paths, one string at a time (the listing itself stays one
 * buffer); the bytes of the path last given stay known, so a chosen path is copied into the
 * file list as it is rather than encoded again. `skip` drops paths by their bytes before a
 * string is made for them.
 */
class NulSeparated implements Iterable<string> {
  start = 0;
  end = 0;
  /** Paths passed over so far, the skipped ones included. */
  count = 0;

  /** Where the next path is looked for. */
  private at = 0;

  constructor(readonly buf: Buffer, private readonly skip?: (buf: Buffer, start: number, end: number) => boolean) {}

  /** Moves to the next path not skipped (its bytes `buf[start, end)`); false after the last. */
  next(): boolean {
    const out = this.buf;
    while (this.at < out.length) {
      const start = this.at;
      let end = out.indexOf(0, start);
      if (end < 0) end = out.length;
      this.at = end + 1;
      if (end > start) this.count++;
      if (end > start && !this.skip?.(out, start, end)) {
        this.start = start;
        this.end = end;
        return true;
      }
    }
    return false;
  }

  /** The current path as text. */
  text(): string {
    return this.buf.toString('utf8', this.start, this.end);
  }

  *[Symbol.iterator](): Iterator<string> {
    while (this.next()) yield this.text();
  }
}

/**
 * For paths asked about in ascending byte order: where each is in `list`, or -1 (one pass
 * over it; a path asked out of order is reported absent, never found at a wrong place).
 */
function sortedLookup(list: PathBytes): (buf: Buffer, start: number, end: number) => number {
  let i = 0;
  return (buf, start, end) => {
    for (; i < list.length; i++) {
      const c = buf.compare(list.names, pathStart(list, i), list.ends[i], start, end);
      if (c === 0) return i;
      if (c < 0) return -1;
    }
    return -1;
  };
}

/** `st` when it is the very file entry `j` of `known` was made from (-1: none), else undefined. */
export function recordedStats(known: KnownFiles | undefined, j: number, st: Stats | NodeJS.ErrnoException): Stats | undefined {
  if (!known || j < 0 || st instanceof Error || !st.isFile()) return undefined;
  const c = known.columns;
  return c.ino[j] === st.ino && st.ino !== 0 && c.size[j] === st.size && c.mtimeMs[j] === st.mtimeMs && c.ctimeMs[j] === st.ctimeMs ? st : undefined;
}

/** For paths asked about in ascending byte order: whether each is in `list` (one pass over it). */
function sortedMembership(list: PathBytes): (buf: Buffer, start: number, end: number) => boolean {
  const lookup = sortedLookup(list);
  return (buf, start, end) => lookup(buf, start, end) >= 0;
}

/**
 * Checks each candidate on disk and adds the ones to upload to `out`. Synchronous calls in
 * slices of a few milliseconds: from the page cache an lstat takes a few microseconds, while
 * the promise API costs tens of microseconds a call in round trips to the thread pool.
 */
async function filterCandidates(
  ctx: Context, rels: Iterable<string>, out: FileListBuilder,
  o: {
    dropMissing: boolean; kept?: (rel: string) => boolean; known?: KnownFiles; unrecorded?: BoundedList; tracked?: boolean;
    /** Paths a file watcher did not see touched, and how many of those looked at had changed all the same. */
    watch?: { untouchedAt: (j: number) => boolean; missed: number };
    /** Files judged by name and folder only, their lstat left to packaging (SelectOptions.statsLater). */
    later?: boolean;
  },
): Promise<void> {
  const folders = new FolderChain(ctx);
  const listing = rels instanceof NulSeparated ? rels : undefined;
  // Only git's listings come in byte order, which a lookup walking forward needs.
  const recorded = listing && o.known ? sortedLookup(o.known) : undefined;
  // A tracked file that is still the very file `known` recorded passed these same rules
  // then (as a tracked file, or as an untracked one under stricter ones): the verdict holds,
  // and its name is not judged again (a re-scan of the babel shape: 40 of 150 ms).
  const verdictsHold = recorded !== undefined && o.tracked === true && o.known!.selectedBy === ctx.rulesKey;
  /** Where the listing's current path is in `known`, or -1. */
  const recordedAt = () => (recorded ? recorded(listing!.buf, listing!.start, listing!.end) : -1);
  let last = performance.now();
  let n = 0;
  let sampled = 0;
  // The path before this one, unless it was added as the very file `known` records.
  let unrecorded: string | undefined;
  // A listing is read in place: a recorded file the watcher did not see touched (most of a
  // re-scan) is added without its path ever becoming a string.
  const others = listing ? undefined : rels[Symbol.iterator]();
  for (;;) {
    let rel: string | undefined;
    if (listing) {
      if (!listing.next()) break;
    } else {
      const r = others!.next();
      if (r.done) break;
      rel = r.value;
    }
    if (unrecorded !== undefined) o.unrecorded?.add(unrecorded);
    unrecorded = undefined;
    if ((++n & 31) === 0 && performance.now() - last > YIELD_MS) {
      await yieldToEventLoop();
      last = performance.now();
    }
    let st: Stats | NodeJS.ErrnoException | undefined;
    const j = verdictsHold ? recordedAt() : -1;
    if (j >= 0) {
      const untouched = o.watch?.untouchedAt(j) === true;
      if (untouched && ++sampled % SAMPLE_UNTOUCHED !== 0) {
        const c = o.known!.columns;
        out.addKnown(listing!.buf, listing!.start, listing!.end, o.known!, j, c.size[j], c.ino[j], c.mtimeMs[j], c.ctimeMs[j]);
        continue;
      }
      rel ??= listing!.text();
      st = lstatQuiet(absolutePathOf(ctx.root, rel));
      const same = recordedStats(o.known, j, st);
      if (same) {
        out.addKnown(listing!.buf, listing!.start, listing!.end, o.known!, j, same.size, same.ino, same.mtimeMs, same.ctimeMs);
        continue;
      }
      if (untouched) o.watch!.missed++;
    }
    rel ??= listing!.text();
    unrecorded = rel;
    if (!isSafeRelative(rel)) {
      ctx.skip(rel, 'outside-folder');
      continue;
    }
    const abs = absolutePathOf(ctx.root, rel);
    const slash = rel.lastIndexOf('/');
    const folder = folders.state(slash < 0 ? '' : rel.slice(0, slash));
    const reason = fileExclusion(ctx, folder, slash < 0 ? rel : rel.slice(slash + 1), rel, o.kept?.(rel) ?? false);
    if (reason) {
      ctx.skip(rel, reason);
      continue;
    }
    if (o.later) {
      if (!folders.inside()) ctx.skip(rel, 'symlink-outside');
      else if (listing) out.addBytes(listing.buf, listing.start, listing.end, 0, 0, 0, 0, undefined);
      else out.add(rel, 0, 0, 0, 0, undefined);
      continue;
    }
    // Already looked at above (and found changed since it was recorded), or looked at now.
    let unchanged = false;
    if (!st) {
      st = lstatQuiet(abs);
      unchanged = recordedStats(o.known, recordedAt(), st) !== undefined;
    }
    if (!unchanged && !folders.inside()) {
      ctx.skip(rel, 'symlink-outside');
      continue;
    }
    if (st instanceof Error) {
      if (!o.dropMissing || !isNotFound(st)) ctx.skip(rel, isNotFound(st) ? 'missing' : 'unreadable');
      continue;
    }
    let target: string | undefined;
    if (st.isSymbolicLink()) {
      const followed = followLinkInside(ctx.realRoot, abs);
      if (typeof followed === 'string') {
        ctx.skip(rel, followed);
        continue;
      }
      ({ st, target } = followed);
    }
    if (!st.isFile()) {
      ctx.skip(rel, 'not-a-file');
      continue;
    }
    if (st.size > ctx.maxSize) {
      ctx.skip(rel, 'too-large');
      continue;
    }
    if (listing) out.addBytes(listing.buf, listing.start, listing.end, st.size, st.ino, st.mtimeMs, st.ctimeMs, target);
    else out.add(rel, st.size, st.ino, st.mtimeMs, st.ctimeMs, target);
    if (unchanged) unrecorded = undefined;
  }
  if (unrecorded !== undefined) o.unrecorded?.add(unrecorded);
}

/**
 * One in this many of the tracked files a watcher did not see touched is looked at anyway:
 * a watcher that stopped (an inotify limit, a crash) is noticed once a few dozen files have
 * changed unseen, for ~400 lstat calls on the babel shape instead of 27,674.
 */
const SAMPLE_UNTOUCHED = 64;

/**
 * For a re-scan told what a watcher saw: whether a recorded path was not touched, itself or
 * a folder above it (only a touched path that was no recorded file can be a folder).
 */
function untouchedPlaces(known: PathBytes, touched: ReadonlySet<string>, notRecorded: ReadonlySet<string>): (j: number) => boolean {
  const at = new Set<number>();
  for (const p of touched) {
    const j = findPath(known, p);
    if (j >= 0) at.add(j);
  }
  // What is below a touched path that was no recorded file (a folder).
  const below = [...notRecorded].map((p) => pathsBelow(known, p)).filter(([lo, hi]) => lo < hi);
  return below.length
    ? (j) => !at.has(j) && !below.some(([lo, hi]) => j >= lo && j < hi)
    : (j) => !at.has(j);
}

/**
 * The untracked, not ignored files now, from what git listed for the last packaging and what
 * a watcher saw touched since (the tracked paths and ignore rules unchanged): those listed
 * then, and what git lists among the touched paths (a folder made is listed whole), in git's
 * order, NUL-separated as git gives them.
 */
async function untrackedSince(root: string, w: WatchedChanges, notRecorded: ReadonlySet<string>): Promise<Buffer> {
  // A recorded file touched is still a candidate (looked at, dropped if gone); for the other
  // touched paths git says what is there now.
  const kept = w.untracked.filter((p) => !touchedPath(notRecorded, p));
  const listed = notRecorded.size
    ? splitNul((await gitBytes(root, ['--literal-pathspecs', 'ls-files', '-z', '--others', '--exclude-standard', '--', ...notRecorded])).toString('utf8'))
    : [];
  const all = [...new Set([...kept, ...listed])].map((p) => Buffer.from(p, 'utf8')).sort(Buffer.compare);
  return Buffer.concat(all.flatMap((p) => [p, NUL]));
}

const NUL = Buffer.alloc(1);

/** How many paths a NUL-separated listing holds. */
function countPaths(listing: Buffer): number {
  let n = 0;
  for (let at = listing.indexOf(0); at >= 0; at = listing.indexOf(0, at + 1)) n++;
  return n + (listing.length && listing[listing.length - 1] !== 0 ? 1 : 0);
}

/** Up to `max` items; none once more were added (`items` undefined). */
class BoundedList {
  items: string[] | undefined = [];

  constructor(private readonly max: number) {}

  add(item: string): void {
    if (this.items && this.items.push(item) > this.max) this.items = undefined;
  }
}

/**
 * Walk outside git: every `.gitignore` applies to its own subtree; ignored folders are
 * pruned. A folder a .gitignore re-includes (`!fixtures/**\/node_modules`) is kept with
 * everything in it, default excludes or not.
 */
async function walk(ctx: Context): Promise<{ files: string[]; kept: Set<string> }> {
  const out: string[] = [];
  const kept = new Set<string>();
  const visit = async (dirRel: string, levels: GitignoreLevel[], keptHere: boolean): Promise<void> => {
    const dirAbs = dirRel ? path.join(ctx.root, ...dirRel.split('/')) : ctx.root;
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dirAbs, { withFileTypes: true });
    } catch {
      if (dirRel) ctx.skip(dirRel + '/', 'unreadable');
      return;
    }
    const here = [...levels];
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) here.push(await gitignoreLevel(ctx, dirRel));
    await yieldToEventLoop();
    entries.sort((a, b) => compareBytes(a.name, b.name));
    const subdirs: { rel: string; kept: boolean }[] = [];
    for (const e of entries) {
      const rel = dirRel ? `${dirRel}/${e.name}` : e.name;
      const isDir = e.isDirectory();
      const verdict = gitignoreVerdict(here, rel, isDir);
      if (verdict === 'ignored') {
        ctx.skip(isDir ? rel + '/' : rel, 'ignore-file');
        continue;
      }
      const keep = keptHere || verdict === 'kept';
      if (isDir) {
        const reason = nameExclusion(ctx, rel + '/', keep);
        if (reason) ctx.skip(rel + '/', reason);
        else subdirs.push({ rel, kept: keep });
      } else {
        // Files, symlinks (to files or folders) and specials are judged by filterCandidates;
        // symlinked folders are never descended, so nothing is reached twice or from outside.
        out.push(rel);
        if (keep) kept.add(rel);
      }
    }
    for (const d of subdirs) await visit(d.rel, here, d.kept);
  };
  await visit('', [], false);
  return { files: out, kept };
}

interface GitignoreLevel { base: string; ig: Ignore }

/** The patterns of the `.gitignore` in folder `dirRel` (a file there), for paths below it. */
async function gitignoreLevel(ctx: Context, dirRel: string): Promise<GitignoreLevel> {
  const dirAbs = dirRel ? path.join(ctx.root, ...dirRel.split('/')) : ctx.root;
  const text = await fsp.readFile(path.join(dirAbs, '.gitignore'), 'utf8').catch(() => '');
  const bounded = boundPatterns(text.split(/\r?\n/), dirRel ? `${dirRel}/.gitignore` : '.gitignore');
  ctx.notes.push(...bounded.notes);
  return { base: dirRel, ig: ignore().add(bounded.patterns) };
}

/**
 * Outside git: given files judged by the `.gitignore` files on their way from the root,
 * as the walk would judge them (an ignored folder hides what is in it; a folder or file a
 * .gitignore re-includes is kept whatever the default excludes say).
 */
async function judgeByGitignoreFiles(ctx: Context, rels: string[]): Promise<{ ignored: Set<string>; kept: Set<string> }> {
  const levels = new Map<string, Promise<GitignoreLevel | undefined>>();
  const levelAt = (dirRel: string) => {
    let level = levels.get(dirRel);
    if (!level) {
      const file = path.join(ctx.root, ...dirRel.split('/').filter(Boolean), '.gitignore');
      // As the walk: a .gitignore that is a file, not a link to one.
      level = fsp.lstat(file).then((st) => (st.isFile() ? gitignoreLevel(ctx, dirRel) : undefined), () => undefined);
      levels.set(dirRel, level);
    }
    return level;
  };
  const ignored = new Set<string>();
  const kept = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split('/');
    const here: GitignoreLevel[] = [];
    let keep = false;
    for (let i = 0; i < parts.length; i++) {
      const level = await levelAt(parts.slice(0, i).join('/'));
      if (level) here.push(level);
      const isDir = i < parts.length - 1;
      const verdict = gitignoreVerdict(here, parts.slice(0, i + 1).join('/'), isDir);
      if (verdict === 'ignored') {
        ignored.add(rel);
        break;
      }
      keep ||= verdict === 'kept';
    }
    if (keep && !ignored.has(rel)) kept.add(rel);
  }
  return { ignored, kept };
}

/** git semantics: the deepest .gitignore with an opinion on the path wins. */
function gitignoreVerdict(levels: GitignoreLevel[], rel: string, isDir: boolean): 'ignored' | 'kept' | undefined {
  for (let i = levels.length - 1; i >= 0; i--) {
    const { base, ig } = levels[i];
    const sub = base ? rel.slice(base.length + 1) : rel;
    const r = ig.test(isDir ? sub + '/' : sub);
    if (r.ignored) return 'ignored';
    if (r.unignored) return 'kept';
  }
  return undefined;
}

/** Ignored entries as git reports them, folders collapsed to `dir/`. Only for the report. */
async function listGitIgnored(root: string): Promise<string[]> {
  const out = await gitBytes(root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']).catch(() => Buffer.alloc(0));
  return splitNul(out.toString('utf8'));
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

async function gitCheckIgnored(root: string, rels: string[]): Promise<Set<string>> {
  if (rels.length === 0) return new Set();
  // Untracked files among `rels` that git ignores; tracked files never count as ignored,
  // exactly as git sees them. Literal pathspecs: a name with * or [ is just a name.
  const out = await gitBytes(root, ['--literal-pathspecs', 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...rels]);
  return new Set(splitNul(out.toString('utf8')));
}

function toRelative(ctx: Context, abs: string): string | undefined {
  const resolved = path.resolve(abs);
  for (const base of [ctx.root, ctx.realRoot]) {
    const rel = path.relative(base, resolved);
    // `..data/x.js` and `...js` are ordinary names; only a `..` segment leaves the folder.
    if (rel && rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  }
  return undefined;
}

function isSafeRelative(rel: string): boolean {
  // A drive letter makes a path absolute only on Windows; elsewhere `C:x.js` is a name (see zipWouldRename).
  if (!rel || rel.startsWith('/') || (path.sep === '\\' && /^[a-zA-Z]:/.test(rel)) || rel.includes('\\')) return false;
  // No empty, `.` or `..` segment, looked at without splitting (this runs for every file).
  for (let start = 0; start <= rel.length;) {
    let end = rel.indexOf('/', start);
    if (end < 0) end = rel.length;
    const len = end - start;
    if (len === 0 || (rel.charCodeAt(start) === 46 /* . */ && (len === 1 || (len === 2 && rel.charCodeAt(start + 1) === 46)))) return false;
    start = end + 1;
  }
  return true;
}

function isInside(realRoot: string, real: string): boolean {
  const rel = path.relative(realRoot, real);
  return rel !== '' && !rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel);
}

function splitNul(s: string): string[] {
  return s.split('\0').filter((x) => x.length > 0);
}

/** Byte-order comparison: the same order on every machine and locale. */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

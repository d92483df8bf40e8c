import type { FileList, PathBytes } from './fileList';
import type { WatchedChanges } from './changeJournal';

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

export const DEFAULT_MAX_FILE_SIZE_BYTES = 10 * 1024 * 1024;

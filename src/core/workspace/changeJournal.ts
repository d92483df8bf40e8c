// What a file watcher saw in one folder since its last full packaging, so a re-scan need not
// walk an unchanged tree again (git's untracked walk and an lstat of every tracked file are
// two thirds of a re-scan of the babel shape). Trusted only within the session that watched:
// a journal starts with no baseline, so the first scan after a window opens (files may have
// changed while it was closed) chooses its files the full way.
import { COOKIE_GIVE_UP_MS, WatcherCookies } from './watcherCookies';
import { l10n } from '../text/l10n';

/** Beyond this many paths, a re-scan chooses its files the full way (a branch switch, a build). */
export const MAX_WATCHED_PATHS = 2000;
/** git is given the watched paths as arguments: beyond this many characters, the full way. */
const MAX_PATHSPEC_CHARS = 24_000;
/** The untracked paths git listed at the baseline; more and the journal keeps no baseline. */
export const MAX_KEPT_UNTRACKED = 10_000;

/** What the folder's watcher saw since the packaging its kept archive came from. */
export interface WatchedChanges {
  /** When that archive was made (ReusableArchive.madeAtMs): it must be the one the selection knows. */
  readonly madeAtMs: number;
  /** Paths (relative, `/`) created, changed or deleted since; a folder stands for all below it. */
  readonly touched: ReadonlySet<string>;
  /** The untracked, not ignored paths git listed for that packaging, in git's order. */
  readonly untracked: readonly string[];
  /** The SHA-256 of git's listing of the tracked paths then (Selection.trackedDigest). */
  readonly trackedDigest: string;
}

/** A journal's record at the start of a packaging: what it saw since the last one, if it can be trusted. */
export interface JournalSnapshot {
  readonly epoch: number;
  /** Undefined when nothing can be trusted (no baseline in this session, too much changed, ignore rules changed). */
  readonly watched: WatchedChanges | undefined;
  /** Why not, for the log. */
  readonly why?: string;
  /**
   * With `watched`, when a cookie could be written into the folder's .git: true once the
   * watcher has reported every write made before this record was taken (watcherCookies.ts).
   */
  readonly caughtUp?: Promise<boolean>;
}

/**
 * Rules that decide which untracked files git lists: a change to one means git must list them
 * again. (A global excludes file outside the folder is not watched; see test/bench/README.md.)
 */
function changesIgnoreRules(rel: string): boolean {
  return rel === '.gitignore' || rel.endsWith('/.gitignore') || rel === '.git/info/exclude' || rel === '.git/info';
}

export class ChangeJournal {
  private touched = new Set<string>();
  private chars = 0;
  private invalid: string | undefined;
  private epoch = 0;
  private baseline: { epoch: number; madeAtMs: number; untracked: readonly string[]; trackedDigest: string; files?: number } | undefined;
  private readonly cookies: WatcherCookies;
  /** Where the folder's cookies go, as the last scan gave it (restart). */
  private cookieAt: { root: string; fromFiles: number } | undefined;

  /**
   * @param disabledWhy why the watcher cannot be trusted at all here (say, files.watcherExclude
   * hides files from it); the journal then never offers changes.
   */
  constructor(private disabledWhy?: string, private readonly cookieGiveUpMs = COOKIE_GIVE_UP_MS) {
    this.cookies = new WatcherCookies(cookieGiveUpMs);
  }

  /** The watcher saw `rel` (relative to the folder, `/`-separated) created, changed or deleted. */
  note(rel: string): void {
    if (this.cookies.reported(rel) || this.invalid) return;
    if (changesIgnoreRules(rel)) {
      this.invalid = l10n.t('{0} changed', rel);
      return;
    }
    // git's own files: the tracked list is read from git every time.
    if (rel === '.git' || rel.startsWith('.git/')) return;
    if (this.touched.has(rel)) return;
    this.touched.add(rel);
    this.chars += rel.length + 1;
    if (this.touched.size > MAX_WATCHED_PATHS || this.chars > MAX_PATHSPEC_CHARS) this.invalid = l10n.t('more than {0} paths changed', MAX_WATCHED_PATHS);
  }

  /** What was noted since restart() returned `epoch`, while it is the latest and nothing overflowed. */
  seenSince(epoch: number): ReadonlySet<string> | undefined {
    return epoch === this.epoch && !this.invalid ? this.touched : undefined;
  }

  /** From now on the watcher cannot be trusted (it missed a change, its settings changed). */
  disable(why: string): void {
    this.disabledWhy = why;
    this.baseline = undefined;
  }

  /** The watcher can be trusted again (settings that hid files from it were removed). */
  enable(): void {
    this.disabledWhy = undefined;
  }

  /**
   * A full packaging starts: returns what was seen since the last one, and starts recording
   * afresh. Until settle() is told this packaging's archive was kept, there is no baseline.
   * Given the folder's `root`, a record that can be trusted comes with `caughtUp`, when the
   * kept archive holds at least `fromFiles` (a re-scan of fewer looks at every file).
   */
  restart(cookie?: { root: string; fromFiles: number }): JournalSnapshot {
    const b = this.baseline;
    const why = this.disabledWhy ?? (!b ? l10n.t('no scan in this window has packaged the folder yet') : this.invalid);
    const watched = why || !b ? undefined : { madeAtMs: b.madeAtMs, touched: this.touched, untracked: b.untracked, trackedDigest: b.trackedDigest };
    if (cookie) this.cookieAt = cookie;
    const caughtUp = watched && cookie && (b!.files ?? 0) >= cookie.fromFiles ? this.untrustedUnlessReported(this.cookies.drop(cookie.root)) : undefined;
    const snapshot: JournalSnapshot = {
      epoch: ++this.epoch,
      watched,
      ...(why ? { why } : {}),
      ...(caughtUp ? { caughtUp } : {}),
    };
    this.touched = new Set();
    this.chars = 0;
    this.invalid = undefined;
    this.baseline = undefined;
    return snapshot;
  }

  /**
   * The packaging that restart() returned `epoch` for was kept as the folder's archive (made
   * at `madeAtMs`), from `selection` (git's listings then). A later restart() supersedes it.
   */
  settle(epoch: number, madeAtMs: number, selection: { untrackedListed?: readonly string[]; trackedDigest?: string; files?: { length: number } }): void {
    const { untrackedListed: untracked, trackedDigest } = selection;
    if (epoch !== this.epoch || !untracked || !trackedDigest || this.disabledWhy) return;
    this.baseline = { epoch, madeAtMs, untracked, trackedDigest, files: selection.files?.length };
    // A cookie now, long before the next scan trusts the watcher: the first re-scan of a
    // window whose watcher reports nothing then looks at every file too.
    const c = this.cookieAt;
    if (c && (selection.files?.length ?? 0) >= c.fromFiles) void this.untrustedUnlessReported(this.cookies.drop(c.root));
  }

  /**
   * A file written into .git that the watcher never reports: it may not watch the folder at
   * all (VS Code cannot once the system's limit of watches is reached), or settings hide .git
   * from it. Either way, what it did not report is no proof that nothing changed.
   */
  private untrustedUnlessReported(cookie: Promise<boolean> | undefined): Promise<boolean> | undefined {
    void cookie?.then((reported) => {
      if (!reported) this.disable(l10n.t('the file watcher did not report a file a scan wrote into .git within {0} s', this.cookieGiveUpMs / 1000));
    });
    return cookie;
  }
}

/** Whether `rel` or a folder above it is among `touched`. */
export function touchedPath(touched: ReadonlySet<string>, rel: string): boolean {
  if (touched.has(rel)) return true;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
    if (touched.has(rel.slice(0, i))) return true;
  }
  return false;
}

/**
 * The `files.watcherExclude` patterns that hide files a scan could upload from VS Code's
 * watcher: any enabled pattern but those inside a version control folder (VS Code's defaults
 * hide `.git/objects/**` and the like, which no scan uploads).
 */
export function patternsHidingFiles(watcherExclude: unknown): string[] {
  if (!watcherExclude || typeof watcherExclude !== 'object') return [];
  return Object.entries(watcherExclude as Record<string, unknown>)
    .filter(([pattern, on]) => on === true && !/(^|\/)\.(git|hg|svn)\/./.test(pattern))
    .map(([pattern]) => pattern);
}

// A re-scan that trusts the file watcher for what changed must not check its files before the
// watcher has reported every write made before the scan started. Rather than wait a fixed
// time for that, the scan writes a cookie file into the folder's .git and waits until the
// watcher reports it: VS Code's watcher delivers its events in the order they happened, a
// batch at a time (measured in code-server: every write made before a cookie came in the
// cookie's batch or an earlier one), so by then every earlier write has been reported,
// itself or a folder above it. Files written into a folder made an instant before can
// escape the watcher (it did not watch that folder yet), but the folder's creation is
// reported, and the journal takes a folder for every path below it (touchedPath).
// Watchman synchronises its queries with such cookies; their name makes tools that know
// them (VS Code's git extension among them) leave ours alone.
import { closeSync, lstatSync, openSync, unlink } from 'node:fs';
import * as path from 'node:path';

const PREFIX = '.git/.watchman-cookie-code-scanner-';

/** A cookie not reported by then is given up, and no other is written in this window (nor is the watcher trusted: ChangeJournal). */
export const COOKIE_GIVE_UP_MS = 10_000;

interface Waiting {
  readonly file: string;
  readonly timer: ReturnType<typeof setTimeout>;
  readonly resolve: (reported: boolean) => void;
}

export class WatcherCookies {
  private readonly waiting = new Map<string, Waiting>();
  private made = 0;
  private unreported = false;

  constructor(private readonly giveUpMs = COOKIE_GIVE_UP_MS) {}

  /**
   * Writes a cookie into `root`/.git: resolves true once the watcher has reported it, false
   * if it is not reported within COOKIE_GIVE_UP_MS. Undefined when none can be written there
   * (no .git folder of its own, read-only) or the watcher did not report one before.
   */
  drop(root: string): Promise<boolean> | undefined {
    if (this.unreported) return undefined;
    const rel = `${PREFIX}${process.pid}-${Date.now()}-${++this.made}`;
    const file = path.join(root, ...rel.split('/'));
    try {
      // Only into a real folder: a .git that links elsewhere is not watched with the folder,
      // and a file is never written outside it.
      if (!lstatSync(path.dirname(file)).isDirectory()) return undefined;
      closeSync(openSync(file, 'wx'));
    } catch {
      return undefined;
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.unreported = true;
        this.settle(rel, false);
      }, this.giveUpMs);
      timer.unref?.();
      this.waiting.set(rel, { file, timer, resolve });
    });
  }

  /** The watcher reported `rel` (relative to the folder, `/`-separated): whether it is a cookie, never a file a scan uploads. */
  reported(rel: string): boolean {
    if (!rel.startsWith(PREFIX)) return false;
    this.settle(rel, true);
    return true;
  }

  private settle(rel: string, reported: boolean): void {
    const w = this.waiting.get(rel);
    if (!w) return;
    this.waiting.delete(rel);
    clearTimeout(w.timer);
    unlink(w.file, () => undefined);
    w.resolve(reported);
  }
}

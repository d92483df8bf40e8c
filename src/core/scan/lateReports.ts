// A re-scan told by the file watcher what changed trusts it for what was written before the
// scan started; VS Code reports a write to its watchers only some time after it. Checked once
// the watcher has caught up (it reported the scan's cookie, watcherCookies.ts) or, without a
// cookie, once that time has passed; before the archive goes anywhere.
import { sleep } from '../async';
import type { ArchiveIndex } from '../archive/archiveIndex';
import type { ChangeJournal } from '../workspace/changeJournal';
import { findPath, pathsBelow } from '../workspace/fileList';
import { recordedStats } from '../workspace/checkCandidates';
import { absolutePathOf, lstatQuiet } from '../workspace/pathsOnDisk';
import { l10n } from '../text/l10n';

/** How long VS Code may take to report a write to its watchers (measured 75-160 ms in code-server 4.139, local disk). */
export const WATCHER_LATENCY_MS = 300;

/**
 * How long a re-scan waits for the watcher to report its cookie. Until then a write made
 * before the scan may still be on its way (a busy extension host sees the watcher's events
 * late: the bench's re-scans saw the cookie 0.20-0.32 s after the start), and a watcher that
 * stopped watching reports nothing at all. Past it the scan looks at every file.
 */
export const COOKIE_WAIT_MS = 2_000;

/**
 * Once every write made before `startedAt` must have been reported: what the watcher did
 * that the archive does not hold as it is, if anything, said as what follows "The file
 * watcher": a file written before the scan started (its modification time), a file the
 * archive holds that is gone (or a folder it holds files of), a folder made or changed
 * before the scan started (what was written into it may not have been reported), a link
 * made before it, more than the journal keeps; or, with a cookie (`caughtUp`,
 * JournalSnapshot.caughtUp), no report of it within `cookieWaitMs` of the start. A write
 * during the scan is left to the next one, as when every file is looked at. Without a
 * cookie the wait is `latencyMs` from the start.
 */
export async function reportedLate(
  root: string, changes: ChangeJournal, epoch: number, startedAt: number, index: ArchiveIndex, signal: AbortSignal,
  { caughtUp, latencyMs = WATCHER_LATENCY_MS, cookieWaitMs = COOKIE_WAIT_MS }: { caughtUp?: Promise<boolean>; latencyMs?: number; cookieWaitMs?: number } = {},
): Promise<string | undefined> {
  if (caughtUp) {
    if (!await reportedWithin(startedAt + cookieWaitMs - Date.now(), signal, caughtUp)) {
      return l10n.t('had not reported the scan\'s marker file in .git {0} s after the scan started (it may have stopped watching the folder)', cookieWaitMs / 1000);
    }
  } else {
    const wait = startedAt + latencyMs - Date.now();
    if (wait > 0) await sleep(wait, signal);
  }
  const late = (what: string) => l10n.t('reported {0} only after the scan had chosen its files', what);
  const seen = changes.seenSince(epoch);
  if (!seen) return late(l10n.t('more changes than it keeps (or changed ignore rules)'));
  for (const rel of seen) {
    const st = lstatQuiet(absolutePathOf(root, rel));
    const i = findPath(index, rel);
    if (st instanceof Error) {
      // VS Code reports a deleted folder, not each file that was in it.
      const [from, to] = pathsBelow(index, rel);
      if (i >= 0 || from < to) return late(l10n.t('{0} deleted', rel));
      continue;
    }
    if (st.mtimeMs >= startedAt) continue;
    // Files written into a folder an instant after it was made can escape the watcher (it did
    // not watch the folder yet): its own report is all there may be of them.
    if (st.isDirectory()) return late(l10n.t('the folder {0} made or changed before the scan started', rel));
    // A link's entry holds what it leads to (selectFiles.ts), which its own status does not tell.
    if (st.isSymbolicLink()) return late(l10n.t('the link {0} made before the scan started', rel));
    if (!st.isFile()) continue;
    if (i < 0 || !recordedStats(index, i, st)) return late(l10n.t('{0} written before the scan started', rel));
  }
  return undefined;
}

/** Whether `caughtUp` is true within `ms` (false once that has passed, or when it says false). */
async function reportedWithin(ms: number, signal: AbortSignal, caughtUp: Promise<boolean>): Promise<boolean> {
  const stop = new AbortController();
  const stopWith = () => stop.abort(signal.reason);
  signal.addEventListener('abort', stopWith, { once: true });
  try {
    const timeUp = sleep(Math.max(0, ms), stop.signal).then(() => false);
    return await Promise.race([caughtUp, timeUp]);
  } finally {
    signal.removeEventListener('abort', stopWith);
    stop.abort();
  }
}

// A re-scan told by the file watcher what changed trusts it for what was written before the
// scan started; VS Code reports a write to its watchers only some time after it. Checked once
// the watcher has caught up (it reported the scan's cookie, watcherCookies.ts) or, without a
// cookie, once that time has passed; before the archive goes anywhere.
import { sleep } from '../async';
import type { ArchiveIndex } from '../archive/archiveIndex';
import type { ChangeJournal } from '../workspace/changeJournal';
import { findPath, pathsBelow } from '../workspace/fileList';
import { absolutePathOf, lstatQuiet, recordedStats } from '../workspace/selectFiles';

/** How long VS Code may take to report a write to its watchers (measured 75-160 ms in code-server 4.139, local disk). */
export const WATCHER_LATENCY_MS = 300;

/**
 * Once every write made before `startedAt` must have been reported: what was reported since
 * then that the archive does not hold as it is, if anything: a file written before the scan
 * started (its modification time), a file the archive holds that is gone (or a folder it
 * holds files of), a folder made or changed before the scan started (what was written into
 * it may not have been reported), a link made before it, or more than the journal keeps.
 * A write during the scan is left to the next one, as when every file is looked at.
 * `caughtUp` (JournalSnapshot.caughtUp) ends the wait as soon as it is true; the wait is never
 * longer than `latencyMs` from the start.
 */
export async function reportedLate(
  root: string, changes: ChangeJournal, epoch: number, startedAt: number, index: ArchiveIndex, signal: AbortSignal,
  latencyMs = WATCHER_LATENCY_MS, caughtUp?: Promise<boolean>,
): Promise<string | undefined> {
  const wait = startedAt + latencyMs - Date.now();
  if (wait > 0) await untilCaughtUp(wait, signal, caughtUp);
  const seen = changes.seenSince(epoch);
  if (!seen) return 'more changes than it keeps (or changed ignore rules)';
  for (const rel of seen) {
    const st = lstatQuiet(absolutePathOf(root, rel));
    const i = findPath(index, rel);
    if (st instanceof Error) {
      // VS Code reports a deleted folder, not each file that was in it.
      const [from, to] = pathsBelow(index, rel);
      if (i >= 0 || from < to) return `${rel} deleted`;
      continue;
    }
    if (st.mtimeMs >= startedAt) continue;
    // Files written into a folder an instant after it was made can escape the watcher (it did
    // not watch the folder yet): its own report is all there may be of them.
    if (st.isDirectory()) return `the folder ${rel} made or changed before the scan started`;
    // A link's entry holds what it leads to (selectFiles.ts), which its own status does not tell.
    if (st.isSymbolicLink()) return `the link ${rel} made before the scan started`;
    if (!st.isFile()) continue;
    if (i < 0 || !recordedStats(index, i, st)) return `${rel} written before the scan started`;
  }
  return undefined;
}

/** `ms` or less: until `caughtUp` is true, if it is sooner. */
async function untilCaughtUp(ms: number, signal: AbortSignal, caughtUp: Promise<boolean> | undefined): Promise<void> {
  if (!caughtUp) return sleep(ms, signal);
  const stop = new AbortController();
  const stopWith = () => stop.abort(signal.reason);
  signal.addEventListener('abort', stopWith, { once: true });
  try {
    const timeUp = sleep(ms, stop.signal).then(() => false);
    if (await Promise.race([caughtUp, timeUp])) return;
    await timeUp;
  } finally {
    signal.removeEventListener('abort', stopWith);
    stop.abort();
  }
}

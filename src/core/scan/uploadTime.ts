// When an upload completed, as a folder's scans are ordered by it: scans apply in the order
// they were uploaded (transitions.ts), whatever order they complete in. The wall clock can
// be set back (a machine resumed from sleep or a snapshot, a time sync stepping it), and a
// later scan then looked older than the one before it and changed nothing. Each time given
// here is later than every time given or read back before it in this process.

/** Stored times further ahead than this are a wrong clock of then, not a floor for now. */
const MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

let floor = 0;

/** The time of an upload that completed now: later than any given or seen before. */
export function uploadTime(now = Date.now()): string {
  floor = Math.max(now, floor + 1);
  return new Date(floor).toISOString();
}

/** A time read back (a stored scan): uploads after this sort after it. */
export function sawUploadTime(iso: string | undefined, now = Date.now()): void {
  const t = iso === undefined ? NaN : Date.parse(iso);
  if (Number.isFinite(t) && t > floor && t <= now + MAX_AHEAD_MS) floor = t;
}

import { touchedPath, type WatchedChanges } from './changeJournal';
import { findPath, pathStart, pathsBelow, type PathBytes } from './fileList';
import { gitBytes } from './git';

/**
 * git's NUL-separated listing as paths, one string at a time (the listing itself stays one
 * buffer); the bytes of the path last given stay known, so a chosen path is copied into the
 * file list as it is rather than encoded again. `skip` drops paths by their bytes before a
 * string is made for them.
 */
export class NulSeparated implements Iterable<string> {
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
export function sortedLookup(list: PathBytes): (buf: Buffer, start: number, end: number) => number {
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

/** For paths asked about in ascending byte order: whether each is in `list` (one pass over it). */
export function sortedMembership(list: PathBytes): (buf: Buffer, start: number, end: number) => boolean {
  const lookup = sortedLookup(list);
  return (buf, start, end) => lookup(buf, start, end) >= 0;
}

/**
 * For a re-scan told what a watcher saw: whether a recorded path was not touched, itself or
 * a folder above it (only a touched path that was no recorded file can be a folder).
 */
export function untouchedPlaces(known: PathBytes, touched: ReadonlySet<string>, notRecorded: ReadonlySet<string>): (j: number) => boolean {
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
export async function untrackedSince(root: string, w: WatchedChanges, notRecorded: ReadonlySet<string>): Promise<Buffer> {
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
export function countPaths(listing: Buffer): number {
  let n = 0;
  for (let at = listing.indexOf(0); at >= 0; at = listing.indexOf(0, at + 1)) n++;
  return n + (listing.length && listing[listing.length - 1] !== 0 ? 1 : 0);
}

/** Ignored entries as git reports them, folders collapsed to `dir/`. Only for the report. */
export async function listGitIgnored(root: string): Promise<string[]> {
  const out = await gitBytes(root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']).catch(() => Buffer.alloc(0));
  return splitNul(out.toString('utf8'));
}

/** Untracked files among `rels` that git ignores. */
export async function gitCheckIgnored(root: string, rels: string[]): Promise<Set<string>> {
  if (rels.length === 0) return new Set();
  // Untracked files among `rels` that git ignores; tracked files never count as ignored,
  // exactly as git sees them. Literal pathspecs: a name with * or [ is just a name.
  const out = await gitBytes(root, ['--literal-pathspecs', 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...rels]);
  return new Set(splitNul(out.toString('utf8')));
}

/** A NUL-separated listing as its non-empty paths. */
export function splitNul(s: string): string[] {
  return s.split('\0').filter((x) => x.length > 0);
}

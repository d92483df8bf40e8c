import { nextTurn } from '../async/slices';
import type { Stats } from 'node:fs';
import type { FileListBuilder } from './fileList';
import { NulSeparated, sortedLookup } from './gitListings';
import { absolutePathOf, followLinkInside, isSafeRelative, lstatQuiet } from './pathsOnDisk';
import { isNotFound } from './safeOpen';
import type { KnownFiles } from './selection';
import { FolderChain, fileExclusion, type SelectionContext } from './selectionRules';

/** How long the selection may hold the event loop before it yields (ms). */
const YIELD_MS = 8;

/** `st` when it is the very file entry `j` of `known` was made from (-1: none), else undefined. */
export function recordedStats(known: KnownFiles | undefined, j: number, st: Stats | NodeJS.ErrnoException): Stats | undefined {
  if (!known || j < 0 || st instanceof Error || !st.isFile()) return undefined;
  const c = known.columns;
  return c.ino[j] === st.ino && st.ino !== 0 && c.size[j] === st.size && c.mtimeMs[j] === st.mtimeMs && c.ctimeMs[j] === st.ctimeMs ? st : undefined;
}

/**
 * Checks each candidate on disk and adds the ones to upload to `out`. Synchronous calls in
 * slices of a few milliseconds: from the page cache an lstat takes a few microseconds, while
 * the promise API costs tens of microseconds a call in round trips to the thread pool.
 */
export async function filterCandidates(
  ctx: SelectionContext, rels: Iterable<string>, out: FileListBuilder,
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
      await nextTurn();
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

/** Up to `max` items; none once more were added (`items` undefined). */
export class BoundedList {
  items: string[] | undefined = [];

  constructor(private readonly max: number) {}

  add(item: string): void {
    if (this.items && this.items.push(item) > this.max) this.items = undefined;
  }
}

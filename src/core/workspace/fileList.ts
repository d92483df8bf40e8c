// The files of a selection, kept compact: every path's UTF-8 bytes in one buffer and the
// numbers in typed arrays, instead of an object and a string per file. A selection of a
// large repository lives through packaging and upload; as objects, 27,000 files were ~8 MB
// of long-lived heap, and their surviving the young generation made V8 grow it from 4 to
// 32 MB (measured), most of a scan's memory growth. Strings are made when asked for.

export interface SelectedFile {
  /** Relative to the root, `/`-separated, never containing `..`. This is the archive path. */
  path: string;
  size: number;
  /** Inode when chosen: packaging skips the file if another one stands there by then. */
  ino?: number;
  /** Modification and status-change times when chosen: with size and inode, whether the file changed since the last archive. */
  mtimeMs?: number;
  ctimeMs?: number;
  /** For a symlink to a file inside the folder: the real file, relative to the real root. */
  target?: string;
}

/** Paths as UTF-8 bytes one after the other; path i ends at ends[i]. */
export interface PathBytes {
  readonly names: Buffer;
  readonly ends: Uint32Array;
  readonly length: number;
}

/** What each file was when chosen, by position (at least `length` long; read-only). */
export interface StatColumns {
  readonly size: Float64Array;
  readonly mtimeMs: Float64Array;
  readonly ctimeMs: Float64Array;
  readonly ino: Float64Array;
}

export function pathStart(p: PathBytes, i: number): number {
  return i === 0 ? 0 : p.ends[i - 1];
}

/** Byte order of path i of `a` against path j of `b` (<0, 0, >0): git's order, the archive's order. */
export function comparePaths(a: PathBytes, i: number, b: PathBytes, j: number): number {
  return a.names.compare(b.names, pathStart(b, j), b.ends[j], pathStart(a, i), a.ends[i]);
}

/** Where `rel` is in `list` (sorted in byte order), or -1. */
export function findPath(list: PathBytes, rel: string): number {
  const key = Buffer.from(rel, 'utf8');
  const i = lowerBoundOf(list, key);
  return i < list.length && list.names.compare(key, 0, key.length, pathStart(list, i), list.ends[i]) === 0 ? i : -1;
}

/** The first place in `list` (sorted in byte order) whose path does not sort before `rel`. */
export function lowerBound(list: PathBytes, rel: string): number {
  return lowerBoundOf(list, Buffer.from(rel, 'utf8'));
}

/** Where the paths below the folder `rel` are in `list` (sorted in byte order): [from, to), empty when none. */
export function pathsBelow(list: PathBytes, rel: string): readonly [number, number] {
  // "rel/" sorts before every path below it, and "rel0" ('0' follows '/') after all of them.
  return [lowerBound(list, `${rel}/`), lowerBound(list, `${rel}0`)];
}

function lowerBoundOf(list: PathBytes, key: Buffer): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list.names.compare(key, 0, key.length, pathStart(list, mid), list.ends[mid]) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class FileList implements Iterable<SelectedFile>, PathBytes {
  /** @internal use FileListBuilder or FileList.of */
  constructor(
    readonly names: Buffer,
    readonly ends: Uint32Array,
    private readonly sizes: Float64Array,
    private readonly mtimes: Float64Array,
    private readonly ctimes: Float64Array,
    private readonly inos: Float64Array,
    private readonly targets: ReadonlyMap<number, string>,
    readonly length: number,
    readonly totalBytes: number,
    private readonly knownAt?: Int32Array,
    private readonly knownFrom?: PathBytes,
  ) {}

  /**
   * Where file i is in `list`, when the selection found it there (FileListBuilder.addKnown),
   * else -1: packaging need not look for it again among the last archive's entries.
   */
  positionIn(list: PathBytes, i: number): number {
    return list === this.knownFrom && this.knownAt ? this.knownAt[i] : -1;
  }

  /** The list positionIn answers for, if any. */
  get knownList(): PathBytes | undefined {
    return this.knownFrom;
  }

  /**
   * File i's numbers as packaging found them, where the selection left them to it
   * (Selection.statsLater): the archive's index then shares these columns, as it does the
   * selection's own (4 columns of 8 bytes a file, 3.2 MB at 100,000 files, not made twice).
   */
  learnStats(i: number, st: { size: number; ino: number; mtimeMs: number; ctimeMs: number }): void {
    this.sizes[i] = st.size;
    this.inos[i] = st.ino;
    this.mtimes[i] = st.mtimeMs;
    this.ctimes[i] = st.ctimeMs;
  }

  /** The numbers of every file as columns: an archive index of these very files shares them (ArchiveIndexBuilder). */
  statColumns(): StatColumns {
    return { size: this.sizes, mtimeMs: this.mtimes, ctimeMs: this.ctimes, ino: this.inos };
  }

  static readonly EMPTY = new FileList(Buffer.alloc(0), new Uint32Array(0), new Float64Array(0), new Float64Array(0), new Float64Array(0), new Float64Array(0), new Map(), 0, 0);

  /** A list of the given files, sorted by path bytes, without duplicate paths. */
  static of(files: Iterable<SelectedFile>): FileList {
    const b = new FileListBuilder();
    for (const f of files) b.add(f.path, f.size, f.ino ?? 0, f.mtimeMs ?? NaN, f.ctimeMs ?? NaN, f.target);
    return b.build();
  }

  path(i: number): string {
    return this.names.toString('utf8', pathStart(this, i), this.ends[i]);
  }

  size(i: number): number {
    return this.sizes[i];
  }

  /** 0 when unknown. */
  ino(i: number): number {
    return this.inos[i];
  }

  /** NaN when unknown. */
  mtimeMs(i: number): number {
    return this.mtimes[i];
  }

  ctimeMs(i: number): number {
    return this.ctimes[i];
  }

  target(i: number): string | undefined {
    return this.targets.get(i);
  }

  at(i: number): SelectedFile {
    const f: SelectedFile = { path: this.path(i), size: this.sizes[i] };
    if (this.inos[i]) f.ino = this.inos[i];
    if (!Number.isNaN(this.mtimes[i])) f.mtimeMs = this.mtimes[i];
    if (!Number.isNaN(this.ctimes[i])) f.ctimeMs = this.ctimes[i];
    const t = this.targets.get(i);
    if (t !== undefined) f.target = t;
    return f;
  }

  *[Symbol.iterator](): Iterator<SelectedFile> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  map<T>(fn: (file: SelectedFile, index: number) => T): T[] {
    const out: T[] = new Array<T>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = fn(this.at(i), i);
    return out;
  }

  paths(): string[] {
    const out: string[] = new Array<string>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.path(i);
    return out;
  }

  /** One list of both (each sorted), without duplicates: on equal paths `a`'s file is kept. */
  static merge(a: FileList, b: FileList): FileList {
    if (!b.length) return a;
    if (!a.length) return b;
    const out = new FileListBuilder(a.length + b.length, a.ends[a.length - 1] + b.ends[b.length - 1]);
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const c = i >= a.length ? 1 : j >= b.length ? -1 : comparePaths(a, i, b, j);
      if (c <= 0) {
        out.copyFrom(a, i++);
        if (c === 0) j++;
      } else {
        out.copyFrom(b, j++);
      }
    }
    return out.build();
  }
}

/** A copy of `a` with room for `n` elements (compact lists grow by doubling). */
export function growTo<T extends Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array>(a: T, n: number): T {
  const next = new (a.constructor as new (n: number) => T)(n);
  next.set(a);
  return next;
}

/** `names` with room for `bytes` more after `used` (the old bytes copied when it grows). */
export function withRoom(names: Buffer, used: number, bytes: number): Buffer {
  if (used + bytes <= names.length) return names;
  const next = Buffer.allocUnsafe(Math.max(names.length * 2, used + bytes));
  names.copy(next, 0, 0, used);
  return next;
}

/** Collects files (in any order) into a FileList. */
export class FileListBuilder {
  private names: Buffer;
  private used = 0;
  private ends: Uint32Array;
  private sizes: Float64Array;
  private mtimes: Float64Array;
  private ctimes: Float64Array;
  private inos: Float64Array;
  private readonly targets = new Map<number, string>();
  private n = 0;
  private total = 0;
  private sorted = true;
  /** Where each file is in `knownFrom` (-1: not known there); made by the first addKnown. */
  private knownAt: Int32Array | undefined;
  private knownFrom: PathBytes | undefined;

  /**
   * `reuse`: a buffer the paths are taken from in order, which then holds the list's names
   * (each path is moved back over what was before it: NULs, paths left out). It must not
   * be read behind the path being added any more. git's listing of 100,000 tracked files
   * is 10 MB: held once instead of twice.
   */
  constructor(files = 256, nameBytes = files * 48, reuse?: Buffer) {
    this.names = reuse ?? Buffer.allocUnsafe(Math.max(64, nameBytes));
    this.ends = new Uint32Array(Math.max(1, files));
    this.sizes = new Float64Array(this.ends.length);
    this.mtimes = new Float64Array(this.ends.length);
    this.ctimes = new Float64Array(this.ends.length);
    this.inos = new Float64Array(this.ends.length);
  }

  get length(): number {
    return this.n;
  }

  private room(bytes: number): void {
    if (this.n === this.ends.length) {
      const cap = this.ends.length * 2;
      this.ends = growTo(this.ends, cap);
      this.sizes = growTo(this.sizes, cap);
      this.mtimes = growTo(this.mtimes, cap);
      this.ctimes = growTo(this.ctimes, cap);
      this.inos = growTo(this.inos, cap);
      if (this.knownAt) this.knownAt = growTo(this.knownAt, cap);
    }
    this.names = withRoom(this.names, this.used, bytes);
  }

  private push(size: number, ino: number, mtimeMs: number, ctimeMs: number, target: string | undefined, at = -1): void {
    const i = this.n++;
    this.ends[i] = this.used;
    this.sizes[i] = size;
    this.inos[i] = ino;
    this.mtimes[i] = mtimeMs;
    this.ctimes[i] = ctimeMs;
    if (target !== undefined) this.targets.set(i, target);
    this.total += size;
    const known = this.knownAt;
    if (known) known[i] = at;
    // Two files found in ascending places of the same sorted list are in order: no comparing.
    if (i > 0 && this.sorted && !(at >= 0 && known![i - 1] >= 0 && known![i - 1] < at)) {
      const view = { names: this.names, ends: this.ends, length: this.n };
      this.sorted = comparePaths(view, i - 1, view, i) < 0;
    }
  }

  add(path: string, size: number, ino: number, mtimeMs: number, ctimeMs: number, target?: string): void {
    this.room(path.length * 3);
    this.used += this.names.write(path, this.used, 'utf8');
    this.push(size, ino, mtimeMs, ctimeMs, target);
  }

  /** A file whose path is the UTF-8 bytes `buf[start, end)`. */
  addBytes(buf: Buffer, start: number, end: number, size: number, ino: number, mtimeMs: number, ctimeMs: number, target?: string): void {
    this.room(end - start);
    this.used += buf.copy(this.names, this.used, start, end);
    this.push(size, ino, mtimeMs, ctimeMs, target);
  }

  /**
   * As addBytes, for a file whose path is at `at` in `from`, a list sorted without duplicates
   * (the last archive's index, whose order was checked when it was read). Positions are kept
   * for one list only: those of another are dropped.
   */
  addKnown(buf: Buffer, start: number, end: number, from: PathBytes, at: number, size: number, ino: number, mtimeMs: number, ctimeMs: number): void {
    this.room(end - start);
    this.used += buf.copy(this.names, this.used, start, end);
    this.push(size, ino, mtimeMs, ctimeMs, undefined, this.knowing(from) ? at : -1);
  }

  /** Whether positions in `from` can be kept (the first list asked for is the only one). */
  private knowing(from: PathBytes): boolean {
    if (!this.knownAt) {
      this.knownAt = new Int32Array(this.ends.length).fill(-1);
      this.knownFrom = from;
    }
    return from === this.knownFrom;
  }

  /** File i of another list, its path bytes copied as they are. */
  copyFrom(list: FileList, i: number): void {
    const start = pathStart(list, i);
    const end = list.ends[i];
    this.room(end - start);
    this.used += list.names.copy(this.names, this.used, start, end);
    const from = list.knownList;
    const at = from ? list.positionIn(from, i) : -1;
    this.push(list.size(i), list.ino(i), list.mtimeMs(i), list.ctimeMs(i), list.target(i), at >= 0 && this.knowing(from!) ? at : -1);
  }

  /** The files sorted by path bytes (git's order; already so when added in that order), duplicates dropped. */
  build(): FileList {
    const n = this.n;
    const list = new FileList(this.names, this.ends, this.sizes, this.mtimes, this.ctimes, this.inos, this.targets, n, this.total, this.knownAt, this.knownFrom);
    if (this.sorted) return list;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => comparePaths(list, a, list, b));
    const out = new FileListBuilder(n, this.used);
    for (let k = 0; k < n; k++) {
      if (k > 0 && comparePaths(list, order[k - 1], list, order[k]) === 0) continue;
      out.copyFrom(list, order[k]);
    }
    return out.build();
  }
}

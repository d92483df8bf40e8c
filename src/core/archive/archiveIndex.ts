// Where every entry of an archive is and what file it was made from, kept compact (typed
// arrays and one buffer of path bytes) because it lives through the scan and is what the
// next scan of the folder reads back: an object per entry was megabytes for a large
// repository, and parsing it back from JSON cost more than copying the entries it describes.
import { runAtOnce, runInSlices } from '../async';
import { comparePaths, growTo, pathStart, withRoom, type PathBytes, type StatColumns } from '../workspace/fileList';

interface Columns {
  size: Float64Array;
  mtimeMs: Float64Array;
  ctimeMs: Float64Array;
  ino: Float64Array;
  headerAt: Float64Array;
  dataAt: Float64Array;
  /** The offset just past the entry (its data descriptor included). */
  endAt: Float64Array;
  compressedSize: Float64Array;
  crc: Uint32Array;
  flags: Uint16Array;
  mode: Uint16Array;
  method: Uint8Array;
}

const FLOAT_COLUMNS = ['size', 'mtimeMs', 'ctimeMs', 'ino', 'headerAt', 'dataAt', 'endAt', 'compressedSize'] as const;

const STAT_COLUMNS = ['size', 'mtimeMs', 'ctimeMs', 'ino'] as const;

/** `stats` false: the four stat columns left empty (the builder shares the selection's). */
function newColumns(cap: number, stats = true): Columns {
  const s = stats ? cap : 0;
  return {
    size: new Float64Array(s), mtimeMs: new Float64Array(s), ctimeMs: new Float64Array(s), ino: new Float64Array(s),
    headerAt: new Float64Array(cap), dataAt: new Float64Array(cap), endAt: new Float64Array(cap), compressedSize: new Float64Array(cap),
    crc: new Uint32Array(cap), flags: new Uint16Array(cap), mode: new Uint16Array(cap), method: new Uint8Array(cap),
  };
}

/** The values of one entry, for ArchiveIndexBuilder.add. */
export interface IndexRow {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  headerAt: number;
  dataAt: number;
  endAt: number;
  compressedSize: number;
  crc: number;
  flags: number;
  mode: number;
  method: number;
}

export class ArchiveIndex implements PathBytes {
  /** @internal built by ArchiveIndexBuilder or read by ReuseCache */
  constructor(
    readonly names: Buffer,
    readonly ends: Uint32Array,
    readonly columns: Readonly<Columns>,
    readonly length: number,
    /** Which rules chose these files (Selection.rulesKey), when known. */
    readonly selectedBy?: string,
  ) {}

  path(i: number): string {
    return this.names.toString('utf8', pathStart(this, i), this.ends[i]);
  }

  /** Every path, in archive order (strings made now). */
  paths(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.path(i);
    return out;
  }
}

export class ArchiveIndexBuilder {
  private names: Buffer;
  private used = 0;
  private ends: Uint32Array;
  private c: Columns;
  private n = 0;
  /**
   * While every entry so far is a path of `shared` (add() from it, addRun() told which), the
   * entry's number there: the names are not copied, and an index of every path of `shared`
   * in order keeps its names (the selection's, already in memory: ~10 MB at 100,000 files).
   */
  private fileOf: Uint32Array | undefined;
  /**
   * The shared list's size and times, while every entry so far was the file as the list
   * has it (fileOf says which): the index keeps no columns of its own for them (32 bytes a
   * file, 3.2 MB at 100,000 files; `npm run bench`'s monorepo peak 2-3 MB lower). A first
   * entry that differs (the file changed since it was chosen) makes them the index's own.
   */
  private sharedStats: StatColumns | undefined;

  /** `shared`: the list most entries' paths come from (the selection's files), sized for all of them. */
  constructor(capacity = 1024, private readonly shared?: PathBytes & { statColumns?(): StatColumns }) {
    const cap = Math.max(1, capacity);
    this.names = Buffer.allocUnsafe(shared ? 0 : cap * 48);
    this.ends = new Uint32Array(cap);
    if (shared) this.fileOf = new Uint32Array(cap);
    this.sharedStats = shared?.statColumns?.();
    this.c = newColumns(cap, !this.sharedStats);
  }

  get length(): number {
    return this.n;
  }

  /** Room for at least `capacity` entries. */
  private grow(capacity: number): void {
    if (capacity <= this.ends.length) return;
    let cap = this.ends.length * 2;
    while (cap < capacity) cap *= 2;
    this.ends = growTo(this.ends, cap);
    if (this.fileOf) this.fileOf = growTo(this.fileOf, cap);
    const next = newColumns(cap, !this.sharedStats);
    for (const k of Object.keys(next) as (keyof Columns)[]) next[k].set(this.c[k]);
    this.c = next;
  }

  /** Whether entry `file` of the shared list has these numbers there. */
  private sameStats(file: number, size: number, mtimeMs: number, ctimeMs: number, ino: number): boolean {
    const s = this.sharedStats!;
    return s.size[file] === size && s.mtimeMs[file] === mtimeMs && s.ctimeMs[file] === ctimeMs && s.ino[file] === ino;
  }

  /** From now on the index keeps its own size and times: those of the entries so far first. */
  private ownStats(): void {
    const s = this.sharedStats;
    if (!s) return;
    this.sharedStats = undefined;
    const map = this.fileOf!;
    const cap = this.ends.length;
    const c = this.c;
    for (const col of STAT_COLUMNS) {
      const own = new Float64Array(cap);
      for (let k = 0; k < this.n; k++) own[k] = s[col][map[k]];
      c[col] = own;
    }
  }

  /** From now on names are copied: those of the entries so far first. */
  private copyNames(extra: number): void {
    // Without the map to the shared list, its numbers cannot be told apart either.
    this.ownStats();
    const shared = this.shared!;
    const map = this.fileOf!;
    this.fileOf = undefined;
    let bytes = extra;
    for (let k = 0; k < this.n; k++) bytes += shared.ends[map[k]] - pathStart(shared, map[k]);
    this.names = Buffer.allocUnsafe(Math.max(64, bytes));
    this.used = 0;
    for (let k = 0; k < this.n; k++) {
      this.used += shared.names.copy(this.names, this.used, pathStart(shared, map[k]), shared.ends[map[k]]);
      this.ends[k] = this.used;
    }
  }

  private row(k: number, row: IndexRow): void {
    if (this.sharedStats && !this.sameStats(this.fileOf![k], row.size, row.mtimeMs, row.ctimeMs, row.ino)) this.ownStats();
    const c = this.c;
    if (!this.sharedStats) {
      c.size[k] = row.size;
      c.mtimeMs[k] = row.mtimeMs;
      c.ctimeMs[k] = row.ctimeMs;
      c.ino[k] = row.ino;
    }
    c.headerAt[k] = row.headerAt;
    c.dataAt[k] = row.dataAt;
    c.endAt[k] = row.endAt;
    c.compressedSize[k] = row.compressedSize;
    c.crc[k] = row.crc;
    c.flags[k] = row.flags;
    c.mode[k] = row.mode;
    c.method[k] = row.method;
  }

  /** An entry whose path is path `i` of `from` (its bytes are copied, no string is made). */
  add(from: PathBytes, i: number, row: IndexRow): void {
    this.grow(this.n + 1);
    const start = pathStart(from, i);
    const end = from.ends[i];
    if (this.fileOf && from === this.shared) {
      this.fileOf[this.n] = i;
    } else {
      if (this.fileOf) this.copyNames(end - start);
      this.names = withRoom(this.names, this.used, end - start);
      this.used += from.names.copy(this.names, this.used, start, end);
      this.ends[this.n] = this.used;
    }
    this.row(this.n++, row);
  }

  /**
   * Entries `from`..`from + count - 1` of another index as they are (same paths, same
   * files), their offsets moved by `shift`: a run a re-scan copied from the previous
   * archive, taken over in a few bulk copies instead of entry by entry. `file`: where the
   * run's first path is in the shared list, when it is there.
   */
  addRun(other: ArchiveIndex, from: number, count: number, shift: number, file?: number): void {
    if (count <= 0) return;
    const nameStart = pathStart(other, from);
    const nameEnd = other.ends[from + count - 1];
    this.grow(this.n + count);
    const k0 = this.n;
    if (this.fileOf && file !== undefined) {
      for (let k = 0; k < count; k++) this.fileOf[k0 + k] = file + k;
    } else {
      if (this.fileOf) this.copyNames(nameEnd - nameStart);
      this.names = withRoom(this.names, this.used, nameEnd - nameStart);
      other.names.copy(this.names, this.used, nameStart, nameEnd);
      const nameShift = this.used - nameStart;
      for (let k = 0; k < count; k++) this.ends[k0 + k] = other.ends[from + k] + nameShift;
      this.used += nameEnd - nameStart;
    }
    const oc = other.columns;
    for (let k = 0; k < count && this.sharedStats; k++) {
      const j = from + k;
      if (!this.sameStats(file! + k, oc.size[j], oc.mtimeMs[j], oc.ctimeMs[j], oc.ino[j])) this.ownStats();
    }
    const c = this.c;
    for (const col of [...(this.sharedStats ? [] : STAT_COLUMNS), 'compressedSize', 'crc', 'flags', 'mode', 'method'] as const) {
      (c[col] as Float64Array).set((oc[col] as Float64Array).subarray(from, from + count), k0);
    }
    for (let k = 0; k < count; k++) {
      c.headerAt[k0 + k] = oc.headerAt[from + k] + shift;
      c.dataAt[k0 + k] = oc.dataAt[from + k] + shift;
      c.endAt[k0 + k] = oc.endAt[from + k] + shift;
    }
    this.n += count;
  }

  build(selectedBy?: string): ArchiveIndex {
    if (this.fileOf) {
      const shared = this.shared!;
      let same = this.n === shared.length;
      for (let k = 0; same && k < this.n; k++) same = this.fileOf[k] === k;
      if (same) {
        const s = this.sharedStats;
        const columns = s ? { ...this.c, size: s.size.subarray(0, this.n), mtimeMs: s.mtimeMs.subarray(0, this.n), ctimeMs: s.ctimeMs.subarray(0, this.n), ino: s.ino.subarray(0, this.n) } : this.c;
        return new ArchiveIndex(shared.names, shared.ends.subarray(0, this.n), columns, this.n, selectedBy);
      }
      this.copyNames(0);
    }
    return new ArchiveIndex(this.names, this.ends, this.c, this.n, selectedBy);
  }
}

// ---------------------------------------------------------------------------------------
// On disk: a magic, a JSON header, then each column's bytes in a fixed order, 8-byte aligned.

const MAGIC = Buffer.from('CSRIDX01');

export interface IndexHeader {
  level: number;
  madeAtMs: number;
  /** Size of the archive the index describes. */
  archiveSize: number;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

function columnBytes(index: ArchiveIndex): Uint8Array[] {
  const n = index.length;
  const c = index.columns;
  const view = (a: Float64Array | Uint32Array | Uint16Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, n * a.BYTES_PER_ELEMENT);
  return [
    view(index.ends), ...FLOAT_COLUMNS.map((k) => view(c[k])), view(c.crc), view(c.flags), view(c.mode), view(c.method),
    index.names.subarray(0, n ? index.ends[n - 1] : 0),
  ];
}

export function serializeIndex(index: ArchiveIndex, header: IndexHeader): Buffer {
  const parts = columnBytes(index);
  const json = Buffer.from(JSON.stringify({ ...header, count: index.length, namesBytes: parts[parts.length - 1].length, selectedBy: index.selectedBy }));
  const headLen = align8(MAGIC.length + 4 + json.length);
  const total = headLen + parts.reduce((n, p) => n + align8(p.length), 0);
  const out = Buffer.alloc(total);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, MAGIC.length);
  json.copy(out, MAGIC.length + 4);
  let at = headLen;
  for (const p of parts) {
    out.set(p, at);
    at += align8(p.length);
  }
  return out;
}

/** The bytes an index's header takes at the start of its file, given its first HEADER_PREFIX bytes. */
export const HEADER_PREFIX = MAGIC.length + 4;
export function headerBytes(prefix: Buffer): number | undefined {
  if (prefix.length < HEADER_PREFIX || !prefix.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  return HEADER_PREFIX + prefix.readUInt32LE(MAGIC.length);
}

interface ParsedHeader extends IndexHeader {
  count: number;
  namesBytes: number;
  selectedBy?: string;
  /** Where the columns start. */
  columnsAt: number;
}

/** The header at the start of `data` (at least headerBytes long), or undefined when it is not one this version wrote. */
export function parseIndexHeader(data: Buffer): ParsedHeader | undefined {
  const end = headerBytes(data);
  if (end === undefined || end > data.length) return undefined;
  let head: { level?: unknown; madeAtMs?: unknown; archiveSize?: unknown; count?: unknown; namesBytes?: unknown; selectedBy?: unknown };
  try {
    head = JSON.parse(data.toString('utf8', HEADER_PREFIX, end)) as typeof head;
  } catch {
    return undefined;
  }
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  const level = num(head.level);
  const madeAtMs = num(head.madeAtMs);
  const archiveSize = num(head.archiveSize);
  const count = num(head.count);
  const namesBytes = num(head.namesBytes);
  if (level === undefined || madeAtMs === undefined || archiveSize === undefined || count === undefined || namesBytes === undefined || !Number.isInteger(count)) return undefined;
  const selectedBy = typeof head.selectedBy === 'string' ? head.selectedBy : undefined;
  return { level, madeAtMs, archiveSize, count, namesBytes, ...(selectedBy !== undefined ? { selectedBy } : {}), columnsAt: align8(end) };
}

type ParsedIndex = { index: ArchiveIndex; header: IndexHeader };

/** The index in `data`, or undefined when it is not one this version wrote, whole and consistent. */
export function parseIndex(data: Buffer): ParsedIndex | undefined {
  return runAtOnce(readIndex(data));
}

/**
 * The same, checked a slice at a time: the checks of a 100,000-file index in one go held the
 * extension host's thread too long. Same bytes, same answer.
 */
export function parseIndexInSlices(data: Buffer, sliceMs = 5): Promise<ParsedIndex | undefined> {
  return runInSlices(readIndex(data), sliceMs);
}

/** Entries checked between two looks at the clock (a look costs more than an entry). */
const CHECKED_PER_STEP = 1024;

/** Reads and checks the index, yielding every CHECKED_PER_STEP entries. */
function* readIndex(data: Buffer): Generator<void, ParsedIndex | undefined> {
  const head = parseIndexHeader(data);
  if (!head) return undefined;
  const { level, madeAtMs, archiveSize, count: n, namesBytes, selectedBy } = head;
  let at = head.columnsAt;
  // Columns start 8-aligned in the file: where the bytes read are aligned in memory too (a
  // buffer of its own, as a file this size is read into), they are viewed in place; copying
  // them (some 4 MB for the babel shape) made a re-scan pay for a full garbage collection.
  const inPlace = (data.byteOffset & 7) === 0;
  /** The next column: a view of `data`, or an aligned copy. */
  const take = <T>(bytes: number, make: (buf: ArrayBuffer, offset: number, bytes: number) => T): T | undefined => {
    if (at + bytes > data.length) return undefined;
    let made: T;
    if (inPlace) {
      made = make(data.buffer as ArrayBuffer, data.byteOffset + at, bytes);
    } else {
      const buf = new ArrayBuffer(bytes);
      new Uint8Array(buf).set(data.subarray(at, at + bytes));
      made = make(buf, 0, bytes);
    }
    at += align8(bytes);
    return made;
  };
  const ends = take(n * 4, (b, o, len) => new Uint32Array(b, o, len / 4));
  const floats = FLOAT_COLUMNS.map(() => take(n * 8, (b, o, len) => new Float64Array(b, o, len / 8)));
  const crc = take(n * 4, (b, o, len) => new Uint32Array(b, o, len / 4));
  const flags = take(n * 2, (b, o, len) => new Uint16Array(b, o, len / 2));
  const mode = take(n * 2, (b, o, len) => new Uint16Array(b, o, len / 2));
  const method = take(n, (b, o, len) => new Uint8Array(b, o, len));
  const names = take(namesBytes, (b, o, len) => Buffer.from(b, o, len));
  if (!ends || floats.some((f) => !f) || !crc || !flags || !mode || !method || !names) return undefined;
  const [size, mtimeMs, ctimeMs, ino, headerAt, dataAt, endAt, compressedSize] = floats as Float64Array[];
  const index = new ArchiveIndex(names, ends, { size, mtimeMs, ctimeMs, ino, headerAt, dataAt, endAt, compressedSize, crc, flags, mode, method }, n, selectedBy);
  // Every entry inside the archive, one after the other, described consistently.
  let prevEnd = 0;
  let prevName = 0;
  for (let i = 0; i < n; i++) {
    if (i % CHECKED_PER_STEP === 0) yield;
    if (ends[i] < prevName || ends[i] > namesBytes || headerAt[i] < prevEnd || dataAt[i] < headerAt[i] + 30 || endAt[i] < dataAt[i] + compressedSize[i] || endAt[i] > archiveSize) return undefined;
    if (method[i] !== 0 && method[i] !== 8) return undefined;
    prevEnd = endAt[i];
    prevName = ends[i];
  }
  if (n && ends[n - 1] !== namesBytes) return undefined;
  for (let i = 1; i < n; i++) {
    if (i % CHECKED_PER_STEP === 0) yield;
    // In strictly ascending byte order of their paths (the archive's order).
    if (comparePaths(index, i - 1, index, i) >= 0) return undefined;
  }
  return { index, header: { level, madeAtMs, archiveSize } };
}

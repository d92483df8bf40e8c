// The zip container (PKWARE APPNOTE 6.3): local headers, optional data descriptors, the
// central directory and its end records, with ZIP64 when an archive outgrows 65,535
// entries or 4 GiB. Entries are written with a fixed date and the Unix mode (so the
// executable bit survives), and names as UTF-8. Names are given as bytes (a path of a
// selection's file list) and the central directory is written from the archive's index,
// so no entry costs a string or an object, and nothing is kept twice.
import { ArchiveIndexBuilder, type ArchiveIndex } from './archiveIndex';
import { pathStart, type PathBytes } from '../workspace/fileList';
import { l10n } from '../text/l10n';

/** 2000-01-01 00:00:00 in MS-DOS form; every entry carries it, so the same files give the same bytes. */
const DOS_DATE = ((2000 - 1980) << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
export const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
/** Version made by: Unix (3), spec 2.0 / 4.5 (ZIP64). */
const MADE_BY_UNIX = 3 << 8;
const S_IFREG = 0o100000;

export const METHOD_STORE = 0;
export const METHOD_DEFLATE = 8;

export interface EntryInfo {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Unix permission bits (0o644, 0o755). */
  mode: number;
}

/** An entry's data and sizes, its name given apart (as bytes). */
export type EntryData = Omit<EntryInfo, 'name' | 'mode'>;

/** Where the writer's bytes go, in order. `write` may wait (a full buffer being written out). */
export interface ByteSink {
  write(bytes: Uint8Array): void | Promise<void>;
  /** Appends `length` bytes read from `fd` at `position` (entries copied from another archive). */
  copyFrom?(fd: number, position: number, length: number): Promise<void>;
}

/** The entries the central directory lists: an archive's index. */
export type Directory = Pick<ArchiveIndex, 'length' | 'names' | 'ends'> & {
  readonly columns: Pick<ArchiveIndex['columns'], 'crc' | 'compressedSize' | 'size' | 'headerAt' | 'method' | 'flags' | 'mode'>;
};

/** UTF-8 flag for names outside printable ASCII (as Info-ZIP and other readers expect it). */
function nameFlags(names: Buffer, start: number, end: number): number {
  for (let k = start; k < end; k++) {
    const b = names[k];
    if (b < 0x20 || b > 0x7e) return FLAG_UTF8;
  }
  return 0;
}

function u16(b: Buffer, o: number, v: number): number { b.writeUInt16LE(v, o); return o + 2; }
function u32(b: Buffer, o: number, v: number): number { b.writeUInt32LE(v >>> 0, o); return o + 4; }
function u64(b: Buffer, o: number, v: number): number {
  b.writeUInt32LE(v % 0x100000000, o);
  b.writeUInt32LE(Math.floor(v / 0x100000000), o + 4);
  return o + 8;
}

/** An entry begun with beginStreamed: its flags and where its data starts. */
export interface StreamedEntry { flags: number; dataAt: number }

export class ZipWriter {
  /** Bytes written so far: the offset of whatever comes next. */
  offset = 0;
  private header = Buffer.allocUnsafe(4096);
  /** Entries written with add(), for finish() without an index of the caller's. */
  private own: ArchiveIndexBuilder | undefined;

  constructor(private readonly sink: ByteSink) {}

  private put(bytes: Uint8Array): void | Promise<void> {
    this.offset += bytes.length;
    return this.sink.write(bytes);
  }

  /**
   * The local header, built in a buffer reused for every entry (the sink copies it before
   * `put` returns): tens of thousands of entries otherwise leave as many small buffers.
   */
  private localHeader(names: Buffer, start: number, end: number, e: EntryData, flags: number, known: boolean): Buffer {
    const nameLen = end - start;
    const zip64 = known && (e.size >= MAX32 || e.compressedSize >= MAX32);
    const extra = zip64 ? 20 : 0;
    const length = 30 + nameLen + extra;
    if (this.header.length < length) this.header = Buffer.allocUnsafe(length * 2);
    const h = this.header.subarray(0, length);
    let o = u32(h, 0, 0x04034b50);
    o = u16(h, o, zip64 ? 45 : 20);
    o = u16(h, o, flags);
    o = u16(h, o, e.method);
    o = u16(h, o, DOS_TIME);
    o = u16(h, o, DOS_DATE);
    o = u32(h, o, known ? e.crc : 0);
    o = u32(h, o, !known ? 0 : zip64 ? MAX32 : e.compressedSize);
    o = u32(h, o, !known ? 0 : zip64 ? MAX32 : e.size);
    o = u16(h, o, nameLen);
    o = u16(h, o, extra);
    names.copy(h, o, start, end);
    o += nameLen;
    if (zip64) {
      o = u16(h, o, 0x0001);
      o = u16(h, o, 16);
      o = u64(h, o, e.size);
      u64(h, o, e.compressedSize);
    }
    return h;
  }

  /**
   * One entry whose data is ready (deflated or stored, CRC known), named by path `i` of
   * `names`; the data may come in pieces. Returns the entry's flags (for the index); its
   * header is at the offset before the call, its data ends at the offset after it.
   */
  write(names: PathBytes, i: number, e: EntryData, data: Uint8Array | readonly Uint8Array[]): number | Promise<number> {
    const start = pathStart(names, i);
    const end = names.ends[i];
    const flags = nameFlags(names.names, start, end);
    const wrote = this.put(this.localHeader(names.names, start, end, e, flags, true));
    // Synchronous while the sink has room: an entry costs no promise unless a block is being written out.
    if (wrote) return wrote.then(() => this.putData(data, flags));
    return this.putData(data, flags);
  }

  private putData(data: Uint8Array | readonly Uint8Array[], flags: number): number | Promise<number> {
    if (!Array.isArray(data)) {
      const wrote = (data as Uint8Array).length ? this.put(data as Uint8Array) : undefined;
      return wrote ? wrote.then(() => flags) : flags;
    }
    return (async () => {
      for (const piece of data as readonly Uint8Array[]) await this.put(piece);
      return flags;
    })();
  }

  /**
   * One entry whose data is streamed (a big file that is stored): the header goes first
   * without sizes, the data follows, and a data descriptor after it carries the CRC and sizes.
   */
  async writeStreamed(
    names: PathBytes, i: number, method: number,
    chunks: AsyncIterable<Uint8Array>,
    finish: () => { crc: number; size: number },
  ): Promise<{ flags: number; compressedSize: number }> {
    const entry = await this.beginStreamed(names, i, method);
    for await (const c of chunks) if (c.length) await this.put(c);
    const { crc, size } = finish();
    return this.endStreamed(entry, crc, size);
  }

  /**
   * The header of an entry whose data follows in pieces (appendStreamed) and whose CRC and
   * sizes come in a data descriptor after it (endStreamed): a big file written as its
   * parts are deflated.
   */
  async beginStreamed(names: PathBytes, i: number, method: number): Promise<StreamedEntry> {
    const start = pathStart(names, i);
    const end = names.ends[i];
    const flags = FLAG_DATA_DESCRIPTOR | nameFlags(names.names, start, end);
    await this.put(this.localHeader(names.names, start, end, { method, crc: 0, compressedSize: 0, size: 0 }, flags, false));
    return { flags, dataAt: this.offset };
  }

  /** Data of the entry begun last; the sink has copied it when this returns or its promise settles. */
  appendStreamed(bytes: Uint8Array): void | Promise<void> {
    if (bytes.length) return this.put(bytes);
  }

  /** The data descriptor that ends the entry begun last: its flags and compressed size for the index. */
  async endStreamed(entry: StreamedEntry, crc: number, size: number): Promise<{ flags: number; compressedSize: number }> {
    const compressedSize = this.offset - entry.dataAt;
    const zip64 = size >= MAX32 || compressedSize >= MAX32;
    const d = Buffer.allocUnsafe(zip64 ? 24 : 16);
    let o = u32(d, 0, 0x08074b50);
    o = u32(d, o, crc);
    if (zip64) {
      o = u64(d, o, compressedSize);
      u64(d, o, size);
    } else {
      o = u32(d, o, compressedSize);
      u32(d, o, size);
    }
    await this.put(d);
    return { flags: entry.flags, compressedSize };
  }

  /**
   * Appends entries exactly as another archive holds them, local headers, data and data
   * descriptors: `length` bytes of `fd` from `position`.
   */
  async copyRaw(fd: number, position: number, length: number): Promise<void> {
    if (!this.sink.copyFrom) throw new Error(l10n.t('this sink cannot copy entries'));
    this.offset += length;
    await this.sink.copyFrom(fd, position, length);
  }

  /** An entry with a name given as text, listed by finish() without a directory (for small uses and tests). */
  async add(e: EntryInfo, data: Uint8Array): Promise<void> {
    const name = Buffer.from(e.name, 'utf8');
    const one: PathBytes = { names: name, ends: Uint32Array.of(name.length), length: 1 };
    const headerAt = this.offset;
    const flags = await this.write(one, 0, e, data);
    (this.own ??= new ArchiveIndexBuilder()).add(one, 0, {
      size: e.size, mtimeMs: 0, ctimeMs: 0, ino: 0, mode: e.mode, crc: e.crc, method: e.method, compressedSize: e.compressedSize,
      flags, headerAt, dataAt: headerAt + 30 + name.length, endAt: this.offset,
    });
  }

  /** The central directory of `dir` (or of the entries add() wrote) and the end records. */
  async finish(dir: Directory = (this.own ?? new ArchiveIndexBuilder()).build()): Promise<void> {
    const cdStart = this.offset;
    const c = dir.columns;
    const count = dir.length;
    // Records are written into one buffer, handed over whenever it is nearly full: a buffer
    // per record was tens of thousands of small allocations for a large repository.
    const CHUNK = 256 * 1024;
    const out = Buffer.allocUnsafe(CHUNK + 46 + 28 + 0xffff);
    const view = new DataView(out.buffer, out.byteOffset, out.length);
    let used = 0;
    for (let i = 0; i < count; i++) {
      const nameStart = pathStart(dir, i);
      const nameLen = dir.ends[i] - nameStart;
      const usize = c.size[i];
      const csize = c.compressedSize[i];
      const at = c.headerAt[i];
      const bigU = usize >= MAX32;
      const bigC = csize >= MAX32;
      const bigAt = at >= MAX32;
      const extra = bigU || bigC || bigAt ? 4 + 8 * (+bigU + +bigC + +bigAt) : 0;
      if (used + 46 + nameLen + extra > out.length) {
        // The sink has copied the bytes once put is done (see localHeader), so the buffer is reused.
        await this.put(out.subarray(0, used));
        used = 0;
      }
      // DataView stores compile to plain memory writes: ~17 fields for each of tens of thousands of records.
      let o = used;
      view.setUint32(o, 0x02014b50, true);
      view.setUint16(o + 4, MADE_BY_UNIX | (extra ? 45 : 20), true);
      view.setUint16(o + 6, extra ? 45 : 20, true);
      view.setUint16(o + 8, c.flags[i], true);
      view.setUint16(o + 10, c.method[i], true);
      view.setUint16(o + 12, DOS_TIME, true);
      view.setUint16(o + 14, DOS_DATE, true);
      view.setUint32(o + 16, c.crc[i], true);
      view.setUint32(o + 20, bigC ? MAX32 : csize, true);
      view.setUint32(o + 24, bigU ? MAX32 : usize, true);
      view.setUint16(o + 28, nameLen, true);
      view.setUint16(o + 30, extra, true);
      view.setUint32(o + 32, 0, true); // comment length, disk number
      view.setUint16(o + 36, 0, true); // internal attributes
      view.setUint32(o + 38, ((S_IFREG | (c.mode[i] & 0o7777)) << 16) >>> 0, true);
      view.setUint32(o + 42, bigAt ? MAX32 : at, true);
      o += 46;
      dir.names.copy(out, o, nameStart, dir.ends[i]);
      o += nameLen;
      if (extra) {
        o = u16(out, o, 0x0001);
        o = u16(out, o, extra - 4);
        if (bigU) o = u64(out, o, usize);
        if (bigC) o = u64(out, o, csize);
        if (bigAt) o = u64(out, o, at);
      }
      used = o;
      if (used >= CHUNK) {
        await this.put(out.subarray(0, used));
        used = 0;
      }
    }
    if (used) await this.put(out.subarray(0, used));
    const cdSize = this.offset - cdStart;
    const zip64 = count >= MAX16 || cdStart >= MAX32 || cdSize >= MAX32;
    if (zip64) {
      const eocd64At = this.offset;
      const r = Buffer.allocUnsafe(56 + 20);
      let o = u32(r, 0, 0x06064b50);
      o = u64(r, o, 44);
      o = u16(r, o, MADE_BY_UNIX | 45);
      o = u16(r, o, 45);
      o = u32(r, o, 0);
      o = u32(r, o, 0);
      o = u64(r, o, count);
      o = u64(r, o, count);
      o = u64(r, o, cdSize);
      o = u64(r, o, cdStart);
      o = u32(r, o, 0x07064b50);
      o = u32(r, o, 0);
      o = u64(r, o, eocd64At);
      u32(r, o, 1);
      await this.put(r);
    }
    const end = Buffer.allocUnsafe(22);
    let o = u32(end, 0, 0x06054b50);
    o = u16(end, o, 0);
    o = u16(end, o, 0);
    o = u16(end, o, zip64 ? MAX16 : count);
    o = u16(end, o, zip64 ? MAX16 : count);
    o = u32(end, o, zip64 ? MAX32 : cdSize);
    o = u32(end, o, zip64 ? MAX32 : cdStart);
    u16(end, o, 0);
    await this.put(end);
  }
}

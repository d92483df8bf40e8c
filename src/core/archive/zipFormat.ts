// The zip container (PKWARE APPNOTE 6.3): local headers, optional data descriptors, the
// central directory and its end records, with ZIP64 when an archive outgrows 65,535
// entries or 4 GiB. Entries are written with a fixed date and the Unix mode (so the
// executable bit survives), and names as UTF-8. The central directory is kept compact
// (typed arrays and one name buffer) because it lives until the end: an object per entry
// was megabytes for a large repository.

/** 2000-01-01 00:00:00 in MS-DOS form; every entry carries it, so the same files give the same bytes. */
const DOS_DATE = ((2000 - 1980) << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
const FLAG_DATA_DESCRIPTOR = 0x0008;
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

/** Where the writer's bytes go, in order. `write` may wait (a full buffer being written out). */
export interface ByteSink {
  write(bytes: Uint8Array): void | Promise<void>;
  /** Appends `length` bytes read from `fd` at `position` (entries copied from another archive). */
  copyFrom?(fd: number, position: number, length: number): Promise<void>;
}

/** The general purpose flags an entry gets: UTF-8 names, and a data descriptor when its sizes follow its data. */
export function entryFlags(name: string, streamed: boolean): number {
  return (streamed ? FLAG_DATA_DESCRIPTOR : 0) | (/[^\x20-\x7e]/.test(name) ? FLAG_UTF8 : 0);
}

function u16(b: Buffer, o: number, v: number): number { b.writeUInt16LE(v, o); return o + 2; }
function u32(b: Buffer, o: number, v: number): number { b.writeUInt32LE(v >>> 0, o); return o + 4; }
function u64(b: Buffer, o: number, v: number): number {
  b.writeUInt32LE(v % 0x100000000, o);
  b.writeUInt32LE(Math.floor(v / 0x100000000), o + 4);
  return o + 8;
}

class Growable<T extends Uint32Array | Float64Array | Uint16Array | Uint8Array> {
  constructor(public data: T, private readonly make: (n: number) => T) {}
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
  }
}

export class ZipWriter {
  /** Bytes written so far: the offset of whatever comes next. */
  offset = 0;
  private count = 0;
  private readonly crc = new Growable(new Uint32Array(1024), (n) => new Uint32Array(n));
  private readonly csize = new Growable(new Float64Array(1024), (n) => new Float64Array(n));
  private readonly usize = new Growable(new Float64Array(1024), (n) => new Float64Array(n));
  private readonly headerAt = new Growable(new Float64Array(1024), (n) => new Float64Array(n));
  private readonly method = new Growable(new Uint8Array(1024), (n) => new Uint8Array(n));
  private readonly flags = new Growable(new Uint16Array(1024), (n) => new Uint16Array(n));
  private readonly modes = new Growable(new Uint16Array(1024), (n) => new Uint16Array(n));
  private readonly nameEnd = new Growable(new Uint32Array(1024), (n) => new Uint32Array(n));
  private names = Buffer.allocUnsafe(64 * 1024);
  private namesUsed = 0;
  /** The flags of the entry written last. */
  lastFlags = 0;
  private header = Buffer.allocUnsafe(4096);
  private nameScratch = Buffer.allocUnsafe(4096);

  /** The name's UTF-8 bytes in a reused buffer (valid until the next call). */
  private encodeName(name: string): Buffer {
    const max = name.length * 3;
    if (this.nameScratch.length < max) this.nameScratch = Buffer.allocUnsafe(max * 2);
    return this.nameScratch.subarray(0, this.nameScratch.write(name, 'utf8'));
  }

  constructor(private readonly sink: ByteSink) {}

  get entries(): number {
    return this.count;
  }

  private put(bytes: Uint8Array): void | Promise<void> {
    this.offset += bytes.length;
    return this.sink.write(bytes);
  }

  private remember(e: Omit<EntryInfo, 'name'>, name: Uint8Array, flags: number, headerAt: number): void {
    const i = this.count++;
    this.crc.set(i, e.crc);
    this.csize.set(i, e.compressedSize);
    this.usize.set(i, e.size);
    this.headerAt.set(i, headerAt);
    this.method.set(i, e.method);
    this.flags.set(i, flags);
    this.modes.set(i, e.mode & 0o7777);
    if (this.namesUsed + name.length > this.names.length) {
      const next = Buffer.allocUnsafe(Math.max(this.names.length * 2, this.namesUsed + name.length));
      this.names.copy(next, 0, 0, this.namesUsed);
      this.names = next;
    }
    this.names.set(name, this.namesUsed);
    this.namesUsed += name.length;
    this.nameEnd.set(i, this.namesUsed);
    this.lastFlags = flags;
  }

  /**
   * Appends entries exactly as another archive holds them, local headers, data and data
   * descriptors: `length` bytes of `fd` from `position`. Each entry is then described with
   * recordCopied, its header's offset given in the copied range.
   */
  async copyRaw(fd: number, position: number, length: number): Promise<void> {
    if (!this.sink.copyFrom) throw new Error('this sink cannot copy entries');
    this.offset += length;
    await this.sink.copyFrom(fd, position, length);
  }

  /** The central directory's record of an entry appended by copyRaw; `headerAt` is its offset in this archive. */
  recordCopied(name: Uint8Array, e: Omit<EntryInfo, 'name'>, flags: number, headerAt: number): void {
    this.remember(e, name, flags, headerAt);
  }

  /**
   * The local header, built in a buffer reused for every entry (the sink copies it before
   * `put` returns): tens of thousands of entries otherwise leave as many small buffers.
   */
  private localHeader(e: EntryInfo, name: Buffer, flags: number, known: boolean): Buffer {
    const zip64 = known && (e.size >= MAX32 || e.compressedSize >= MAX32);
    const extra = zip64 ? 20 : 0;
    const length = 30 + name.length + extra;
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
    o = u16(h, o, name.length);
    o = u16(h, o, extra);
    name.copy(h, o);
    o += name.length;
    if (zip64) {
      o = u16(h, o, 0x0001);
      o = u16(h, o, 16);
      o = u64(h, o, e.size);
      u64(h, o, e.compressedSize);
    }
    return h;
  }

  /**
   * One entry whose data is ready (deflated or stored, CRC known). Returns the offset of its
   * data in the archive, so the bytes can be found again (the re-scan cache copies them).
   */
  add(e: EntryInfo, data: Uint8Array): number | Promise<number> {
    const name = this.encodeName(e.name);
    const flags = entryFlags(e.name, false);
    const headerAt = this.offset;
    const header = this.localHeader(e, name, flags, true);
    this.remember(e, name, flags, headerAt);
    // Synchronous while the sink has room: an entry costs no promise unless a block is being written out.
    const wrote = this.put(header);
    const dataAt = this.offset;
    if (wrote) return wrote.then(() => this.putThen(data, dataAt));
    return this.putThen(data, dataAt);
  }

  private putThen(data: Uint8Array, dataAt: number): number | Promise<number> {
    if (!data.length) return dataAt;
    const wrote = this.put(data);
    return wrote ? wrote.then(() => dataAt) : dataAt;
  }

  /**
   * One entry whose data is streamed (a big file): the header goes first without sizes, the
   * data follows, and a data descriptor after it carries the CRC and sizes.
   */
  async addStreamed(
    e: Omit<EntryInfo, 'crc' | 'compressedSize' | 'size'>,
    chunks: AsyncIterable<Uint8Array>,
    finish: () => { crc: number; size: number },
  ): Promise<{ dataAt: number; compressedSize: number }> {
    // Its own copy: the name is needed again after the data, when other entries may have used the scratch.
    const name = Buffer.from(e.name, 'utf8');
    const flags = entryFlags(e.name, true);
    const headerAt = this.offset;
    await this.put(this.localHeader({ ...e, crc: 0, compressedSize: 0, size: 0 }, name, flags, false));
    const dataAt = this.offset;
    for await (const c of chunks) if (c.length) await this.put(c);
    const compressedSize = this.offset - dataAt;
    const { crc, size } = finish();
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
    this.remember({ ...e, crc, compressedSize, size }, name, flags, headerAt);
    return { dataAt, compressedSize };
  }

  /** The central directory and the end records. */
  async finish(): Promise<void> {
    const cdStart = this.offset;
    // Records are written into one buffer, handed over whenever it is nearly full: a buffer
    // per record was tens of thousands of small allocations for a large repository.
    const CHUNK = 256 * 1024;
    const out = Buffer.allocUnsafe(CHUNK + 46 + 28 + 0xffff);
    let used = 0;
    let nameStart = 0;
    for (let i = 0; i < this.count; i++) {
      const nameEnd = this.nameEnd.data[i];
      const usize = this.usize.data[i];
      const csize = this.csize.data[i];
      const at = this.headerAt.data[i];
      const bigU = usize >= MAX32;
      const bigC = csize >= MAX32;
      const bigAt = at >= MAX32;
      const extra = bigU || bigC || bigAt ? 4 + 8 * (+bigU + +bigC + +bigAt) : 0;
      const nameLen = nameEnd - nameStart;
      if (used + 46 + nameLen + extra > out.length) {
        // The sink has copied the bytes once put is done (see localHeader), so the buffer is reused.
        await this.put(out.subarray(0, used));
        used = 0;
      }
      let o = u32(out, used, 0x02014b50);
      o = u16(out, o, MADE_BY_UNIX | (extra ? 45 : 20));
      o = u16(out, o, extra ? 45 : 20);
      o = u16(out, o, this.flags.data[i]);
      o = u16(out, o, this.method.data[i]);
      o = u16(out, o, DOS_TIME);
      o = u16(out, o, DOS_DATE);
      o = u32(out, o, this.crc.data[i]);
      o = u32(out, o, bigC ? MAX32 : csize);
      o = u32(out, o, bigU ? MAX32 : usize);
      o = u16(out, o, nameLen);
      o = u16(out, o, extra);
      o = u16(out, o, 0); // comment
      o = u16(out, o, 0); // disk
      o = u16(out, o, 0); // internal attributes
      o = u32(out, o, ((S_IFREG | this.modes.data[i]) << 16) >>> 0);
      o = u32(out, o, bigAt ? MAX32 : at);
      this.names.copy(out, o, nameStart, nameEnd);
      o += nameLen;
      if (extra) {
        o = u16(out, o, 0x0001);
        o = u16(out, o, extra - 4);
        if (bigU) o = u64(out, o, usize);
        if (bigC) o = u64(out, o, csize);
        if (bigAt) o = u64(out, o, at);
      }
      used = o;
      nameStart = nameEnd;
      if (used >= CHUNK) {
        await this.put(out.subarray(0, used));
        used = 0;
      }
    }
    if (used) await this.put(out.subarray(0, used));
    const cdSize = this.offset - cdStart;
    const zip64 = this.count >= MAX16 || cdStart >= MAX32 || cdSize >= MAX32;
    if (zip64) {
      const eocd64At = this.offset;
      const r = Buffer.allocUnsafe(56 + 20);
      let o = u32(r, 0, 0x06064b50);
      o = u64(r, o, 44);
      o = u16(r, o, MADE_BY_UNIX | 45);
      o = u16(r, o, 45);
      o = u32(r, o, 0);
      o = u32(r, o, 0);
      o = u64(r, o, this.count);
      o = u64(r, o, this.count);
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
    o = u16(end, o, zip64 ? MAX16 : this.count);
    o = u16(end, o, zip64 ? MAX16 : this.count);
    o = u32(end, o, zip64 ? MAX32 : cdSize);
    o = u32(end, o, zip64 ? MAX32 : cdStart);
    u16(end, o, 0);
    await this.put(end);
  }
}

/**
 * A fixed circular buffer handing out contiguous regions that are given back in the order
 * they were taken. Reading thousands of small files into fresh Buffers would leave hundreds
 * of megabytes of garbage that V8 collects only lazily (RSS grows by tens of MB); reading
 * them into one reused slab keeps packaging memory flat.
 */
export class ByteRing {
  private readonly leases: { start: number; len: number }[] = [];
  private head = 0;
  readonly size: number;

  /** Hands out regions of `buf` (a buffer the caller owns; the ring never allocates). */
  constructor(private readonly buf: Buffer) {
    this.size = buf.length;
  }

  /** A region of `len` bytes, or undefined when there is no contiguous room right now. */
  take(len: number): Buffer | undefined {
    if (len > this.size) return undefined;
    let start: number | undefined;
    if (this.leases.length === 0) {
      start = 0;
    } else {
      const tail = this.leases[0].start;
      const wrapped = this.leases[this.leases.length - 1].start < tail;
      if (!wrapped) {
        if (this.size - this.head >= len) start = this.head;
        else if (tail >= len) start = 0;
      } else if (tail - this.head >= len) {
        start = this.head;
      }
    }
    if (start === undefined) return undefined;
    this.leases.push({ start, len });
    this.head = start + len;
    return this.buf.subarray(start, start + len);
  }

  /** Gives back the oldest region still out. */
  releaseOldest(): void {
    this.leases.shift();
    if (this.leases.length === 0) this.head = 0;
  }

  get outstanding(): number {
    return this.leases.length;
  }
}

/**
 * One large buffer shared by the stages of a scan that run one after the other: packaging
 * (its read slab and write buffers) and then the upload (its chunk buffer). With a buffer
 * of its own per stage, packaging's megabytes were still resident when the upload
 * allocated its chunk (garbage until V8's next full collection, and glibc keeps freed
 * blocks of that size for reuse): measured +8 MB of peak RSS per scan in `npm run bench`.
 *
 * A holder has the buffer to itself until it releases it. Whoever asks while it is taken
 * (two scans at once) gets a private buffer instead, so nothing is ever shared by two
 * holders. Only a weak reference is kept between scans: an idle extension keeps nothing.
 */
export const SCRATCH_BYTES = 8 * 1024 * 1024;

export interface ScratchLease {
  /** At least the size asked for. Only valid until release(). */
  readonly buffer: Buffer;
  /** Gives the buffer back; safe to call more than once. */
  release(): void;
}

let spare: WeakRef<Buffer> | undefined;
let taken = false;

export function takeScratch(minBytes: number): ScratchLease {
  const want = Math.max(1, Math.ceil(minBytes));
  if (taken) return { buffer: Buffer.allocUnsafeSlow(want), release: () => undefined };
  let buffer = spare?.deref();
  if (!buffer || buffer.length < want) {
    buffer = Buffer.allocUnsafeSlow(Math.max(want, SCRATCH_BYTES));
    spare = new WeakRef(buffer);
  }
  taken = true;
  let released = false;
  return {
    buffer,
    release: () => {
      if (released) return;
      released = true;
      taken = false;
    },
  };
}

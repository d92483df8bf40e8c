/** Lets other callbacks (I/O, timers, the editor's messages) run before going on. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((r) => setImmediate(r));
}

/**
 * Maps a long list without holding the event loop: after every `sliceMs` of work it lets
 * other callbacks run. Fifty thousand findings converted at once held the extension host
 * for over 100 ms, long enough to drop keystrokes. Slices are short because a garbage
 * collection of a heap that holds that many findings can add ~40 ms to whichever slice it
 * falls in.
 */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T) => R, sliceMs = 5): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let n = 0;
  await forEachInSlices(items, (item) => { out[n++] = fn(item); }, sliceMs);
  return out;
}

/** Runs `fn` on each item the same way, for passes that keep nothing per item. */
export async function forEachInSlices<T>(items: readonly T[], fn: (item: T) => void, sliceMs = 5): Promise<void> {
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    // Checking the clock costs more than most items: look every 64.
    if ((i & 63) === 0 && performance.now() - sliceStart > sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
    fn(items[i]!);
  }
}

/**
 * Runs work written as a generator (it yields between small steps) to its end without
 * holding the event loop longer than `sliceMs` at a time; its return value. The clock is
 * looked at every `lookEvery` steps, as it can cost more than a step.
 */
export async function runInSlices<R>(steps: Generator<void, R>, sliceMs = 5, lookEvery = 1): Promise<R> {
  let sliceStart = performance.now();
  for (let n = 1; ; n++) {
    const step = steps.next();
    if (step.done) return step.value;
    if (n % lookEvery === 0 && performance.now() - sliceStart > sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

/** The same work at once, for a caller that cannot wait. */
export function runAtOnce<R>(steps: Generator<void, R>): R {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

// Scan on save: saved files are gathered per folder and sent as one partial scan after a
// quiet moment. Never two scans at once: a save while a scan runs waits for the next one.
// Within the request budget: scans start at least `minIntervalMs` apart, and a `429` pauses
// the queue until the service's Retry-After (or a minute) has passed, keeping the files.
import { errorMessage } from '../errors';
import type { ScanSummary } from './endWords';

/** How one scan of saved files ended. */
export type SaveScanResult =
  /** `summary`: how the scan ended, when one ran (cancelled, or a folder's lists unread, say so). */
  | { kind: 'done'; summary?: ScanSummary }
  /** Another scan was running (one the user started): these files go with the next one. */
  | { kind: 'busy' }
  | { kind: 'limited'; retryAfterMs?: number }
  /** Any other failure: the files wait for the next save (no retry loop against a failing service). */
  | { kind: 'failed'; message: string };

export type SaveQueueState =
  | { kind: 'idle' }
  | { kind: 'waiting'; files: number; at: number }
  | { kind: 'scanning'; files: number }
  | { kind: 'paused'; files: number; until: number }
  | { kind: 'failed'; files: number; message: string };

export interface SaveQueueClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SaveQueueOptions {
  /** How long after the last save the scan starts. */
  quietMs: number;
  /** Least time between the starts of two scans. */
  minIntervalMs: number;
  /** Scans the saved files: folder -> relative paths. */
  run(files: ReadonlyMap<string, ReadonlySet<string>>): Promise<SaveScanResult>;
  onState?(state: SaveQueueState): void;
  clock?: SaveQueueClock;
}

/** A 429 without Retry-After pauses this long. */
export const DEFAULT_PAUSE_MS = 60_000;
/** Another scan running: look again this much later. */
const BUSY_RETRY_MS = 5_000;

const systemClock: SaveQueueClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export class SaveQueue {
  private pending = new Map<string, Set<string>>();
  private timer: unknown;
  private running = false;
  private lastStart = -Infinity;
  private pausedUntil = 0;
  private failure: string | undefined;
  private disposed = false;
  private current: SaveQueueState = { kind: 'idle' };
  private readonly clock: SaveQueueClock;

  constructor(private readonly o: SaveQueueOptions) {
    this.clock = o.clock ?? systemClock;
  }

  get state(): SaveQueueState {
    return this.current;
  }

  private count(): number {
    let n = 0;
    for (const files of this.pending.values()) n += files.size;
    return n;
  }

  private setState(s: SaveQueueState): void {
    this.current = s;
    this.o.onState?.(s);
  }

  /** A file was saved. */
  add(folderUri: string, relPath: string): void {
    if (this.disposed) return;
    let files = this.pending.get(folderUri);
    if (!files) this.pending.set(folderUri, (files = new Set()));
    files.add(relPath);
    this.failure = undefined;
    if (this.running) return; // taken up when the running scan ends
    this.schedule(this.clock.now() + this.o.quietMs);
  }

  /** Forgets the saved files not scanned yet (the setting was turned off, results cleared). */
  clear(): void {
    this.pending.clear();
    this.failure = undefined;
    this.cancelTimer();
    if (!this.running) this.setState({ kind: 'idle' });
  }

  dispose(): void {
    this.disposed = true;
    this.pending.clear();
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Starts the next scan at `earliest`, or later when the interval or a pause says so. */
  private schedule(earliest: number): void {
    this.cancelTimer();
    if (!this.pending.size) {
      this.setState(this.failure ? { kind: 'failed', files: 0, message: this.failure } : { kind: 'idle' });
      return;
    }
    const at = Math.max(earliest, this.lastStart + this.o.minIntervalMs, this.pausedUntil);
    const paused = this.pausedUntil > this.clock.now() && at === this.pausedUntil;
    this.setState(paused ? { kind: 'paused', files: this.count(), until: at } : { kind: 'waiting', files: this.count(), at });
    this.timer = this.clock.setTimeout(() => { this.timer = undefined; void this.fire(); }, Math.max(0, at - this.clock.now()));
  }

  private giveBack(files: Map<string, Set<string>>): void {
    for (const [folder, paths] of files) {
      let into = this.pending.get(folder);
      if (!into) this.pending.set(folder, (into = new Set()));
      for (const p of paths) into.add(p);
    }
  }

  private async fire(): Promise<void> {
    if (this.disposed || this.running || !this.pending.size) return;
    const files = this.pending;
    this.pending = new Map();
    this.running = true;
    this.lastStart = this.clock.now();
    let n = 0;
    for (const f of files.values()) n += f.size;
    this.setState({ kind: 'scanning', files: n });
    let result: SaveScanResult;
    try {
      result = await this.o.run(files);
    } catch (err) {
      result = { kind: 'failed', message: errorMessage(err) };
    }
    this.running = false;
    if (this.disposed) return;
    const now = this.clock.now();
    switch (result.kind) {
      case 'done':
        this.schedule(now + this.o.quietMs);
        return;
      case 'busy':
        this.giveBack(files);
        this.lastStart = -Infinity; // nothing was sent
        this.schedule(now + BUSY_RETRY_MS);
        return;
      case 'limited':
        this.giveBack(files);
        this.pausedUntil = now + (result.retryAfterMs ?? DEFAULT_PAUSE_MS);
        this.schedule(now);
        return;
      case 'failed':
        // Kept for the next save, which tries again with them; no retry loop of our own.
        this.giveBack(files);
        this.failure = result.message;
        this.cancelTimer();
        this.setState({ kind: 'failed', files: this.count(), message: result.message });
        return;
    }
  }
}

// One run of a transfer: from the offset the service holds, chunk after chunk until it
// answers with a scan id, asking for the offset again whenever in doubt, within one budget
// of attempts, requests and bytes. Stops resumable (UploadInterruptedError) when the network
// or the service gives up, never with the transfer forgotten unless the service refused it.
import { Readable } from 'node:stream';
import { ServiceError, TransferCookies, isRetryable, type ServiceClient } from '../api';
import { errorMessage } from '../errors';
import { formatBytes } from '../text/bytes';
import { ChunkReader } from './chunkReader';
import type { UploadOptions, UploadOutcome } from './engine';
import { DEFAULT_MAX_RETRIES, waitBeforeRetry } from './retryWait';
import type { SavedTransfer } from './transferStore';
import { l10n, plural } from '../text/l10n';

/**
 * A transfer may send at most this many times the archive's bytes (plus one chunk), and
 * make at most this many requests per chunk of the archive (plus a margin): a service that
 * keeps rewinding the offset (409) or accepts a byte at a time cannot keep an upload going
 * for ever. A healthy upload sends each byte once, and a few retries fit well within.
 */
export const MAX_BYTES_FACTOR = 4;
export const MAX_REQUESTS_PER_CHUNK = 4;
const REQUEST_MARGIN = 32;
/**
 * Bytes an upload told to hold its last ones (UploadOptions.holdLast) keeps back while it
 * waits: one request's worth of work for the service when it is let go, and the whole
 * archive but these already there.
 */
export const HELD_BYTES = 64 * 1024;

/** The upload stopped but the service keeps what it received: `resumeUpload` continues it. */
export class UploadInterruptedError extends Error {
  readonly resumable = true as const;
  constructor(
    message: string,
    readonly transferId: string,
    readonly sentBytes: number,
    readonly totalBytes: number,
    readonly cancelled: boolean,
    options?: { cause?: unknown; lastChunkInFlight?: boolean },
  ) {
    super(message, options);
    this.name = 'UploadInterruptedError';
    this.lastChunkInFlight = options?.lastChunkInFlight === true;
  }

  /**
   * The request carrying the archive's last bytes was under way when the upload stopped:
   * the service may have received it all and be scanning it, without us knowing its id.
   */
  readonly lastChunkInFlight: boolean;
}

export function serviceOrigin(client: ServiceClient): string {
  return new URL(client.baseUrl).origin;
}

/**
 * The cookies of a saved transfer, for the service it was started with. A transfer saved for
 * another origin (the service address changed since) takes none of them there.
 */
export function cookiesOf(client: ServiceClient, t: SavedTransfer): TransferCookies {
  const origin = serviceOrigin(client);
  return new TransferCookies(origin, t.origin === origin ? t.cookies : []);
}

type RunOptions = Omit<UploadOptions, 'archive' | 'fields'>;

export class TransferRun {
  private t: SavedTransfer;
  private cookies: TransferCookies;
  private readonly total: number;
  private readonly maxRetries: number;
  private readonly startedAt = Date.now();
  /** Where the service was when this run first learned it: the rate counts this session's bytes. */
  private sessionStartOffset: number | undefined;
  private lastProgressAt = 0;
  private offset: number;
  /** Consecutive failed attempts since the last byte of progress. */
  private failures = 0;
  /** The service forgot the transfer once and it was started again; a second time is the end. */
  private restarted = false;
  /** When in doubt, ask the service. */
  private needOffset: boolean;
  private lastChunkInFlight = false;
  /** This run's budget (a resume gets a fresh one). */
  private readonly maxBytes: number;
  private readonly maxRequests: number;
  private bytesSent = 0;
  private requests = 0;
  private held: Promise<void> | undefined;
  private holdOver = false;

  /** `restart`: a new transfer of the same archive, saved, for a service that no longer knows this one. */
  constructor(
    private readonly opts: RunOptions,
    initial: SavedTransfer,
    private readonly chunkSize: number,
    knownOffset: number | undefined,
    private readonly restart: (t: SavedTransfer) => Promise<SavedTransfer>,
  ) {
    this.t = initial;
    this.cookies = cookiesOf(opts.client, initial);
    this.total = initial.size;
    this.maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.offset = knownOffset ?? 0;
    this.needOffset = knownOffset === undefined;
    this.maxBytes = MAX_BYTES_FACTOR * this.total + chunkSize;
    this.maxRequests = MAX_REQUESTS_PER_CHUNK * Math.ceil(this.total / chunkSize) + REQUEST_MARGIN;
  }

  async run(): Promise<UploadOutcome> {
    const { signal } = this.opts;
    if (!this.needOffset) {
      this.spend(0); // the offset read that opened the transfer
      this.sessionStartOffset = this.offset;
      this.progress(this.offset, true);
    }
    this.held = this.opts.holdLast;
    this.held?.then(() => { this.holdOver = true; }, () => { this.holdOver = true; });
    const chunks = new ChunkReader(this.t.archivePath, Math.min(this.chunkSize, this.total));
    try {
      for (;;) {
        if (signal?.aborted) throw this.interrupted(signal.reason);
        try {
          const outcome = await this.step(chunks);
          if (outcome) return outcome;
        } catch (e) {
          await this.recover(e, chunks);
        }
      }
    } finally {
      await chunks.close();
    }
  }

  /** The offset when in doubt, then the next chunk; the outcome once the service has the whole archive. */
  private async step(chunks: ChunkReader): Promise<UploadOutcome | undefined> {
    const { client, signal, store } = this.opts;
    const total = this.total;
    if (this.needOffset) await this.readOffset();
    let len = Math.min(this.chunkSize, total - this.offset);
    const chunkStart = this.offset;
    if (this.held && len > 0 && chunkStart + len === total) {
      // All but the last bytes while the hold lasts; those once it is over.
      if (!this.holdOver && len > HELD_BYTES) len -= HELD_BYTES;
      else {
        await this.held;
        this.held = undefined;
      }
    }
    this.spend(len);
    this.lastChunkInFlight = chunkStart + len === total;
    // A slice is counted when the request takes the next one; once the request is over,
    // a late count (a stream read ahead, then let go) would put the progress back.
    let live = true;
    const result = await client.sendChunk(this.t.transferId, {
      offset: chunkStart,
      totalLength: total,
      archiveName: this.t.archiveName,
      bodyLength: len,
      fields: this.t.fields,
      signal,
      cookies: this.cookies,
      // A factory, so a retried request streams the chunk again from the start. An empty
      // chunk (everything is on the service, only the final answer was lost) asks the
      // service for the transfer's outcome. Object mode: a byte-mode Readable hands its
      // consumer all it has buffered as one concatenated copy (tens of megabytes of
      // ArrayBuffers per upload); in object mode each slice goes out as the view it is.
      body: len === 0 ? Buffer.alloc(0) : () => Readable.from(chunks.slices(chunkStart, len, (sent) => { if (live) this.progress(chunkStart + sent); }), { objectMode: true }),
    }).finally(() => { live = false; });
    this.lastChunkInFlight = false;
    if (result.kind === 'continue') await this.keepCookies();
    if (result.kind === 'complete') {
      this.progress(total, true);
      await store.clear();
      return { kind: 'complete', scanId: result.scanId, ...(result.projectId !== undefined ? { projectId: result.projectId } : {}) };
    }
    if (result.kind === 'in-progress') {
      // The service already runs a scan for this transfer; there is nothing left to send.
      await store.clear();
      return { kind: 'in-progress', message: result.message };
    }
    if (result.nextOffset > chunkStart && result.nextOffset <= total) {
      this.offset = result.nextOffset;
      this.failures = 0;
      this.progress(this.offset, true);
    } else {
      this.needOffset = true; // an offset that does not move forward: ask again
      if (++this.failures > this.maxRetries) throw this.interrupted(new Error(l10n.t('the service answered with offset {0} after a chunk at {1}', result.nextOffset, chunkStart)));
    }
    return undefined;
  }

  private async readOffset(): Promise<void> {
    this.spend(0);
    // The run's loop retries and counts (one budget): the request itself is tried once.
    this.offset = await this.opts.client.readOffset(this.t.transferId, { signal: this.opts.signal, cookies: this.cookies, retries: 0 });
    await this.keepCookies();
    this.needOffset = false;
    if (this.offset > this.total) {
      // The service holds more than this archive has: it is not our transfer any more.
      throw new ServiceError({ kind: 'not-found', operation: 'readOffset', message: l10n.t('The service holds {0} bytes for an archive of {1} bytes.', this.offset, this.total) });
    }
    this.sessionStartOffset ??= this.offset;
    this.progress(this.offset, true);
  }

  /** After a failed step: returns to go on (from the offset the service holds), or throws what ends the run. */
  private async recover(e: unknown, chunks: ChunkReader): Promise<void> {
    const { signal, store } = this.opts;
    if (e instanceof UploadInterruptedError) throw e;
    // The archive could not be read: the request failed for it, not for the network.
    if (chunks.failure) throw chunks.failure;
    if (signal?.aborted) throw this.interrupted(e);
    if (!(e instanceof ServiceError)) throw e; // local trouble: not the network's fault
    if (e.kind === 'conflict') {
      // 409: the service holds another offset; continue from there (or ask, if not said).
      if (++this.failures > this.maxRetries) throw this.interrupted(e);
      if (e.serverOffset !== undefined && e.serverOffset <= this.total) this.offset = e.serverOffset;
      else this.needOffset = true;
      return;
    }
    if (e.kind === 'not-found' && !this.restarted) {
      // The service no longer knows the transfer (expired or lost): start over once.
      this.restarted = true;
      this.t = await this.restart(this.t);
      this.cookies = cookiesOf(this.opts.client, this.t);
      this.sessionStartOffset = undefined;
      this.needOffset = true;
      return;
    }
    // A garbled answer to a PATCH leaves us in doubt whether the chunk was stored: ask.
    if (isRetryable(e) || (e.kind === 'bad-response' && e.operation === 'sendChunk')) {
      if (++this.failures > this.maxRetries) throw this.interrupted(e);
      try {
        await waitBeforeRetry(this.opts, e, this.failures);
      } catch (waitErr) {
        throw this.interrupted(signal?.aborted ? waitErr : e);
      }
      this.needOffset = true;
      return;
    }
    if (e.kind === 'bad-request' || e.kind === 'unprocessable' || e.kind === 'validation') {
      // The service refuses this transfer's values; resuming would be refused again.
      await store.clear();
    }
    throw e;
  }

  /** Keeps cookies the service set or changed with the saved transfer, so a resume after a reload sends them. */
  private async keepCookies(): Promise<void> {
    const now = this.cookies.toJSON();
    if (JSON.stringify(now) === JSON.stringify(this.t.cookies ?? [])) return;
    this.t = { ...this.t, origin: this.cookies.origin, cookies: now };
    await this.opts.store.save(this.t);
  }

  private progress(sentBytes: number, force = false): void {
    const onProgress = this.opts.onProgress;
    if (!onProgress) return;
    const now = Date.now();
    if (!force && now - this.lastProgressAt < 100) return;
    this.lastProgressAt = now;
    const elapsed = (now - this.startedAt) / 1000;
    const sessionBytes = Math.max(0, sentBytes - (this.sessionStartOffset ?? sentBytes));
    onProgress({ sentBytes, totalBytes: this.total, bytesPerSecond: elapsed > 0 ? Math.round(sessionBytes / elapsed) : 0 });
  }

  /** Counts a request of `bytes` against the run's budget; past it, the run stops. */
  private spend(bytes: number): void {
    this.requests += 1;
    this.bytesSent += bytes;
    if (this.requests > this.maxRequests || this.bytesSent > this.maxBytes) {
      throw this.interrupted(new Error(
        l10n.t('the service kept asking for data again: {0} requests and {1} bytes sent for an archive of {2} bytes. The upload was stopped; try again later', this.requests, this.bytesSent, this.total),
      ));
    }
  }

  private interrupted(e: unknown): UploadInterruptedError {
    const cancelled = !!this.opts.signal?.aborted;
    const reason = errorMessage(e);
    const { failures, offset, total } = this;
    const why = cancelled ? l10n.t('was cancelled')
      : failures === 0 ? l10n.t('stopped ({0})', reason)
        : l10n.t('stopped after {0} ({1})', plural(failures, l10n.t('{0} failed attempt'), l10n.t('{0} failed attempts')), reason);
    const held = offset > 0
      ? l10n.t('with {0} of {1} on the service. It can be resumed: the service keeps what it received.', formatBytes(offset), formatBytes(total))
      : l10n.t('before the service received any of its {0}. It can be resumed from the start.', formatBytes(total));
    return new UploadInterruptedError(l10n.t('The upload {0} {1}', why, held), this.t.transferId, offset, total, cancelled, { cause: e, lastChunkInFlight: this.lastChunkInFlight });
  }
}

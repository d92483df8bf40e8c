// One HTTP exchange with the service over undici: auth and identification headers,
// per-request timeout, cancellation, JSON decoding, mapping failures onto ServiceError,
// bounded retries of idempotent requests, and the request log. Nothing here ever puts
// the token into a message, a log entry or a URL.

import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { environmentNetwork, ProxyTunnelError, type Network, type Route } from '../network';
import { backoffDelay, sleep } from '../async';
import { authHeaders, CLIENT_SOURCE, CLIENT_SOURCE_HEADER, type KeyHeaders } from './auth';
import { errorForStatus, operationLabel, redact, ServiceError, isRetryable, ClientValidationError } from './errors';
import type { CookieJar } from './cookies';
import { MultipartLengthError, type MultipartBody } from './multipart';
import { l10n } from '../text/l10n';

export interface RequestLogEntry {
  method: string;
  /** Path below the base URL, without query string. */
  path: string;
  status?: number;
  durationMs: number;
  error?: string;
}

export interface TransportOptions {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  userAgent: string;
  logger?: (e: RequestLogEntry) => void;
  /** Extra attempts for idempotent requests after 429/5xx/network/timeout. */
  maxRetries: number;
  retryBaseDelayMs: number;
  /** A 429 asking for a longer wait than this is reported instead of waited out. */
  maxRetryWaitMs: number;
  /** Proxies and certificate trust; the environment's variables when not given. */
  network?: Network;
  /** Answers bigger than this fail as bad responses. Default MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
  /** Called with the text of each `Warning: 299` header (the service deprecating something). */
  onServiceWarning?: (text: string) => void;
  /** Which headers carry an API key (default both). */
  keyHeaders?: KeyHeaders;
}

/**
 * The texts of `299` warnings (RFC 7234: `299 <agent> "<text>" [date]`, several per header
 * or several headers). A warning without a quoted text is given whole.
 */
export function deprecationWarnings(header: string | string[] | undefined): string[] {
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const out: string[] = [];
  for (const value of values) {
    for (const m of value.matchAll(/(?:^|,)\s*299\s+(?:\S+\s+)?(?:"((?:[^"\\]|\\.)*)"|([^,]*))/g)) {
      const text = (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1').trim();
      if (text) out.push(text.slice(0, 500));
    }
  }
  return out;
}

/** A request about to be tried again: which retry this is, of how many, after how long, and why. */
export interface RetryNotice {
  attempt: number;
  of: number;
  delayMs: number;
  /** What failed, in words (the error's kind: "the connection failed", "the service answered 503"). */
  reason: string;
}

/** A short reason for a retry, for a progress line: never the server's text. */
export function retryReason(err: unknown): string {
  if (!(err instanceof ServiceError)) return l10n.t('the request failed');
  switch (err.kind) {
    case 'network': return l10n.t('connection lost');
    case 'timeout': return l10n.t('the service did not answer in time');
    case 'rate-limited': return l10n.t('the service asked to slow down');
    case 'server': return l10n.t('the service answered {0}', err.status ?? l10n.t('with an error'));
    default: return l10n.t('the request failed');
  }
}

export interface Call {
  operation: string;
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH';
  /** Path below the base URL, ids already encoded. */
  path: string;
  /** Path template used in messages, e.g. `GET /scan/{scan_id}/issues/quality`. */
  endpoint: string;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  json?: unknown;
  /** Raw body (for tests of the server's invalid-JSON handling). */
  rawBody?: { contentType: string; data: string | Buffer };
  multipart?: MultipartBody;
  signal?: AbortSignal;
  idempotent?: boolean;
  /** Values besides the token that must never show up in messages (e.g. a new secure_token). */
  secrets?: string[];
  /** Told before each retry of an idempotent request, so a caller can show it. */
  onRetry?: (r: RetryNotice) => void;
  /** Retries of this request, in place of the client's: 0 where the caller's own loop retries (one budget, one count). */
  retries?: number;
  /** The first backoff of those retries, in place of the client's (a caller's own, faster retry setting). */
  retryBaseDelayMs?: number;
  /** The cookies of the upload transfer this request belongs to (sent, and updated from the answer). */
  cookies?: CookieJar;
  /** A path from the origin instead of below the base URL (`/api/version`), sent without credentials. */
  outsideBase?: boolean;
  /** Error statuses whose JSON body is an answer the caller reads (a 400 that names what it refused). */
  answers?: readonly number[];
}

export interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  /** Decoded JSON body; undefined for HEAD or an empty body. */
  body: unknown;
  /** Size of the body as received, in bytes (0 for HEAD). */
  bytes?: number;
}

function firstHeader(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_UNTRUSTED', 'CERT_REVOKED', 'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_SIGNATURE_FAILURE', 'HOSTNAME_MISMATCH',
]);

function errorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_CONNECT' && e.code !== 'UND_ERR_ABORTED') return e.code;
  }
  return undefined;
}

function proxyError(err: unknown): ProxyTunnelError | undefined {
  for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e instanceof ProxyTunnelError) return e;
  }
  return undefined;
}

/** What went wrong on the way, in words, with the setting that helps; never the request's text. */
function networkDetail(err: unknown, host: string, route: Route | undefined): string {
  const via = route && !route.direct ? l10n.t('the proxy {0} (from {1})', route.proxy, route.from) : undefined;
  const tunnel = proxyError(err);
  if (tunnel?.statusCode === 407) {
    // Credentials were sent and refused, or none were there: each has its own remedy.
    return route?.authenticates
      ? l10n.t('{0} refused the credentials it was given (407). Check the user name and password in the proxy address or in "http.proxyAuthorization"', via)
      : l10n.t('{0} asked for credentials (407). Put them in the proxy address (http://user:password@host:port) or in "http.proxyAuthorization"', via);
  }
  if (tunnel?.statusCode !== undefined) return l10n.t('{0} refused to connect to {1} ({2})', via, host, tunnel.statusCode);
  if (tunnel) return l10n.t('{0} closed the connection before it reached {1}', via, host);
  const code = errorCode(err);
  if (code && TLS_CODES.has(code)) {
    return l10n.t('the TLS certificate of {0} was not accepted ({1}). If your network inspects TLS with its own certificate authority, trust that authority in the system\'s certificate store (with "http.systemCertificates" on) or name its file in NODE_EXTRA_CA_CERTS; "http.proxyStrictSSL": false turns checking off, which is not recommended', host, code);
  }
  if (code === 'UND_ERR_PRX_TLS') return l10n.t('the TLS certificate of {0} was not accepted', via);
  const where = via ?? host;
  switch (code) {
    case 'ECONNREFUSED':
      return l10n.t('{0} refused the connection', where);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return via ? l10n.t('{0} could not be found (host name not resolved)', via) : l10n.t('the host name {0} could not be resolved', host);
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return l10n.t('the connection {0}was closed unexpectedly', via ? l10n.t('through {0} ', via) : '');
    case 'UND_ERR_CONNECT_TIMEOUT':
      return l10n.t('connecting to {0} took too long', where);
    default:
      return code ? l10n.t('network error {0}{1}', code, via ? l10n.t(' through {0}', via) : '') : l10n.t('network error{0}', via ? l10n.t(' through {0}', via) : '');
  }
}

/** How long undici gets to end a request by itself after an abort before it is given up on. */
const ABORT_GRACE_MS = 250;

/**
 * Rejects a little after `signal` aborts: a request ends by its deadline whatever the
 * connection does (a proxy that stalls the tunnel, a library deaf to the abort). The
 * exchange left behind is kept from raising an unhandled rejection.
 */
function deadline(signal: AbortSignal, exchange: Promise<unknown>): Promise<never> {
  return new Promise<never>((_, reject) => {
    const give = () => {
      setTimeout(() => {
        exchange.catch(() => undefined);
        reject(new Error(l10n.t('the request did not end after it was aborted')));
      }, ABORT_GRACE_MS).unref();
    };
    if (signal.aborted) give();
    else signal.addEventListener('abort', give, { once: true });
    exchange.then(() => signal.removeEventListener('abort', give), () => signal.removeEventListener('abort', give));
  });
}

/** Largest answer read: a page of 50 findings with their diffs is well below 1 MB. */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(l10n.t('response larger than {0} bytes', limit));
  }
}

/** The body as text, failing as soon as it passes `limit` bytes (the rest is never read). */
async function readCapped(res: Dispatcher.ResponseData, limit: number): Promise<string> {
  const declared = Number(firstHeader(res.headers['content-length']));
  if (Number.isFinite(declared) && declared > limit) {
    res.body.destroy();
    throw new ResponseTooLargeError(limit);
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      res.body.destroy();
      throw new ResponseTooLargeError(limit);
    }
    parts.push(buf);
  }
  return Buffer.concat(parts, size).toString('utf8');
}

export class Transport {
  readonly origin: string;
  private readonly basePath: string;
  private readonly fixedHeaders: Record<string, string>;
  private readonly anonymousHeaders: Record<string, string>;
  private readonly tokenProblem?: string;

  constructor(private readonly opts: TransportOptions) {
    const u = new URL(opts.baseUrl);
    this.origin = u.origin;
    this.basePath = u.pathname.replace(/\/+$/, '');
    // Header values cannot carry control characters; say so instead of letting undici throw.
    // eslint-disable-next-line no-control-regex
    this.tokenProblem = /[\x00-\x1f\x7f]/.test(opts.token)
      ? l10n.t('The API key contains line breaks or control characters. Copy it again from Settings > API Keys and sign in again.')
      : undefined;
    this.anonymousHeaders = { accept: 'application/json', 'user-agent': opts.userAgent, [CLIENT_SOURCE_HEADER]: CLIENT_SOURCE };
    this.fixedHeaders = { ...this.anonymousHeaders, ...(this.tokenProblem ? {} : authHeaders(opts.token, opts.keyHeaders)) };
  }

  /**
   * Runs the call, retrying idempotent ones a bounded number of times. `decode` turns the
   * answer into the result inside the exchange, so its failures are logged with it.
   */
  async send<T = Answer>(call: Call, decode: (a: Answer) => T = (a) => a as T): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(call, decode);
      } catch (err) {
        const retries = call.retries ?? this.opts.maxRetries;
        if (!call.idempotent || attempt >= retries || !isRetryable(err)) throw err;
        const e = err as ServiceError;
        let wait = backoffDelay(attempt + 1, call.retryBaseDelayMs ?? this.opts.retryBaseDelayMs);
        if (e.kind === 'rate-limited' && e.retryAfterMs !== undefined) {
          if (e.retryAfterMs > this.opts.maxRetryWaitMs) throw err;
          wait = Math.max(wait, e.retryAfterMs);
        }
        try {
          call.onRetry?.({ attempt: attempt + 1, of: retries, delayMs: wait, reason: retryReason(err) });
        } catch {
          // A failing listener must not break the request.
        }
        try {
          await sleep(wait, call.signal);
        } catch {
          throw this.abortedError(call);
        }
      }
    }
  }

  private abortedError(call: Call): ServiceError {
    const what = operationLabel(call.operation);
    return new ServiceError({ kind: 'aborted', operation: call.operation, message: l10n.t('Cancelled {0}.', what) });
  }

  private secrets(call: Call): string[] {
    return [this.opts.token, ...(call.secrets ?? []), ...(call.cookies?.secrets() ?? [])].filter((s) => s.length > 0);
  }

  private async once<T>(call: Call, decode: (a: Answer) => T): Promise<T> {
    if (this.tokenProblem && !call.outsideBase) throw new ClientValidationError(call.operation, this.tokenProblem);
    if (call.signal?.aborted) throw this.abortedError(call);

    const url = new URL(this.origin + (call.outsideBase ? '' : this.basePath) + call.path);
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);

    const headers: Record<string, string> = { ...(call.outsideBase ? this.anonymousHeaders : this.fixedHeaders), ...call.headers };
    const cookie = call.cookies?.header(url);
    if (cookie) headers.cookie = cookie;
    let body: string | Buffer | Readable | undefined;
    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    // The timeout is an inactivity limit: every piece of an upload body that goes out
    // restarts it, so a large chunk on a slow link is not cut off while it progresses.
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.opts.timeoutMs);
    };
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    } else if (call.rawBody) {
      body = call.rawBody.data;
      headers['content-type'] = call.rawBody.contentType;
    } else if (call.multipart) {
      body = Readable.from(call.multipart.stream(() => arm()), { objectMode: false });
      headers['content-type'] = call.multipart.contentType;
      headers['content-length'] = String(call.multipart.length);
    }
    const onUserAbort = () => controller.abort();
    call.signal?.addEventListener('abort', onUserAbort, { once: true });

    const started = performance.now();
    let status: number | undefined;
    const log = (error?: ServiceError) => {
      if (!this.opts.logger) return;
      const entry: RequestLogEntry = { method: call.method, path: this.basePath + call.path, durationMs: Math.round(performance.now() - started) };
      if (status !== undefined) entry.status = status;
      if (error) entry.error = `${error.kind}: ${error.message}`;
      try {
        this.opts.logger(entry);
      } catch {
        // A failing logger must not break the request.
      }
    };

    arm();
    const network = this.opts.network ?? environmentNetwork();
    let route: Route | undefined;
    try {
      route = network.route(url);
      const dispatcher = await network.dispatcherFor(url);
      let res: Dispatcher.ResponseData;
      let text: string;
      try {
        const exchange = (async () => {
          // The dispatcher's own request (undici's documented Dispatcher API): the extension
          // ships only the parts of undici it uses (esbuild.mjs), not its top-level helpers.
          const r = await dispatcher.request({
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method: call.method,
            headers,
            body,
            signal: controller.signal,
            // Our own timer covers the whole exchange; undici's would only cut in later.
            headersTimeout: 0,
            bodyTimeout: 0,
          });
          status = r.statusCode;
          return { r, t: call.method === 'HEAD' ? '' : await readCapped(r, this.opts.maxResponseBytes ?? MAX_RESPONSE_BYTES) };
        })();
        ({ r: res, t: text } = await Promise.race([exchange, deadline(controller.signal, exchange)]));
        status = res.statusCode;
      } catch (err) {
        if (err instanceof ResponseTooLargeError) {
          throw new ServiceError({
            kind: 'bad-response',
            operation: call.operation,
            status,
            message: l10n.t('{0} answered with more than {1} MB; reading stopped there. The service URL may point at something other than the scanning service, or a proxy answered instead.', call.endpoint, Math.round(err.limit / (1024 * 1024))),
          });
        }
        throw this.transportError(call, err, timedOut, call.signal?.aborted === true, url, route);
      }

      const resHeaders: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(res.headers)) resHeaders[k.toLowerCase()] = firstHeader(v);
      if (call.cookies) {
        const set = res.headers['set-cookie'];
        call.cookies.take(url, set === undefined ? [] : Array.isArray(set) ? set : [set]);
      }
      if (this.opts.onServiceWarning) {
        for (const text of deprecationWarnings(res.headers.warning)) {
          try {
            this.opts.onServiceWarning(redact(text, this.secrets(call)));
          } catch {
            // A failing listener must not break the request.
          }
        }
      }

      let parsed: unknown;
      let malformed = false;
      if (text.trim() !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          malformed = true;
        }
      }

      if ((status < 200 || status >= 300) && !(call.answers?.includes(status) && parsed !== undefined)) {
        // decisions.md: `error` (the spec), else `message`, else `detail`.
        const raw = parsed as { error?: unknown; detail?: unknown; message?: unknown } | undefined;
        const said = [raw?.error, raw?.message, raw?.detail].find((x): x is string => typeof x === 'string' && x.trim() !== '');
        const serverMessage = said === undefined ? undefined : redact(said.trim(), this.secrets(call)).slice(0, 500);
        throw errorForStatus({
          operation: call.operation,
          status,
          serverMessage,
          retryAfterHeader: resHeaders['retry-after'],
          uploadOffsetHeader: resHeaders['upload-offset'],
        });
      }
      if (malformed) {
        throw new ServiceError({
          kind: 'bad-response',
          operation: call.operation,
          status,
          message: l10n.t('{0} returned an unexpected response: the body is not valid JSON. The service may be misconfigured or a proxy answered instead; check the service URL.', call.endpoint),
        });
      }
      const result = decode({ status, headers: resHeaders, body: parsed, bytes: Buffer.byteLength(text) });
      log();
      return result;
    } catch (err) {
      const e =
        err instanceof ServiceError
          ? err
          : new ServiceError({ kind: 'network', operation: call.operation, message: l10n.t('Request failed while {0}.', operationLabel(call.operation)) });
      log(e);
      throw e;
    } finally {
      if (timer) clearTimeout(timer);
      call.signal?.removeEventListener('abort', onUserAbort);
      // After a cancel, timeout or reset the body's file stream may still be open.
      if (call.multipart) await call.multipart.release();
    }
  }

  private transportError(call: Call, err: unknown, timedOut: boolean, userAborted: boolean, url: URL, route: Route | undefined): ServiceError {
    const op = call.operation;
    const what = operationLabel(op);
    if (userAborted) return this.abortedError(call);
    if (timedOut) {
      return new ServiceError({
        kind: 'timeout',
        operation: op,
        message: l10n.t('The service did not answer within {0} s while {1}. Check your connection and try again.', Math.round(this.opts.timeoutMs / 1000), what),
      });
    }
    if (err instanceof MultipartLengthError) {
      return new ClientValidationError(op, l10n.t('The archive changed while it was being uploaded ({0}). Start the scan again.', err.message));
    }
    // Anything else is the network; the cause is named by code only, never by message,
    // so nothing from the request (headers) can leak into the text. A proxy's 407 is not a
    // lost connection: trying again sends the same credentials.
    return new ServiceError({
      kind: proxyError(err)?.statusCode === 407 ? 'proxy-auth' : 'network',
      operation: op,
      message: l10n.t('Could not reach the service at {0} while {1}: {2}. {3} your network connection and the service URL setting.', this.origin, what, redact(networkDetail(err, url.hostname, route), [...this.secrets(call), ...(this.opts.network ?? environmentNetwork()).secrets()]), route && !route.direct ? l10n.t('Check the proxy settings ("http.proxy", "http.noProxy") and') : 'Check'),
    });
  }
}

// The cookies of one upload transfer (decisions.md, affinity cookies): the service may pin a
// transfer to one of its instances with a cookie, so cookies it sets on `POST /start-scan`,
// `HEAD` or `PATCH` go back with that transfer's later requests, and nowhere else. Parsing
// is undici's (getSetCookies); this keeps them per transfer, for its origin only, with the
// cookie's path and expiry, and never more than a few small ones.
import { undici } from '../network/undici';

/** A cookie as kept with a saved transfer (JSON). */
export interface StoredCookie {
  name: string;
  value: string;
  /** The cookie's path (RFC 6265 5.2.4; the request's directory when not set). */
  path: string;
  /** When it expires (ms since the epoch); kept for the transfer's life when not set. */
  expiresAt?: number;
  /** Only over https. */
  secure?: boolean;
}

/** What a request needs of a cookie jar (the transport's side). */
export interface CookieJar {
  /** The Cookie header for a request to `url`, or undefined when none applies. */
  header(url: URL): string | undefined;
  /** Takes the Set-Cookie headers of an answer from `url`. */
  take(url: URL, setCookie: readonly string[]): void;
  /** The values held, so that no message or log ever shows one. */
  secrets(): string[];
}

/** A service that sets more is not pinning a transfer: the rest are not kept. */
const MAX_COOKIES = 10;
const MAX_COOKIE_BYTES = 4096;

/** RFC 6265 5.1.4: the default path of a request URL. */
function defaultPath(url: URL): string {
  const p = url.pathname;
  if (!p.startsWith('/')) return '/';
  const last = p.lastIndexOf('/');
  return last <= 0 ? '/' : p.slice(0, last);
}

/** RFC 6265 5.1.4: whether a request path is within a cookie's path. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}

/**
 * One transfer's cookies, for the service origin it was started with. A cookie from another
 * origin is not taken, and none is sent to another origin: a `Domain` attribute is not
 * honoured, so a cookie stays with the host that set it (stricter than a browser, on purpose).
 */
export class TransferCookies implements CookieJar {
  private cookies: StoredCookie[];

  constructor(readonly origin: string, saved: readonly StoredCookie[] = [], private readonly now: () => number = Date.now) {
    this.cookies = saved.filter((c) => typeof c?.name === 'string' && typeof c.value === 'string' && typeof c.path === 'string').slice(0, MAX_COOKIES);
  }

  private live(): StoredCookie[] {
    const now = this.now();
    this.cookies = this.cookies.filter((c) => c.expiresAt === undefined || c.expiresAt > now);
    return this.cookies;
  }

  header(url: URL): string | undefined {
    if (url.origin !== this.origin) return undefined;
    const https = url.protocol === 'https:';
    // Longer paths first (RFC 6265 5.4).
    const sent = this.live()
      .filter((c) => pathMatches(url.pathname, c.path) && (!c.secure || https))
      .sort((a, b) => b.path.length - a.path.length);
    return sent.length ? sent.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  take(url: URL, setCookie: readonly string[]): void {
    if (url.origin !== this.origin || !setCookie.length) return;
    const { Headers, getSetCookies } = undici();
    const headers = new Headers();
    for (const v of setCookie) headers.append('set-cookie', v);
    const now = this.now();
    for (const c of getSetCookies(headers)) {
      // undici gives null for a header it cannot read at all.
      if (!c?.name || c.name.length + c.value.length > MAX_COOKIE_BYTES) continue;
      // A secure cookie set over plain http is refused (RFC 6265bis 5.4).
      if (c.secure && url.protocol !== 'https:') continue;
      const path = c.path?.startsWith('/') ? c.path : defaultPath(url);
      const expiresAt = c.maxAge !== undefined ? now + c.maxAge * 1000 : c.expires !== undefined ? new Date(c.expires).getTime() : undefined;
      this.cookies = this.cookies.filter((k) => !(k.name === c.name && k.path === path));
      // An expiry in the past deletes it (how a server removes a cookie).
      if (expiresAt !== undefined && !(expiresAt > now)) continue;
      if (this.cookies.length >= MAX_COOKIES) continue;
      this.cookies.push({ name: c.name, value: c.value, path, ...(expiresAt !== undefined ? { expiresAt } : {}), ...(c.secure ? { secure: true } : {}) });
    }
  }

  /** What is kept with the saved transfer. */
  toJSON(): StoredCookie[] {
    return this.live().map((c) => ({ ...c }));
  }

  get size(): number {
    return this.live().length;
  }

  /** Their values, for redaction: a cookie never shows up in a message or a log. */
  secrets(): string[] {
    return this.cookies.map((c) => c.value).filter((v) => v.length >= 4);
  }
}

// Which proxy, if any, a request takes: the editor's `http.proxy` setting, else the
// environment's HTTPS_PROXY/HTTP_PROXY; `http.noProxy` and NO_PROXY name hosts reached
// directly; `http.proxySupport: off` turns proxies off. A loopback service is always
// reached directly: a proxy would see the token in clear text for a connection that never
// leaves the machine.
import { BlockList, isIP } from 'node:net';
import { ClientValidationError } from '../errors';
import { isLoopbackHost } from './loopback';
import { l10n } from '../text/l10n';

export type ProxySupport = 'off' | 'on' | 'override' | 'fallback';

export interface ProxySettings {
  /** `http.proxy`: empty for none. */
  proxy: string;
  /** `http.proxyAuthorization`: the Proxy-Authorization header value, empty for none. */
  proxyAuthorization: string;
  /** `http.noProxy`: hosts reached directly. */
  noProxy: readonly string[];
  /** `http.proxySupport`. */
  support: ProxySupport;
}

export type ProxyChoice =
  | { kind: 'direct'; why: 'loopback' | 'no-proxy' | 'support-off' | 'none' }
  | {
    kind: 'proxy';
    url: URL;
    /** Where the proxy came from: the setting's name or the environment variable's. */
    from: string;
    /** The Proxy-Authorization header value, from `http.proxyAuthorization` or the URL's user and password. */
    authorization?: string;
  };

const PROXY_ENV = {
  'https:': ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'],
  'http:': ['HTTP_PROXY', 'http_proxy'],
} as const;

/** A proxy address as people write it: `http://host:port`, `https://…`, or `host:port`. */
export function parseProxyUrl(raw: string, from: string): URL {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new ClientValidationError('proxy', l10n.t('The proxy address in {0} is not a valid URL. Write it as http://host:port.', from));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientValidationError('proxy', l10n.t('The proxy in {0} uses {1}//, which is not supported. Use an http:// or https:// proxy.', from, url.protocol));
  }
  if (!url.hostname) throw new ClientValidationError('proxy', l10n.t('The proxy address in {0} has no host. Write it as http://host:port.', from));
  return url;
}

/** `host:port` of a proxy: never its user name or password. */
export function proxyLabel(url: URL): string {
  return `${url.hostname.includes(':') && !url.hostname.startsWith('[') ? `[${url.hostname}]` : url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

function defaultPort(target: URL): string {
  return target.port || (target.protocol === 'https:' ? '443' : '80');
}

/** Entries of `http.noProxy` and NO_PROXY: a comma- or space-separated list. */
export function noProxyEntries(settings: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const fromEnv = (env.NO_PROXY ?? env.no_proxy ?? '').split(/[,\s]+/);
  return [...settings.flatMap((s) => String(s).split(/[,\s]+/)), ...fromEnv].map((e) => e.trim().toLowerCase()).filter(Boolean);
}

/**
 * Whether `target` is named by a no-proxy entry: `*`; a host or domain (`example.com`,
 * `.example.com` and `*.example.com` each match the domain and its subdomains); any of
 * these with `:port`; an IP address or an IPv4/IPv6 range (`10.0.0.0/8`).
 */
export function bypassesProxy(target: URL, entries: readonly string[]): boolean {
  const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = defaultPort(target);
  for (const raw of entries) {
    if (raw === '*') return true;
    let entry = raw;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1];
      entryPort = bracketed[2];
    } else if (/^[^:]+:\d+$/.test(entry)) {
      [entry, entryPort] = entry.split(':');
    }
    if (entryPort && entryPort !== port) continue;
    if (entry.includes('/')) {
      const [net, bits] = entry.split('/');
      const family = isIP(net);
      const hostFamily = isIP(host);
      if (family && family === hostFamily && /^\d+$/.test(bits)) {
        const list = new BlockList();
        try {
          list.addSubnet(net, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
        } catch {
          continue; // not a range after all
        }
        if (list.check(host, family === 6 ? 'ipv6' : 'ipv4')) return true;
      }
      continue;
    }
    const domain = entry.replace(/^\*?\./, '');
    if (domain && (host === domain || host.endsWith(`.${domain}`))) return true;
  }
  return false;
}

/** A user name or password from a URL, percent-decoded when it can be. */
export function decodeCredential(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function chooseProxy(target: URL, s: ProxySettings, env: NodeJS.ProcessEnv): ProxyChoice {
  if (isLoopbackHost(target.hostname)) return { kind: 'direct', why: 'loopback' };
  if (s.support === 'off') return { kind: 'direct', why: 'support-off' };
  let raw = s.proxy.trim();
  let from = l10n.t('the setting "http.proxy"');
  if (!raw) {
    const name = (PROXY_ENV[target.protocol as 'https:' | 'http:'] ?? []).find((k) => (env[k] ?? '').trim() !== '');
    if (!name) return { kind: 'direct', why: 'none' };
    raw = env[name]!;
    from = l10n.t('the environment variable {0}', name);
  }
  if (bypassesProxy(target, noProxyEntries(s.noProxy, env))) return { kind: 'direct', why: 'no-proxy' };
  const url = parseProxyUrl(raw, from);
  let authorization = s.proxyAuthorization.trim() || undefined;
  if (!authorization && url.username) {
    authorization = `Basic ${Buffer.from(`${decodeCredential(url.username)}:${decodeCredential(url.password)}`).toString('base64')}`;
  }
  url.username = '';
  url.password = '';
  return { kind: 'proxy', url, from, authorization };
}

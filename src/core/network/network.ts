// The connections of one set of network settings: a direct agent and one proxy agent per
// proxy, all with the same certificate trust. The editor makes a new Network when a
// setting changes and closes the old one; code without an editor uses the environment's.
import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { chooseProxy, decodeCredential, proxyLabel, type ProxyChoice, type ProxySettings } from './proxy';
import { loadTrust, type Trust, type TrustSettings } from './trust';
import { tunnelPool } from './tunnel';
import { undici } from './undici';
import { l10n } from '../text/l10n';

export interface NetworkSettings {
  proxy: ProxySettings;
  trust: TrustSettings;
}

/** How a request to one address goes, in words safe to show: never a credential. */
export interface Route {
  direct: boolean;
  /** Why direct: a loopback service, a no-proxy entry, proxies turned off, or no proxy set. */
  why?: 'loopback' | 'no-proxy' | 'support-off' | 'none';
  /** `host:port` of the proxy. */
  proxy?: string;
  /** Which setting or variable named the proxy. */
  from?: string;
  /** Whether the proxy is sent credentials. */
  authenticates?: boolean;
}

/** No proxy from the editor; the environment's variables and Node's trust only. */
export const ENVIRONMENT_ONLY: NetworkSettings = {
  proxy: { proxy: '', proxyAuthorization: '', noProxy: [], support: 'override' },
  trust: { systemCertificates: false, strictSSL: true },
};

export class Network {
  private trusted?: Promise<Trust>;
  private direct?: Agent;
  private readonly proxies = new Map<string, ProxyAgent>();
  private closed = false;

  constructor(readonly settings: NetworkSettings, private readonly env: NodeJS.ProcessEnv = process.env) {}

  /** The certificate authorities these settings trust, read when the first connection needs them. */
  trust(): Promise<Trust> {
    this.trusted ??= loadTrust(this.settings.trust, this.env);
    return this.trusted;
  }

  /** Throws ClientValidationError when the proxy setting or variable is not a usable address. */
  choose(target: URL): ProxyChoice {
    return chooseProxy(target, this.settings.proxy, this.env);
  }

  route(target: URL): Route {
    const c = this.choose(target);
    return c.kind === 'direct'
      ? { direct: true, why: c.why }
      : { direct: false, proxy: proxyLabel(c.url), from: c.from, authenticates: !!c.authorization };
  }

  /** The secrets of these settings and the environment (proxy passwords, authorization values), for redaction. */
  secrets(): string[] {
    const out: string[] = [];
    const authorization = this.settings.proxy.proxyAuthorization.trim();
    if (authorization) out.push(authorization, authorization.replace(/^\S+\s+/, ''));
    for (const raw of [this.settings.proxy.proxy, this.env.HTTPS_PROXY, this.env.https_proxy, this.env.HTTP_PROXY, this.env.http_proxy]) {
      let u: URL;
      try {
        u = new URL(raw ?? '');
      } catch {
        continue; // not a URL: no credentials in it
      }
      if (!u.password) continue;
      const basic = Buffer.from(`${decodeCredential(u.username)}:${decodeCredential(u.password)}`).toString('base64');
      out.push(u.password, decodeCredential(u.password), basic);
    }
    return [...new Set(out)].filter((s) => s.length >= 4);
  }

  async dispatcherFor(target: URL): Promise<Dispatcher> {
    if (this.closed) throw new Error(l10n.t('this network configuration was replaced'));
    const choice = this.choose(target);
    const trust = await this.trust();
    if (this.closed) throw new Error(l10n.t('this network configuration was replaced'));
    const tlsOptions = { ca: trust.ca, rejectUnauthorized: trust.rejectUnauthorized };
    if (choice.kind === 'direct') {
      this.direct ??= new (undici().Agent)({ connect: tlsOptions });
      return this.direct;
    }
    const key = `${choice.url.href}\n${choice.authorization ?? ''}`;
    let agent = this.proxies.get(key);
    if (!agent) {
      const TunnelPool = tunnelPool();
      agent = new (undici().ProxyAgent)({
        uri: choice.url.href,
        token: choice.authorization,
        requestTls: tlsOptions,
        proxyTls: tlsOptions,
        clientFactory: (origin, opts) => new TunnelPool(origin, opts),
      });
      this.proxies.set(key, agent);
    }
    return agent;
  }

  /** Lets running requests finish, then closes every connection. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [this.direct, ...this.proxies.values()].filter((a): a is Agent | ProxyAgent => !!a);
    this.direct = undefined;
    this.proxies.clear();
    await Promise.all(all.map((a) => a.close().catch(() => undefined)));
  }
}

/** The key of the environment's proxy variables, so the default network follows changes to them. */
function environmentKey(env: NodeJS.ProcessEnv): string {
  return ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'].map((k) => env[k] ?? '').join('\n');
}

let fromEnvironment: { key: string; network: Network } | undefined;

/** The network of code that runs without an editor (tests, tools): environment variables only. */
export function environmentNetwork(env: NodeJS.ProcessEnv = process.env): Network {
  const key = environmentKey(env);
  if (fromEnvironment?.key !== key) {
    void fromEnvironment?.network.close();
    fromEnvironment = { key, network: new Network(ENVIRONMENT_ONLY, env) };
  }
  return fromEnvironment.network;
}

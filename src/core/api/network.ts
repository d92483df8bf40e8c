// Which connection a request takes. A loopback service (a local or test service) is always
// reached directly: sending it through a proxy would hand the token to the proxy in clear
// text, for a connection that never leaves the machine. Everything else follows
// HTTPS_PROXY/HTTP_PROXY/NO_PROXY, as command-line tools do.
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { isLoopbackHost } from './baseUrl';

let direct: Dispatcher | undefined;
let envProxy: { key: string; agent: Dispatcher } | undefined;

/** Our own agent for direct connections (never the process-wide one, which another extension may have replaced). */
export function directDispatcher(): Dispatcher {
  direct ??= new Agent();
  return direct;
}

function proxyEnvKey(env: NodeJS.ProcessEnv): string | undefined {
  const vars = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'].map((k) => env[k] ?? '');
  return vars.slice(0, 4).some(Boolean) ? vars.join('\n') : undefined;
}

/**
 * The dispatcher for a request to `target`: `configured` (the editor's proxy, when given)
 * or the environment's proxy, except for loopback hosts, which are always direct.
 */
export function dispatcherFor(target: URL, configured?: Dispatcher, env: NodeJS.ProcessEnv = process.env): Dispatcher {
  if (isLoopbackHost(target.hostname)) return directDispatcher();
  if (configured) return configured;
  const key = proxyEnvKey(env);
  if (!key) return directDispatcher();
  if (envProxy?.key !== key) {
    const old = envProxy?.agent;
    envProxy = {
      key,
      agent: new EnvHttpProxyAgent({
        httpProxy: env.HTTP_PROXY ?? env.http_proxy,
        httpsProxy: env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy,
        noProxy: env.NO_PROXY ?? env.no_proxy,
      }),
    };
    void old?.close().catch(() => undefined);
  }
  return envProxy.agent;
}

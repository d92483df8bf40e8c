// The editor's network settings for every request of the extension. VS Code patches Node's
// own http and fetch for extensions, but the bundled undici client is not patched, so the
// settings are read here: http.proxy, http.proxyAuthorization, http.noProxy,
// http.proxySupport, http.proxyStrictSSL and http.systemCertificates. Only the user's
// own values count: a repository's .vscode/settings.json must not route the token through
// its proxy or turn certificate checks off. A change takes effect at once, no reload.
import * as vscode from 'vscode';
import { Network, type NetworkSettings, type ProxySupport } from '../core/network';
import type { SecretRedactor } from '../core/text/redact';
import { DisposableObject } from './disposable';

const HTTP = 'http';
const KEYS = ['proxy', 'proxyAuthorization', 'noProxy', 'proxySupport', 'proxyStrictSSL', 'systemCertificates'] as const;
const SUPPORT: readonly ProxySupport[] = ['off', 'on', 'override', 'fallback'];

/** The user-level value of an http.* setting (user or remote machine settings), else its default. */
function userValue<T>(key: (typeof KEYS)[number], fallback: T): T {
  const seen = vscode.workspace.getConfiguration(HTTP).inspect<T>(key);
  const v = seen?.globalValue ?? seen?.defaultValue;
  return v === undefined || v === null ? fallback : v;
}

export function readNetworkSettings(): NetworkSettings {
  const support = userValue<string>('proxySupport', 'override');
  const noProxy = userValue<unknown>('noProxy', []);
  return {
    proxy: {
      proxy: String(userValue<string>('proxy', '') ?? ''),
      proxyAuthorization: String(userValue<string>('proxyAuthorization', '') ?? ''),
      noProxy: Array.isArray(noProxy) ? noProxy.filter((x): x is string => typeof x === 'string') : [],
      support: SUPPORT.includes(support as ProxySupport) ? (support as ProxySupport) : 'override',
    },
    trust: {
      systemCertificates: userValue<boolean>('systemCertificates', true) !== false,
      strictSSL: userValue<boolean>('proxyStrictSSL', true) !== false,
    },
  };
}

export function affectsNetwork(e: vscode.ConfigurationChangeEvent): boolean {
  return KEYS.some((k) => e.affectsConfiguration(`${HTTP}.${k}`));
}

/** The Network of the current settings; replaced (and the old one closed) when they change. */
export class EditorNetwork extends DisposableObject {
  private network: Network;
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: vscode.LogOutputChannel, private readonly redactor: SecretRedactor) {
    super();
    this.network = this.build();
    this.own(vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsNetwork(e)) return;
      const old = this.network;
      this.network = this.build();
      // Requests under way finish on the old connections; new ones take the new settings.
      void old.close();
      this.changed.fire();
    }));
  }

  get current(): Network {
    return this.network;
  }

  private build(): Network {
    const settings = readNetworkSettings();
    const network = new Network(settings);
    for (const secret of network.secrets()) this.redactor.add(secret);
    if (!settings.trust.strictSSL) {
      this.log.warn('"http.proxyStrictSSL" is false: TLS certificates of the service and the proxy are not checked. Anyone on the network path could read your API key. Turn it back on once the right certificate authority is trusted.');
    }
    // Read in the background (the system's store on a thread of its own); its problems said once read.
    void network.trust().then((t) => { for (const problem of t.problems) this.log.warn(problem); });
    return network;
  }

  override dispose(): void {
    void this.network.close();
    super.dispose();
  }
}

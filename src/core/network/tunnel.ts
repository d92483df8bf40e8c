// The connection to a proxy through which undici's ProxyAgent opens CONNECT tunnels. Two
// answers of a proxy are turned into errors that end the request at once: a tunnel socket
// closed before the CONNECT completed (undici 7 treats it as a recoverable socket error and
// retries CONNECT in a tight loop, at full CPU, deaf to the request's abort signal; undici
// 8 fixed it for Node 22.19+ only) and a status other than 200 (named, so a 407 can say to
// set credentials).
import type { Dispatcher, Pool } from 'undici';
import { undici } from './undici';
import { l10n } from '../text/l10n';

export class ProxyTunnelError extends Error {
  /** The proxy's status for CONNECT, when it answered one. */
  constructor(message: string, readonly code: 'PROXY_CLOSED' | 'PROXY_STATUS', readonly statusCode?: number) {
    super(message);
    this.name = 'ProxyTunnelError';
  }
}

type ConnectData = Dispatcher.ConnectData;

let made: (new (...args: ConstructorParameters<typeof Pool>) => Pool) | undefined;

/** The pool class, made when the first proxy agent needs it (undici loads then). */
export function tunnelPool(): new (...args: ConstructorParameters<typeof Pool>) => Pool {
  if (made) return made;
  class TunnelPool extends undici().Pool {
    override connect(options: Dispatcher.ConnectOptions): Promise<ConnectData>;
    override connect(options: Dispatcher.ConnectOptions, callback: (err: Error | null, data: ConnectData) => void): void;
    override connect(options: Dispatcher.ConnectOptions, callback?: (err: Error | null, data: ConnectData) => void): Promise<ConnectData> | void {
      const done = super.connect(options).then(
        (data) => {
          if (data.statusCode !== 200) {
            data.socket.on('error', () => undefined).destroy();
            throw new ProxyTunnelError(l10n.t('the proxy answered {0} to CONNECT', data.statusCode), 'PROXY_STATUS', data.statusCode);
          }
          return data;
        },
        (err: unknown) => {
          if ((err as { code?: unknown })?.code === 'UND_ERR_SOCKET') {
            throw new ProxyTunnelError(l10n.t('the proxy closed the connection before the tunnel opened'), 'PROXY_CLOSED');
          }
          throw err;
        },
      );
      if (!callback) return done;
      done.then((data) => callback(null, data), (err: Error) => callback(err, undefined as never));
    }
  }
  made = TunnelPool;
  return made;
}

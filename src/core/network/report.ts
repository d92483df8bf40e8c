// The Check Connection report: what a support ticket needs to know about the way to the
// service, in plain lines, with no secret in it (the proxy is named by host and port, the
// token and proxy credentials never appear).
import type { Route } from './network';

export interface ConnectionFacts {
  /** When the check ran (ISO text). */
  at: string;
  /** The service address, or why it cannot be used. */
  service: { url: string; from: string } | { error: string };
  route?: Route;
  routeError?: string;
  trust: { sources: string[]; problems: string[]; strict: boolean };
  /** The answer to GET /verify; undefined when no request could be made. */
  verify?: { ok: boolean; ms: number; status?: number; error?: string; tlsFailed?: boolean };
  signedIn: boolean;
  /** Whether the stored token was sent (it is not sent to an address it was not verified with). */
  tokenSent: boolean;
  user?: string;
  warnings: string[];
  client: string;
  /** The service's web app version, in words. */
  webApp?: string;
  /** Whether the service accepted the API key in each header alone (header name -> accepted). */
  keyHeaders?: Record<string, boolean>;
}

const DIRECT_WHY: Record<NonNullable<Route['why']>, string> = {
  loopback: 'direct (a service on this machine is never proxied)',
  'no-proxy': 'direct (the address is listed in "http.noProxy" or NO_PROXY)',
  'support-off': 'direct ("http.proxySupport" is off)',
  none: 'direct (no proxy set in "http.proxy" or the environment)',
};

export interface ConnectionReport {
  ok: boolean;
  /** One line for a notification. */
  summary: string;
  /** The whole report, for the log and the clipboard. */
  text: string;
}

export function connectionReport(f: ConnectionFacts): ConnectionReport {
  const lines: string[] = [`Code Scanner connection check, ${f.at}`];
  const row = (label: string, value: string) => lines.push(`${`${label}:`.padEnd(16)}${value}`);
  if ('error' in f.service) row('Service', `not usable: ${f.service.error}`);
  else row('Service', `${f.service.url} (${f.service.from})`);
  if (f.routeError) row('Route', `not usable: ${f.routeError}`);
  else if (f.route) row('Route', f.route.direct ? DIRECT_WHY[f.route.why ?? 'none'] : `through the proxy ${f.route.proxy} (from ${f.route.from})${f.route.authenticates ? ', with credentials' : ''}`);
  const https = !('error' in f.service) && f.service.url.startsWith('https:');
  row('Certificates', [`Node's bundled roots`, ...f.trust.sources].join(' + ') + (f.trust.strict ? '' : '; checking is OFF ("http.proxyStrictSSL": false)'));
  for (const p of f.trust.problems) row('', p);
  if (!https) row('TLS', 'not used (plain http, allowed for a service on this machine only)');
  else if (!f.verify) row('TLS', 'not tried');
  else if (f.verify.tlsFailed) row('TLS', 'the certificate was not accepted (see below)');
  else if (f.verify.ok || f.verify.status !== undefined) row('TLS', f.trust.strict ? 'verified' : 'connected, certificate NOT checked');
  else row('TLS', 'not reached');
  if (f.verify) {
    const answer = f.verify.status !== undefined ? `HTTP ${f.verify.status} in ${f.verify.ms} ms` : `no answer after ${f.verify.ms} ms`;
    row('GET /verify', f.verify.ok ? answer : `${answer}${f.verify.error ? `: ${f.verify.error}` : ''}`);
  }
  row('Account', f.user ? `signed in as ${f.user}` : f.signedIn ? (f.tokenSent ? 'the service did not accept the stored token' : 'signed in at another address; the token was not sent') : 'not signed in');
  if (f.keyHeaders) {
    const accepted = Object.entries(f.keyHeaders).filter(([, ok]) => ok).map(([h]) => h);
    const refused = Object.entries(f.keyHeaders).filter(([, ok]) => !ok).map(([h]) => h);
    row('API key header', accepted.length
      ? `the service accepts it in ${accepted.join(' and ')}${refused.length ? `, not in ${refused.join(' or ')} alone` : ''} (both are sent)`
      : 'the service accepted the key only with both headers (both are sent)');
  }
  if (f.webApp) row('Web app', f.webApp);
  for (const w of f.warnings) row('Service says', w);
  row('Client', f.client);
  const reached = !!f.verify && f.verify.status !== undefined;
  const ok = reached && (f.verify!.ok || !f.tokenSent);
  const summary = 'error' in f.service
    ? `The service address cannot be used: ${f.service.error}`
    : !reached
    ? `Cannot reach the service${f.verify?.error ? `: ${f.verify.error}` : '.'}`
    : `Reached the service in ${f.verify!.ms} ms${f.route && !f.route.direct ? ` through the proxy ${f.route.proxy}` : ''}${f.user ? `, signed in as ${f.user}` : f.signedIn && f.tokenSent ? ', but the stored token was not accepted' : ''}.`;
  return { ok, summary, text: lines.join('\n') };
}

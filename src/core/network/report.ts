// The Check Connection report: what a support ticket needs to know about the way to the
// service, in plain lines, with no secret in it (the proxy is named by host and port, the
// token and proxy credentials never appear).
import type { Route } from './network';
import { l10n } from '../text/l10n';

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
  /** Which lists of findings the service has, as the newest scan read them, in words. */
  lists?: string;
}

const DIRECT_WHY: Record<NonNullable<Route['why']>, string> = {
  get loopback() { return l10n.t('direct (a service on this machine is never proxied)'); },
  get 'no-proxy'() { return l10n.t('direct (the address is listed in "http.noProxy" or NO_PROXY)'); },
  get 'support-off'() { return l10n.t('direct ("http.proxySupport" is off)'); },
  get none() { return l10n.t('direct (no proxy set in "http.proxy" or the environment)'); },
};

export interface ConnectionReport {
  ok: boolean;
  /** One line for a notification. */
  summary: string;
  /** The whole report, for the log and the clipboard. */
  text: string;
}

export function connectionReport(f: ConnectionFacts): ConnectionReport {
  const lines: string[] = [l10n.t('Code Scanner connection check, {0}', f.at)];
  const row = (label: string, value: string) => lines.push(`${`${label}:`.padEnd(16)}${value}`);
  if ('error' in f.service) row(l10n.t('Service'), l10n.t('not usable: {0}', f.service.error));
  else row(l10n.t('Service'), `${f.service.url} (${f.service.from})`);
  if (f.routeError) row(l10n.t('Route'), l10n.t('not usable: {0}', f.routeError));
  else if (f.route) row(l10n.t('Route'), f.route.direct ? DIRECT_WHY[f.route.why ?? 'none'] : l10n.t('through the proxy {0} (from {1}){2}', f.route.proxy, f.route.from, f.route.authenticates ? l10n.t(', with credentials') : ''));
  const https = !('error' in f.service) && f.service.url.startsWith('https:');
  row(l10n.t('Certificates'), [l10n.t('Node\'s bundled roots'), ...f.trust.sources].join(' + ') + (f.trust.strict ? '' : l10n.t('; checking is OFF ("http.proxyStrictSSL": false)')));
  for (const p of f.trust.problems) row('', p);
  if (!https) row('TLS', l10n.t('not used (plain http, allowed for a service on this machine only)'));
  else if (!f.verify) row('TLS', l10n.t('not tried'));
  else if (f.verify.tlsFailed) row('TLS', l10n.t('the certificate was not accepted (see below)'));
  else if (f.verify.ok || f.verify.status !== undefined) row('TLS', f.trust.strict ? 'verified' : l10n.t('connected, certificate NOT checked'));
  else row('TLS', l10n.t('not reached'));
  if (f.verify) {
    const answer = f.verify.status !== undefined ? l10n.t('HTTP {0} in {1} ms', f.verify.status, f.verify.ms) : l10n.t('no answer after {0} ms', f.verify.ms);
    row('GET /verify', f.verify.ok ? answer : `${answer}${f.verify.error ? `: ${f.verify.error}` : ''}`);
  }
  row(l10n.t('Account'), f.user ? l10n.t('signed in as {0}', f.user) : f.signedIn ? (f.tokenSent ? l10n.t('the service did not accept the stored token') : l10n.t('signed in at another address; the token was not sent')) : l10n.t('not signed in'));
  if (f.keyHeaders) {
    const accepted = Object.entries(f.keyHeaders).filter(([, ok]) => ok).map(([h]) => h);
    const refused = Object.entries(f.keyHeaders).filter(([, ok]) => !ok).map(([h]) => h);
    row(l10n.t('API key header'), accepted.length
      ? l10n.t('the service accepts it in {0}{1} (both are sent)', accepted.join(' and '), refused.length ? l10n.t(', not in {0} alone', refused.join(' or ')) : '')
      : l10n.t('the service accepted the key only with both headers (both are sent)'));
  }
  if (f.webApp) row(l10n.t('Web app'), f.webApp);
  if (f.lists) row(l10n.t('Findings'), f.lists);
  for (const w of f.warnings) row(l10n.t('Service says'), w);
  row(l10n.t('Client'), f.client);
  const reached = !!f.verify && f.verify.status !== undefined;
  const ok = reached && (f.verify!.ok || !f.tokenSent);
  const summary = 'error' in f.service
    ? l10n.t('The service address cannot be used: {0}', f.service.error)
    : !reached
    ? l10n.t('Cannot reach the service{0}', f.verify?.error ? `: ${f.verify.error}` : '.')
    : l10n.t('Reached the service in {0} ms{1}{2}.', f.verify!.ms, f.route && !f.route.direct ? l10n.t(' through the proxy {0}', f.route.proxy) : '', f.user ? l10n.t(', signed in as {0}', f.user) : f.signedIn && f.tokenSent ? l10n.t(', but the stored API key was not accepted') : '');
  return { ok, summary, text: lines.join('\n') };
}

// Where the service lives. Production is the address the service's public command-line
// client uses by default (its host plus the /api/v1 prefix); the EU address follows the
// same shape on the EU host. A custom URL (single-tenant instance, local reference
// service) is normalised so every caller can simply append a path.

import { isLoopbackHost } from '../network/loopback';
import { ClientValidationError } from './errors';
import { l10n } from '../text/l10n';

export { isLoopbackHost };

export type Region = 'production' | 'eu';

export const REGION_BASE_URLS: Readonly<Record<Region, string>> = {
  production: 'https://www.corgea.app/api/v1',
  eu: 'https://eu.corgea.app/api/v1',
};

const API_PREFIX = '/api/v1';


/**
 * Trims trailing slashes and appends /api/v1 when missing. Throws ClientValidationError
 * for anything that is not an absolute http(s) URL, for plain http to a non-loopback
 * host (the token would travel in clear text), and for URLs carrying credentials, a
 * query or a fragment.
 */
export function normalizeBaseUrl(url: string): string {
  const op = 'normalizeBaseUrl';
  const raw = typeof url === 'string' ? url.trim() : '';
  if (raw === '') throw new ClientValidationError(op, l10n.t('The service URL is empty. Enter an address such as https://example.com/api/v1.'));
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Named by its host only: what does not parse may still carry `user:password@`.
    const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#@\s]{1,100})/i.exec(raw)?.[1];
    throw new ClientValidationError(op, l10n.t('The service URL{0} is not a valid address. Enter a full address such as https://example.com/api/v1{1}.', host ? l10n.t(' for {0}', host) : '', raw.includes('@') ? l10n.t(', without a user name or password') : ''));
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new ClientValidationError(op, l10n.t('The service URL must start with https:// (got {0}//).', u.protocol));
  }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    throw new ClientValidationError(
      op,
      l10n.t('The service URL {0} uses plain http, which would send your API key unencrypted. Use https:// (plain http is only allowed for localhost).', u.origin),
    );
  }
  if (u.username || u.password) {
    throw new ClientValidationError(op, l10n.t('The service URL must not contain a user name or password. Remove the part before "@".'));
  }
  if (u.search || u.hash || raw.endsWith('?') || raw.endsWith('#')) {
    throw new ClientValidationError(op, l10n.t('The service URL must not contain a query (?...) or fragment (#...).'));
  }
  let path = u.pathname.replace(/\/+$/, '');
  if (!path.endsWith(API_PREFIX)) path += API_PREFIX;
  return u.origin + path;
}

/** The base URL to use: a non-empty custom URL wins over the region. */
export function resolveBaseUrl(opts: { region?: Region; customUrl?: string }): string {
  const custom = opts.customUrl?.trim();
  if (custom) return normalizeBaseUrl(custom);
  return REGION_BASE_URLS[opts.region === 'eu' ? 'eu' : 'production'];
}

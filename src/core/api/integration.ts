// The body of an integration update: exactly the fields the caller gave, in the
// service's names, each checked before sending.

import { ClientValidationError } from './errors';
import { l10n } from '../text/l10n';

export interface IntegrationUpdate {
  secureToken?: string;
  name?: string;
  orgAllowlist?: string[];
  baseUrl?: string;
  gatewayPrefix?: string;
}

export function integrationBody(op: string, f: IntegrationUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const text = (key: string, v: unknown, label: string) => {
    if (v === undefined) return;
    if (typeof v !== 'string' || v.trim() === '') throw new ClientValidationError(op, l10n.t('{0} must be a non-empty text.', label));
    body[key] = v;
  };
  text('secure_token', f.secureToken, l10n.t('The new access token'));
  text('name', f.name, l10n.t('The integration name'));
  text('base_url', f.baseUrl, l10n.t('The base URL'));
  if (f.gatewayPrefix !== undefined) {
    // An empty prefix is a legitimate value (no gateway).
    if (typeof f.gatewayPrefix !== 'string') throw new ClientValidationError(op, l10n.t('The gateway prefix must be text.'));
    body.gateway_prefix = f.gatewayPrefix;
  }
  if (f.orgAllowlist !== undefined) {
    if (!Array.isArray(f.orgAllowlist) || f.orgAllowlist.some((o) => typeof o !== 'string' || o.trim() === '')) {
      throw new ClientValidationError(op, l10n.t('The organization allow-list must be a list of non-empty organization names.'));
    }
    body.org_allowlist = f.orgAllowlist;
  }
  if (Object.keys(body).length === 0) {
    throw new ClientValidationError(op, l10n.t('Nothing to update: give at least one of secure token, name, organization allow-list, base URL or gateway prefix.'));
  }
  return body;
}

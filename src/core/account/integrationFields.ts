// The fields a user may change on a pipeline-provider integration: how each is asked for,
// validated and summarised. Only the fields the user picked are sent (the service updates
// exactly the fields present), and the token is never echoed back in any text.
import type { IntegrationUpdate } from '../api';
import { ok, fail, type Parsed } from './parsed';
import { l10n } from '../text/l10n';

export type IntegrationField = 'name' | 'orgAllowlist' | 'baseUrl' | 'gatewayPrefix' | 'token';

/** An integration update as people give it: the API's fields, the secure token named `token`. */
export type IntegrationChanges = Omit<IntegrationUpdate, 'secureToken'> & { token?: string };

export interface IntegrationFieldInfo {
  field: IntegrationField;
  label: string;
  /** Shown under the label in the quick pick of fields. */
  detail: string;
  prompt: string;
  placeholder: string;
  secret: boolean;
  /** Changing it makes the service verify the credentials again (spec, rule 1). */
  reverifies: boolean;
}

export const INTEGRATION_FIELDS: readonly IntegrationFieldInfo[] = [
  { field: 'name', get label() { return l10n.t('Name'); }, get detail() { return l10n.t('The display name of the integration'); }, get prompt() { return l10n.t('New name of the integration'); }, get placeholder() { return l10n.t('e.g. Build pipelines'); }, secret: false, reverifies: false },
  { field: 'orgAllowlist', get label() { return l10n.t('Organization allowlist'); }, get detail() { return l10n.t('Organizations whose pipelines may use the integration'); }, get prompt() { return l10n.t('Organizations, separated by commas (leave empty to clear the list)'); }, get placeholder() { return l10n.t('e.g. acme, acme-labs'); }, secret: false, reverifies: false },
  { field: 'baseUrl', get label() { return l10n.t('Base URL'); }, get detail() { return l10n.t('Address of the provider; the credentials are verified again'); }, get prompt() { return l10n.t('Base URL of the pipeline provider'); }, placeholder: 'https://pipelines.example.com', secret: false, reverifies: true },
  { field: 'gatewayPrefix', get label() { return l10n.t('Gateway prefix'); }, get detail() { return l10n.t('Path prefix of the provider gateway; the credentials are verified again'); }, get prompt() { return l10n.t('Gateway prefix (leave empty to clear it)'); }, placeholder: 'e.g. /gateway', secret: false, reverifies: true },
  { field: 'token', get label() { return l10n.t('Access token'); }, get detail() { return l10n.t('Replace the stored token (it must belong to the same account); the credentials are verified again'); }, get prompt() { return l10n.t('New access token for the provider account (it is sent once and never shown again)'); }, get placeholder() { return l10n.t('Paste the token'); }, secret: true, reverifies: true },
];

export function fieldInfo(field: IntegrationField): IntegrationFieldInfo {
  const info = INTEGRATION_FIELDS.find((f) => f.field === field);
  if (!info) throw new Error(l10n.t('Unknown integration field {0}', field));
  return info;
}

export function parseIntegrationName(input: unknown): Parsed<string> {
  if (typeof input !== 'string' || input.trim() === '') return fail(l10n.t('Enter a name for the integration.'));
  const t = input.trim();
  return t.length > 255 ? fail(l10n.t('The name is too long: use at most 255 characters.')) : ok(t);
}

/** Comma- or newline-separated organization names; empty input clears the list. */
export function parseOrgAllowlist(input: unknown): Parsed<string[]> {
  let tokens: unknown[];
  if (Array.isArray(input)) tokens = input;
  else if (typeof input === 'string') tokens = input.split(/[,\n]/);
  else return fail(l10n.t('Enter organization names separated by commas.'));
  const orgs: string[] = [];
  for (const token of tokens) {
    if (typeof token !== 'string') return fail(l10n.t('Organization names must be text.'));
    const t = token.trim();
    if (t === '') continue;
    if (/\s/.test(t)) return fail(l10n.t('"{0}" contains a space: separate organization names with commas.', t));
    if (!orgs.includes(t)) orgs.push(t);
  }
  return ok(orgs);
}

export function parseProviderBaseUrl(input: unknown): Parsed<string> {
  if (typeof input !== 'string' || input.trim() === '') return fail(l10n.t('Enter the base URL of the provider, e.g. https://pipelines.example.com.'));
  const t = input.trim();
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    return fail(l10n.t('"{0}" is not a URL: enter a full address such as https://pipelines.example.com.', t));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail(l10n.t('The base URL must start with https:// (or http://).'));
  // A user:password in the URL would store a secret where it is shown to everyone.
  if (url.username || url.password) return fail(l10n.t('Do not put credentials in the URL: change the access token instead.'));
  return ok(t);
}

export function parseGatewayPrefix(input: unknown): Parsed<string> {
  if (typeof input !== 'string') return fail(l10n.t('The gateway prefix must be text.'));
  const t = input.trim();
  return /\s/.test(t) ? fail(l10n.t('The gateway prefix cannot contain spaces.')) : ok(t);
}

export function parseProviderToken(input: unknown): Parsed<string> {
  if (typeof input !== 'string' || input.trim() === '') return fail(l10n.t('Enter the new access token.'));
  const t = input.trim();
  return /\s/.test(t) ? fail(l10n.t('The token cannot contain spaces: paste it again.')) : ok(t);
}

export function parseField(field: IntegrationField, input: unknown): Parsed<string | string[]> {
  switch (field) {
    case 'name': return parseIntegrationName(input);
    case 'orgAllowlist': return parseOrgAllowlist(input);
    case 'baseUrl': return parseProviderBaseUrl(input);
    case 'gatewayPrefix': return parseGatewayPrefix(input);
    case 'token': return parseProviderToken(input);
  }
}

/**
 * Validates a whole change set (what a test or another extension passes to the command):
 * unknown keys are rejected rather than silently ignored, and at least one field is needed.
 */
export function parseIntegrationChanges(input: Record<string, unknown>): Parsed<IntegrationChanges> {
  const changes: IntegrationChanges = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'uuid' || value === undefined) continue;
    const info = INTEGRATION_FIELDS.find((f) => f.field === key);
    if (!info) return fail(l10n.t('"{0}" is not a field of an integration; use {1}.', key, INTEGRATION_FIELDS.map((f) => f.field).join(', ')));
    const parsed = parseField(info.field, value);
    if (!parsed.ok) return parsed;
    (changes as Record<string, unknown>)[info.field] = parsed.value;
  }
  if (Object.keys(changes).length === 0) return fail(l10n.t('Choose at least one field to change.'));
  return ok(changes);
}

/** Field labels in their usual order, for messages ("Name, Access token"). Never values. */
export function changedFieldLabels(changes: IntegrationChanges): string[] {
  return INTEGRATION_FIELDS.filter((f) => changes[f.field] !== undefined).map((f) => f.label);
}

export function changesReverify(changes: IntegrationChanges): boolean {
  return INTEGRATION_FIELDS.some((f) => f.reverifies && changes[f.field] !== undefined);
}

/** The sentence shown after a successful update. */
export function integrationUpdateSummary(name: string, changes: IntegrationChanges, credentialsVerified: boolean | undefined): string {
  const what = changedFieldLabels(changes).join(', ');
  const verification = credentialsVerified
    ? l10n.t('The credentials were verified.')
    : credentialsVerified === undefined
      ? l10n.t('The service did not say whether the credentials were verified.')
      : changesReverify(changes)
        ? l10n.t('The credentials were not re-verified (the service saw no change that needed it).')
        : l10n.t('The credentials were not re-checked (only name or allowlist changed).');
  return l10n.t('Integration "{0}" updated ({1}). {2}', name, what, verification);
}

/** The client's request: exactly the fields that were given (the token as secureToken). */
export function toIntegrationUpdate(c: IntegrationChanges): IntegrationUpdate {
  const r: IntegrationUpdate = {};
  if (c.name !== undefined) r.name = c.name;
  if (c.orgAllowlist !== undefined) r.orgAllowlist = c.orgAllowlist;
  if (c.baseUrl !== undefined) r.baseUrl = c.baseUrl;
  if (c.gatewayPrefix !== undefined) r.gatewayPrefix = c.gatewayPrefix;
  if (c.token !== undefined) r.secureToken = c.token;
  return r;
}

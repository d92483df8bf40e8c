// Client-side checks of the spec's limits, done before anything is sent so the user gets
// a precise message instead of a server 400 (or a silently clamped page size).

import { ClientValidationError } from './errors';
import { l10n } from '../text/l10n';

export const LIMITS = {
  rolesPageSize: { min: 1, max: 50 },
  policiesPageSize: { min: 1, max: 30 },
  qualityPageSize: { min: 1, max: 50 },
  metadataBytes: 16_384,
  archiveExtensions: ['.zip', '.tar', '.json', '.fpr', '.sarif', '.xml'] as readonly string[],
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkPage(operation: string, page: number | undefined): void {
  if (page === undefined) return;
  if (!Number.isSafeInteger(page) || page < 1) {
    throw new ClientValidationError(operation, l10n.t('Page must be a whole number of at least 1 (got {0}).', String(page)));
  }
}

export function checkPageSize(operation: string, size: number | undefined, limit: { min: number; max: number }): void {
  if (size === undefined) return;
  if (!Number.isSafeInteger(size) || size < limit.min || size > limit.max) {
    throw new ClientValidationError(operation, l10n.t('Page size must be a whole number from {0} to {1} (got {2}).', limit.min, limit.max, String(size)));
  }
}

export function checkTeamId(operation: string, teamId: number): void {
  if (typeof teamId !== 'number' || !Number.isSafeInteger(teamId) || teamId < 1) {
    throw new ClientValidationError(operation, l10n.t('The team id must be a positive whole number (got {0}).', String(teamId)));
  }
}

export function checkMemberIds(operation: string, ids: number[]): void {
  if (!Array.isArray(ids) || ids.length === 0) {
    throw new ClientValidationError(operation, l10n.t('Give at least one member (user) id to add to the team.'));
  }
  const bad = ids.find((id) => typeof id !== 'number' || !Number.isSafeInteger(id));
  if (bad !== undefined) {
    throw new ClientValidationError(operation, l10n.t('Member ids must be whole numbers (got {0}).', JSON.stringify(bad) ?? String(bad)));
  }
}

export function checkUuid(operation: string, uuid: string): void {
  if (typeof uuid !== 'string' || !UUID.test(uuid)) {
    throw new ClientValidationError(operation, l10n.t('The integration id must be a UUID such as 123e4567-e89b-12d3-a456-426614174000 (got "{0}").', String(uuid)));
  }
}

/**
 * Archive names travel in a header (Upload-Name) and a multipart file name, so besides
 * the spec's extension list they must be printable ASCII without quotes or slashes.
 */
export function checkArchiveName(operation: string, name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw new ClientValidationError(operation, l10n.t('The archive name is empty.'));
  }
  if (!LIMITS.archiveExtensions.some((ext) => name.endsWith(ext)) || LIMITS.archiveExtensions.includes(name)) {
    throw new ClientValidationError(
      operation,
      l10n.t('The archive name "{0}" must end in {1}.', name, LIMITS.archiveExtensions.join(', ')),
    );
  }
  if (!/^[\x20-\x7e]+$/.test(name) || /["\\/]/.test(name)) {
    throw new ClientValidationError(
      operation,
      l10n.t('The archive name "{0}" may only contain printable ASCII characters without quotes or slashes.', name),
    );
  }
}

/**
 * Returns the JSON text to send as the metadata part. The spec wants a JSON object of at
 * most 16,384 bytes; the size is counted in UTF-8 bytes, as the server will count it.
 */
export function validateMetadata(m: unknown): string {
  const op = 'validateMetadata';
  if (m === null || typeof m !== 'object' || Array.isArray(m)) {
    const what = m === null ? 'null' : Array.isArray(m) ? l10n.t('an array') : typeof m;
    throw new ClientValidationError(op, l10n.t('Scan metadata must be a JSON object (got {0}).', what));
  }
  let text: string;
  try {
    text = JSON.stringify(m);
  } catch {
    throw new ClientValidationError(op, l10n.t('Scan metadata cannot be turned into JSON (it contains a cycle or a BigInt).'));
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > LIMITS.metadataBytes) {
    throw new ClientValidationError(op, l10n.t('Scan metadata is {0} bytes of JSON; the service accepts at most {1} bytes.', bytes, LIMITS.metadataBytes));
  }
  return text;
}

/** Comma-separated list parts cannot hold a value that itself contains a comma. */
export function joinCommaList(operation: string, what: string, values: readonly (string | number)[]): string {
  for (const v of values) {
    const s = String(v);
    if (s === '' || s.includes(',')) {
      throw new ClientValidationError(operation, l10n.t('{0} "{1}" cannot be sent: entries must be non-empty and must not contain a comma.', what, s));
    }
  }
  return values.map(String).join(',');
}

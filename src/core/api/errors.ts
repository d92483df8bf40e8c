// Turning what the service answers into the error family (errors/serviceError.ts):
// status codes, Retry-After, offsets, the words for each operation and permission. No
// message ever contains the API key (see `redact`).

import { redactSecrets } from '../text/redact';

export { ServiceError, ClientValidationError, isServiceError, type ServiceErrorKind, type ServiceErrorInit } from '../errors/serviceError';
import { ServiceError } from '../errors/serviceError';
import { l10n } from '../text/l10n';

/** Worth trying again later: the request may well succeed unchanged. */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  return err.kind === 'network' || err.kind === 'timeout' || err.kind === 'server' || err.kind === 'rate-limited';
}

/** Replaces every occurrence of each secret (also re-cased, percent-encoded or in base64) with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets);
}

/**
 * Parses a Retry-After header: delta-seconds or an HTTP date. Returns milliseconds
 * (never negative) or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // HTTP dates always name a weekday/month; this also stops Date.parse reading "-5" as a year.
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return l10n.t('{0} s', s);
  const m = Math.ceil(s / 60);
  return l10n.t('{0} min', m);
}

/** A readable sentence fragment for an operation id, used in messages. */
export const OPERATION_LABELS: Record<string, string> = {
  get verify() { return l10n.t('checking the API key'); },
  get listRoles() { return l10n.t('listing roles'); },
  get addTeamMembers() { return l10n.t('adding team members'); },
  get updateIntegration() { return l10n.t('updating the integration'); },
  get listPolicies() { return l10n.t('listing policies'); },
  get listQualityIssues() { return l10n.t('loading the scan results'); },
  get listSecurityIssues() { return l10n.t('loading the scan\'s security findings'); },
  get listDependencyIssues() { return l10n.t('loading the scan\'s dependency findings'); },
  get checkBlockingRules() { return l10n.t('asking whether CI would block the scan'); },
  get getScanStatus() { return l10n.t('asking the service about the scan'); },
  get listScans() { return l10n.t('looking for the service\'s scans of the commit'); },
  get webAppVersion() { return l10n.t('asking the service for its version'); },
  get startTransfer() { return l10n.t('starting the upload'); },
  get readOffset() { return l10n.t('reading the upload position'); },
  get sendChunk() { return l10n.t('uploading the archive'); },
};

/**
 * What an operation needs, in words a person can take to an administrator (the permission
 * names the spec gives, where it gives them).
 */
export const OPERATION_PERMISSIONS: Record<string, string> = {
  get listRoles() { return l10n.t('view the company roles (permission "user_management.view_permissiongroup", and a plan that includes roles)'); },
  get addTeamMembers() { return l10n.t('manage team members'); },
  get updateIntegration() { return l10n.t('manage integrations (permission "integrations.manage_integration")'); },
  get listPolicies() { return l10n.t('view the company policies'); },
  get listQualityIssues() { return l10n.t('view scan results'); },
  get listSecurityIssues() { return l10n.t('view scan results'); },
  get listDependencyIssues() { return l10n.t('view scan results'); },
  get checkBlockingRules() { return l10n.t('view scan results'); },
  get getScanStatus() { return l10n.t('view scan results'); },
  get listScans() { return l10n.t('view scan results'); },
  get startTransfer() { return l10n.t('start scans (a role that may upload code, and a plan that includes code scanning uploads)'); },
  get readOffset() { return l10n.t('start scans'); },
  get sendChunk() { return l10n.t('start scans'); },
};

export function operationPermission(operation: string): string | undefined {
  return OPERATION_PERMISSIONS[operation];
}

export function operationLabel(operation: string): string {
  return OPERATION_LABELS[operation] ?? operation;
}

export interface HttpErrorInput {
  operation: string;
  status: number;
  /** Redacted `error` text of the body, if any. */
  serverMessage?: string;
  retryAfterHeader?: string;
  uploadOffsetHeader?: string;
  now?: number;
}

/** Turns a non-2xx answer into the matching ServiceError. */
export function errorForStatus(input: HttpErrorInput): ServiceError {
  const { operation, status, serverMessage } = input;
  const what = operationLabel(operation);
  const said = serverMessage ? `: ${serverMessage}` : '';
  const base = { operation, status, serverMessage };
  if (status === 400) {
    return new ServiceError({ ...base, kind: 'bad-request', message: l10n.t('The service refused the request while {0}{1}.', what, said || ' (HTTP 400)') });
  }
  if (status === 401) {
    return new ServiceError({ ...base, kind: 'unauthorized', message: l10n.t('The API key was rejected (missing, invalid or expired). Sign in again.') });
  }
  if (status === 403) {
    const needs = operationPermission(operation);
    return new ServiceError({
      ...base,
      kind: 'forbidden',
      message: `${needs ? l10n.t('Your account is not allowed to {0}.', needs) : l10n.t('Access was denied while {0}.', what)}`
        + l10n.t('{0} Ask an administrator of your organization to grant it (or to include it in your plan).', serverMessage ? l10n.t(' The service says: {0}.', serverMessage) : ''),
    });
  }
  if (status === 404) {
    return new ServiceError({ ...base, kind: 'not-found', message: l10n.t('Not found while {0}{1}.', what, said || ' (HTTP 404)') });
  }
  if (status === 409) {
    const off = parseOffset(input.uploadOffsetHeader);
    return new ServiceError({
      ...base,
      kind: 'conflict',
      serverOffset: off,
      message: l10n.t('The service holds a different upload position{0}{1}; the upload continues from there.', off === undefined ? '' : ` (${off} bytes)`, said),
    });
  }
  if (status === 410) {
    return new ServiceError({
      ...base,
      kind: 'unsupported',
      message: l10n.t('This version of the Code Scanner extension is no longer supported by the service. Update the extension (Extensions view, Code Scanner, Update), then try again.'),
    });
  }
  if (status === 413) {
    return new ServiceError({
      ...base,
      kind: 'bad-request',
      message: l10n.t('The service refused the upload as too large{0}. Exclude folders you do not need scanned (setting codeScanner.excludeGlobs) or lower codeScanner.maxFileSizeMB, then scan again.', said),
    });
  }
  if (status === 422) {
    return new ServiceError({ ...base, kind: 'unprocessable', message: l10n.t('The service could not process the request while {0}{1}. Check the values and try again.', what, said || ' (HTTP 422)') });
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(input.retryAfterHeader, input.now);
    const wait = retryAfterMs === undefined ? l10n.t('Wait a moment') : l10n.t('Wait {0}', formatWait(retryAfterMs));
    return new ServiceError({ ...base, kind: 'rate-limited', retryAfterMs, message: l10n.t('The service is limiting requests (HTTP 429) while {0}. {1} and try again.', what, wait) });
  }
  if (status >= 500) {
    return new ServiceError({ ...base, kind: 'server', message: l10n.t('The service had a problem (HTTP {0}) while {1}{2}. Try again shortly.', status, what, said) });
  }
  if (status >= 300 && status < 400) {
    // Redirects are not followed: they would re-send the token to wherever they point.
    return new ServiceError({
      ...base,
      kind: 'bad-response',
      message: l10n.t('The service answered with a redirect (HTTP {0}) while {1}. Check the service URL setting: it must be the exact API address, ending in /api/v1.', status, what),
    });
  }
  return new ServiceError({ ...base, kind: 'bad-response', message: l10n.t('The service answered with unexpected HTTP {0} while {1}{2}.', status, what, said) });
}

export function parseOffset(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : undefined;
}

// Public surface of the service client.
export { resolveBaseUrl, normalizeBaseUrl, isLoopbackHost, REGION_BASE_URLS, type Region } from './baseUrl';
export { authScheme, authHeaders, looksLikeJwt, CLIENT_SOURCE, CLIENT_SOURCE_HEADER, CLIENT_KEY_HEADER, SPEC_KEY_HEADER, type AuthScheme, type KeyHeaders } from './auth';
export {
  ServiceError,
  ClientValidationError,
  isServiceError,
  isRetryable,
  parseRetryAfter,
  errorForStatus,
  type ServiceErrorKind,
} from './errors';
export { validateMetadata, LIMITS } from './limits';
export {
  ServiceClient,
  MAX_FINDINGS_PER_SCAN,
  MAX_SCAN_BYTES,
  rawServiceRequest,
  type ClientOptions,
  type IntegrationUpdate,
  type PolicyQuery,
  type UploadFields,
  type ChunkRequest,
  type ChunkResult,
  type RequestLogEntry,
  type RolesResult,
  type PoliciesResult,
  type QualityIssuesResult,
  type ScanStatusResult,
} from './client';
export { deprecationWarnings, retryReason, type RetryNotice } from './transport';
export { TransferCookies, type CookieJar, type StoredCookie } from './cookies';
export * from './schemas';

// One error family for everything the service client and the network under it can fail
// with. Messages are shown to users as they are, so each one says what happened and what
// to do next, and none of them ever contains the API key (see api/errors' `redact`). The
// bottom layer of the core: the network layer throws these too.

export type ServiceErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'unprocessable'
  | 'rate-limited'
  | 'server'
  | 'network'
  /** The proxy wants credentials (407), or refused those given: no retry helps until the settings change. */
  | 'proxy-auth'
  | 'timeout'
  | 'bad-response'
  | 'validation'
  | 'aborted'
  /** HTTP 410: the service no longer supports this client's API version. */
  | 'unsupported';

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  /** Client operation that failed, e.g. `listRoles`. */
  operation: string;
  message: string;
  status?: number;
  /** The server's own `error` text (already redacted). */
  serverMessage?: string;
  /** 429: how long the server asked us to wait. */
  retryAfterMs?: number;
  /** 409 on a chunk: the offset the server actually holds. */
  serverOffset?: number;
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly operation: string;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly retryAfterMs?: number;
  readonly serverOffset?: number;

  constructor(init: ServiceErrorInit) {
    super(init.message);
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.operation = init.operation;
    if (init.status !== undefined) this.status = init.status;
    if (init.serverMessage !== undefined) this.serverMessage = init.serverMessage;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.serverOffset !== undefined) this.serverOffset = init.serverOffset;
  }
}

/** Bad input caught before anything is sent (limits, ids, base URL, metadata). */
export class ClientValidationError extends ServiceError {
  constructor(operation: string, message: string) {
    super({ kind: 'validation', operation, message });
    this.name = 'ClientValidationError';
  }
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}

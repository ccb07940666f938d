/**
 * What a service call can fail with. Callers switch on the class (or `kind`): the outbox retries
 * network/timeout/server errors, pauses on unauthorized, and rejects an entry on `RejectedError`.
 * Messages name the method and path, never the token.
 */
export abstract class ServiceError extends Error {
  abstract readonly kind:
    'network' | 'timeout' | 'unauthorized' | 'rejected' | 'server' | 'response' | 'aborted';
  constructor(
    readonly method: string,
    readonly path: string,
    message: string,
  ) {
    super(`${method} ${path}: ${message}`);
    this.name = new.target.name;
  }
}

/**
 * The service could not be reached (offline, refused, reset, DNS). `unreached` says no connection
 * was ever made (refused, no route, the name not found), so nothing of the request reached the
 * service; a connection reset or cut after it was made leaves that unknown.
 */
export class NetworkError extends ServiceError {
  readonly kind = 'network';
  constructor(
    method: string,
    path: string,
    message: string,
    readonly unreached = false,
  ) {
    super(method, path, message);
  }
}

/**
 * The error codes of a connection that was never made: nothing was sent. A reset, a socket
 * closed by the other side or a timeout after connecting are not among them.
 */
const UNREACHED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Whether a failed request never made its connection: the error (a socket's, as `node:http`
 * rejects with) or its cause (as `fetch` rejects with) carries such a code, or, when Node tried
 * several addresses, every one of its errors does.
 */
export function neverConnected(err: unknown): boolean {
  const unreached = (e: unknown): boolean => {
    if (e instanceof AggregateError && e.errors.length > 0) return e.errors.every(unreached);
    const code = e && typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
    return typeof code === 'string' && UNREACHED_CODES.has(code);
  };
  if (unreached(err)) return true;
  return err instanceof Error && err.cause !== undefined && unreached(err.cause);
}

/** No answer within the client's timeout. */
export class TimeoutError extends ServiceError {
  readonly kind = 'timeout';
}

/** HTTP 401: the token is missing, wrong or revoked. */
export class UnauthorizedError extends ServiceError {
  readonly kind = 'unauthorized';
  readonly status = 401;
}

/** Any other 4xx: the service refused this request; `errorMessage` is its reason. */
export class RejectedError extends ServiceError {
  readonly kind = 'rejected';
  constructor(
    method: string,
    path: string,
    readonly status: number,
    readonly errorMessage: string,
  ) {
    super(method, path, `HTTP ${status}: ${errorMessage}`);
  }
}

/** HTTP 429 or 5xx: worth retrying later; `retryAfterMs` when the service said when. */
export class ServerError extends ServiceError {
  readonly kind = 'server';
  constructor(
    method: string,
    path: string,
    readonly status: number,
    readonly retryAfterMs: number | null,
    detail: string,
  ) {
    super(method, path, `HTTP ${status}${detail ? `: ${detail}` : ''}`);
  }
}

/** A 2xx whose body does not match the schema; `field` names the first offending field. */
export class ResponseShapeError extends ServiceError {
  readonly kind = 'response';
  constructor(
    method: string,
    path: string,
    readonly field: string,
    detail: string,
  ) {
    super(method, path, `unexpected response: ${detail}`);
  }
}

/** The caller cancelled (its AbortSignal fired). */
export class AbortedError extends ServiceError {
  readonly kind = 'aborted';
}

/** True for failures that say nothing about the request itself: try again later. */
export function isTransient(err: unknown): boolean {
  return err instanceof NetworkError || err instanceof TimeoutError || err instanceof ServerError;
}

/** True when the service could not be reached at all (the app is offline). */
export function isOffline(err: unknown): boolean {
  return err instanceof NetworkError || err instanceof TimeoutError;
}

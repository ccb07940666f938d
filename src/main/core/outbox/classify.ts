import {
  AbortedError,
  NetworkError,
  RejectedError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../api/errors';
import type { Failure } from './types';

/**
 * Rule 4 for the service client's errors. A network error, a timeout, a 5xx or an answer we
 * could not read may all come after the service applied the request: the outcome is unknown
 * and the entry is looked up before it is sent again. A 429 and a 401 are refusals; any other
 * 4xx rejects the entry with the service's `errorMessage`.
 */
export function classifyServiceError(err: unknown): Failure {
  if (err instanceof UnauthorizedError)
    return { class: 'unauthorized', message: 'The service refused the token' };
  if (err instanceof RejectedError) return { class: 'rejected', message: err.errorMessage };
  if (err instanceof ServerError) {
    if (err.status === 429) {
      return {
        class: 'throttled',
        message: 'The service asked to slow down',
        ...(err.retryAfterMs !== null ? { retryAfterMs: err.retryAfterMs } : {}),
      };
    }
    return { class: 'unknown-outcome', message: `The service failed (HTTP ${err.status})` };
  }
  if (err instanceof TimeoutError)
    return { class: 'unknown-outcome', message: 'The service did not answer in time' };
  if (err instanceof NetworkError && err.unreached)
    return { class: 'unreached', message: 'The service could not be reached' };
  if (err instanceof NetworkError || err instanceof AbortedError) {
    return { class: 'unknown-outcome', message: 'The service could not be reached' };
  }
  if (err instanceof ResponseShapeError) return { class: 'unknown-outcome', message: err.message };
  return { class: 'unknown-outcome', message: err instanceof Error ? err.message : String(err) };
}

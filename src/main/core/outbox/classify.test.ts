import { describe, expect, it } from 'vitest';
import { NetworkError, RejectedError, ServerError, TimeoutError, UnauthorizedError } from '../api/errors';
import { classifyServiceError } from './classify';

describe('classifyServiceError (rule 4)', () => {
  it('treats lost connections, timeouts and 5xx as an unknown outcome', () => {
    expect(classifyServiceError(new NetworkError('PUT', '/task/1/update', 'reset')).class).toBe(
      'unknown-outcome',
    );
    expect(classifyServiceError(new TimeoutError('PUT', '/task/1/update', 'slow')).class).toBe(
      'unknown-outcome',
    );
    expect(classifyServiceError(new ServerError('PUT', '/x', 503, null, '')).class).toBe('unknown-outcome');
  });

  it('treats a connection never made as unreached: nothing was sent', () => {
    expect(classifyServiceError(new NetworkError('PUT', '/task/1/update', 'refused', true))).toEqual({
      class: 'unreached',
      message: 'The service could not be reached',
    });
  });

  it('treats 429 as throttled with the wait the service asked for', () => {
    expect(classifyServiceError(new ServerError('PUT', '/x', 429, 7_000, ''))).toMatchObject({
      class: 'throttled',
      retryAfterMs: 7_000,
    });
  });

  it('pauses on 401 and rejects other 4xx with the service message', () => {
    expect(classifyServiceError(new UnauthorizedError('GET', '/x', 'no')).class).toBe('unauthorized');
    expect(classifyServiceError(new RejectedError('PUT', '/x', 400, 'title: must not be empty'))).toEqual({
      class: 'rejected',
      message: 'title: must not be empty',
    });
  });
});

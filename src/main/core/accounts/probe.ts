import { HandlerError } from '../dispatch';
import type { EngineConnection } from '../engine';

/** How the core reaches one service: the engine's connection, with the header name settled. */
export type Connection = EngineConnection & { tokenHeader: string };

export type Probe = (connection: Connection) => Promise<void>;

/**
 * The test call made before an account is saved: the acting user's action-required tasks,
 * which needs a valid token and answers a JSON array. Failures are `HandlerError`s naming the
 * field the user should fix.
 */
export function createProbe(fetchFn: typeof fetch = fetch, timeoutMs = 10_000): Probe {
  return async (connection) => {
    const url = `${connection.baseUrl}/user/${encodeURIComponent(connection.userId)}/action-required-tasks`;
    let response: Response;
    try {
      response = await fetchFn(url, {
        headers: { [connection.tokenHeader]: connection.token, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new HandlerError('offline', `Could not reach ${connection.baseUrl}: ${reason}`, 'baseUrl');
    }
    if (response.status === 401 || response.status === 403) {
      throw new HandlerError(
        'unauthorized',
        `The service at ${connection.baseUrl} refused the token`,
        'token',
      );
    }
    if (response.status === 404) {
      throw new HandlerError(
        'rejected',
        `The service at ${connection.baseUrl} does not know user "${connection.userId}" (or is not a Work Management Service 2.0)`,
        'userId',
      );
    }
    if (!response.ok) {
      throw new HandlerError(
        'rejected',
        `The service at ${connection.baseUrl} answered HTTP ${response.status}`,
        'baseUrl',
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    if (!Array.isArray(body)) {
      throw new HandlerError(
        'rejected',
        `${connection.baseUrl} did not answer like a Work Management Service 2.0`,
        'baseUrl',
      );
    }
  };
}

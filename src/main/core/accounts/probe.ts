import { User } from '../../../shared/api/org';
import type { OrganizationUser } from '../../../shared/ipc/accounts';
import { HandlerError } from '../errors';
import type { EngineConnection } from '../engine';

/** How the core reaches one service: the engine's connection, with the header name settled. */
export type Connection = EngineConnection & { tokenHeader: string };

export type Probe = (connection: Connection) => Promise<void>;

/**
 * GETs `path` of the service with the token and answers its JSON array. Failures are
 * `HandlerError`s naming the field the user should fix: the address when the service cannot be
 * reached or does not answer like this API, the token when it is refused; `refusal` names the
 * field for a status only its caller can read (a 404 means another thing on each path).
 */
async function readArray(
  fetchFn: typeof fetch,
  timeoutMs: number,
  connection: Omit<Connection, 'userId'>,
  path: string,
  refusal: (status: number) => HandlerError | undefined,
): Promise<unknown[]> {
  const { baseUrl, token, tokenHeader } = connection;
  let response: Response;
  try {
    response = await fetchFn(`${baseUrl}${path}`, {
      headers: { [tokenHeader]: token, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new HandlerError('offline', `Could not reach ${baseUrl}: ${reason}`, 'baseUrl');
  }
  if (response.status === 401 || response.status === 403) {
    throw new HandlerError(
      'unauthorized',
      `The service at ${baseUrl} refused the token (sent in the ${tokenHeader} header)`,
      'token',
    );
  }
  const refused = response.ok ? undefined : refusal(response.status);
  if (refused) throw refused;
  if (!response.ok) {
    throw new HandlerError(
      'rejected',
      `The service at ${baseUrl} answered HTTP ${response.status}`,
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
      `${baseUrl} did not answer like a Work Management Service 2.0`,
      'baseUrl',
    );
  }
  return body;
}

/**
 * The test call made before an account is saved: the acting user's action-required tasks,
 * which needs a valid token and answers a JSON array.
 */
export function createProbe(fetchFn: typeof fetch = fetch, timeoutMs = 10_000): Probe {
  return async (connection) => {
    const path = `/user/${encodeURIComponent(connection.userId)}/action-required-tasks`;
    await readArray(fetchFn, timeoutMs, connection, path, (status) =>
      status === 404
        ? new HandlerError(
            'rejected',
            `The service at ${connection.baseUrl} does not know user "${connection.userId}" (or is not a Work Management Service 2.0)`,
            'userId',
          )
        : undefined,
    );
  };
}

/** The users of a service's organization, read with a token before an account is saved. */
export type UserLister = (
  connection: Omit<Connection, 'userId'>,
) => Promise<{ users: OrganizationUser[]; unreadable: number }>;

/**
 * GET /users with the given token: the first call of the add-account form, so the user picks
 * who they are by name and e-mail instead of typing an id. Users are read one by one (one that
 * cannot be read is counted, not fatal) and sorted by name. Failures name the field to fix.
 */
export function createUserLister(fetchFn: typeof fetch = fetch, timeoutMs = 10_000): UserLister {
  return async (connection) => {
    const body = await readArray(fetchFn, timeoutMs, connection, '/users', (status) =>
      status === 404
        ? new HandlerError(
            'rejected',
            `${connection.baseUrl} has no user list (HTTP 404): is the address right, ending with /2.0?`,
            'baseUrl',
          )
        : undefined,
    );
    const users: OrganizationUser[] = [];
    let unreadable = 0;
    for (const item of body) {
      const parsed = User.safeParse(item);
      if (parsed.success) {
        users.push({ id: parsed.data.id, name: parsed.data.name, email: parsed.data.primaryEmail });
      } else unreadable++;
    }
    users.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
    return { users, unreadable };
  };
}

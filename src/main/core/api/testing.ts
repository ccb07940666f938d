import type { AnyEndpoint } from '../../../shared/api/endpoint';
import type { ServiceClient, UnreadListAnswer } from './client';
import { fingerprintOf } from './list-elements';

/** What a test double of the service answers one endpoint with, given the call's arguments. */
export type FakeAnswer = (...args: never[]) => unknown;

/**
 * A call's arguments in the order a test double reads them: the path's parameters as its
 * template names them, then the query and the body when given (`updateProjectUser`:
 * `projectId, userId, body`).
 */
export function argumentsOf(endpoint: AnyEndpoint, input: Record<string, unknown> = {}): unknown[] {
  const params = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => input[name!]);
  return [...params, input.query, input.body].filter((a) => a !== undefined);
}

/**
 * A service client for unit tests that answers each endpoint by its name (`taskEndpoints.task`:
 * `task`) with the function `answers` holds for it, called with `argumentsOf` the call; an
 * endpoint without one answers undefined. `onCall` is told every call, before it is answered.
 */
export function fakeServiceClient(
  answers: Partial<Record<string, FakeAnswer>>,
  onCall?: (name: string, args: unknown[]) => void,
): ServiceClient {
  const call = async (endpoint: AnyEndpoint, input?: Record<string, unknown>): Promise<unknown> => {
    const args = argumentsOf(endpoint, input);
    onCall?.(endpoint.name, args);
    const answer = answers[endpoint.name] as ((...args: unknown[]) => unknown) | undefined;
    return answer?.(...args);
  };
  // A list answered unread: fingerprinted as its JSON text, read as given.
  const callUnread = async (
    endpoint: AnyEndpoint,
    input?: Record<string, unknown>,
  ): Promise<UnreadListAnswer<unknown> | null> => {
    const items = (await call(endpoint, input)) as unknown[] | null | undefined;
    if (items == null) return null;
    return {
      fingerprint: fingerprintOf(JSON.stringify(items)),
      read: () => ({ items, skipped: [] }),
      readInSlices: async () => ({ items, skipped: [] }),
      tell: () => undefined,
      held: () => undefined,
    };
  };
  return {
    requestCount: 0,
    onListRead: () => () => undefined,
    call,
    callUnread,
    upload: async () => undefined,
  } as unknown as ServiceClient;
}

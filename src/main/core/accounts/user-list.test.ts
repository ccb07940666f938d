import { describe, expect, it } from 'vitest';
import { LIVE_USERS } from '../../../shared/api/live-bodies.fixture';
import { HandlerError } from '../errors';
import { createUserLister } from './probe';

const connection = { baseUrl: 'http://svc.test/2.0', token: 'tok', tokenHeader: 'gd-api-token' };

function answering(
  status: number,
  body: unknown,
  seen: { url: string; headers: unknown }[] = [],
): typeof fetch {
  return (async (url: string, init: RequestInit) => {
    seen.push({ url, headers: init.headers });
    return new Response(JSON.stringify(body), { status });
  }) as typeof fetch;
}

async function failure(list: ReturnType<typeof createUserLister>): Promise<HandlerError> {
  const err = await list(connection).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(HandlerError);
  return err as HandlerError;
}

describe('the add-account form reads the organization users to pick from', () => {
  it('answers them by name with their e-mail, with the token in the chosen header', async () => {
    const seen: { url: string; headers: unknown }[] = [];
    const list = createUserLister(answering(200, [LIVE_USERS[1], LIVE_USERS[0]], seen));
    expect(await list(connection)).toEqual({
      users: [
        { id: 'Ua1B2c', name: 'Ada Lovelace', email: 'ada@example.com' },
        { id: 'Ub3C4d', name: 'Bob Brown', email: 'bob@example.com' },
      ],
      unreadable: 0,
    });
    expect(seen).toEqual([
      { url: 'http://svc.test/2.0/users', headers: { 'gd-api-token': 'tok', accept: 'application/json' } },
    ]);
  });

  it('counts a user it cannot read and lists the others', async () => {
    const list = createUserLister(answering(200, [LIVE_USERS[0], { id: 'x', name: null }]));
    expect(await list(connection)).toMatchObject({ users: [{ id: 'Ua1B2c' }], unreadable: 1 });
  });

  it('names the token when refused, the address otherwise', async () => {
    expect(await failure(createUserLister(answering(401, { errorMessage: 'no' })))).toMatchObject({
      type: 'unauthorized',
      field: 'token',
    });
    expect(await failure(createUserLister(answering(404, {})))).toMatchObject({
      type: 'rejected',
      field: 'baseUrl',
    });
    expect(await failure(createUserLister(answering(200, { not: 'users' })))).toMatchObject({
      field: 'baseUrl',
    });
    const offline = createUserLister((async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    expect(await failure(offline)).toMatchObject({ type: 'offline', field: 'baseUrl' });
  });
});

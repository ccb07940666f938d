import { describe, expect, it } from 'vitest';
import { createServiceClient, type ListRead } from './client';
import {
  AbortedError,
  NetworkError,
  RejectedError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  isOffline,
  isTransient,
} from './errors';
import type { FetchLike } from './http';
import { aTask } from '../cache/fixtures';
import { taskEndpoints } from '../../../shared/api/tasks';
import { messageEndpoints } from '../../../shared/api/messages';
import { orgEndpoints } from '../../../shared/api/org';

const TOKEN = 'secret-token-123';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

function fakeFetch(answer: (req: Seen) => Response | Promise<Response>): { fetch: FetchLike; seen: Seen[] } {
  const seen: Seen[] = [];
  return {
    seen,
    fetch: async (url, init) => {
      const req: Seen = {
        url,
        method: String(init.method),
        headers: init.headers as Record<string, string>,
        body: (init.body as string | null) ?? null,
      };
      seen.push(req);
      return answer(req);
    },
  };
}

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

function client(fetch: FetchLike, extra: { tokenHeader?: string; timeoutMs?: number } = {}) {
  const log: string[] = [];
  const c = createServiceClient({
    baseUrl: 'http://svc.test/2.0/',
    token: TOKEN,
    fetch,
    log: (m) => log.push(m),
    ...extra,
  });
  return { c, log };
}

describe('service client', () => {
  it('sends the token in the configured header and query flags, and parses the response', async () => {
    const task = aTask({ id: 't1', projectId: 'p 1' });
    const f = fakeFetch(() => json([task]));
    const { c } = client(f.fetch, { tokenHeader: 'gd-api-token' });
    expect(
      await c.call(taskEndpoints.projectTasks, { id: 'p 1', query: { closed: true, subfolders: true } }),
    ).toEqual([task]);
    expect(f.seen[0]).toMatchObject({
      method: 'GET',
      url: 'http://svc.test/2.0/project/p%201/tasks?closed=true&subfolders=true',
      headers: { 'gd-api-token': TOKEN },
    });
    expect(c.requestCount).toBe(1);
  });

  it('defaults to the svc-api-token header and sends JSON bodies on writes, accepting OK, "OK" or empty', async () => {
    const answers: Record<string, () => Response> = {
      PUT: () => new Response('OK', { status: 200 }),
      DELETE: () => new Response('', { status: 200 }),
      // As the live service answers: the JSON string "OK".
      POST: () => json('OK'),
    };
    const f = fakeFetch((req) => answers[req.method]!());
    const { c } = client(f.fetch);
    await c.call(taskEndpoints.updateTask, { id: 't1', body: { userId: 'u1', title: 'New' } });
    await c.call(taskEndpoints.deleteTask, { id: 't1' });
    await expect(
      c.call(messageEndpoints.comment, { id: 't1', body: { userId: 'u1', message: 'Hi' } }),
    ).resolves.toBeUndefined();
    expect(f.seen[0]).toMatchObject({
      method: 'PUT',
      headers: { 'svc-api-token': TOKEN, 'content-type': 'application/json' },
    });
    expect(JSON.parse(f.seen[0]!.body!)).toEqual({ userId: 'u1', title: 'New' });
    expect(f.seen[1]).toMatchObject({ method: 'DELETE', url: 'http://svc.test/2.0/task/t1', body: null });
  });

  it('skips a list item that does not match its schema, reads the rest and reports the field', async () => {
    const bad = { ...aTask({ id: 't1', projectId: 'p1' }), priority: 'high' };
    const good = aTask({ id: 't2', projectId: 'p1' });
    const { c } = client(fakeFetch(() => json([bad, good])).fetch);
    const reads: ListRead[] = [];
    const off = c.onListRead((read) => reads.push(read));
    expect((await c.call(taskEndpoints.projectTasks, { id: 'p1' })).map((t) => t.id)).toEqual(['t2']);
    expect(reads).toEqual([
      {
        method: 'GET',
        path: '/project/p1/tasks',
        total: 2,
        skipped: [{ index: 0, id: 't1', field: 'priority', message: expect.stringContaining('priority: ') }],
      },
    ]);
    off();
    await c.call(taskEndpoints.projectTasks, { id: 'p1' });
    expect(reads).toHaveLength(1);
  });

  it('answers a list unread: fingerprinted by its text, parsed and told as read only when asked', async () => {
    const bad = { ...aTask({ id: 't1', projectId: 'p1' }), priority: 'high' };
    const good = aTask({ id: 't2', projectId: 'p1' });
    let answer: unknown[] = [bad, good];
    const { c } = client(fakeFetch(() => json(answer)).fetch);
    const reads: ListRead[] = [];
    c.onListRead((read) => reads.push(read));
    const first = await c.callUnread(taskEndpoints.projectTasks, { id: 'p1' });
    const again = await c.callUnread(taskEndpoints.projectTasks, { id: 'p1' });
    // The same text, the same fingerprint; nothing parsed nor told until read.
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(reads).toEqual([]);
    const read = first.read();
    expect(read.items.map((t) => t.id)).toEqual(['t2']);
    expect(read.skipped).toEqual([expect.objectContaining({ index: 0, id: 't1', field: 'priority' })]);
    expect(reads).toEqual([
      expect.objectContaining({ path: '/project/p1/tasks', total: 2, skipped: read.skipped }),
    ]);
    // Held by the caller: told as a read of its items with none skipped.
    again.held(2);
    expect(reads[1]).toEqual({ method: 'GET', path: '/project/p1/tasks', total: 2, skipped: [] });
    answer = [good];
    expect((await c.callUnread(taskEndpoints.projectTasks, { id: 'p1' })).fingerprint).not.toBe(
      first.fingerprint,
    );
  });

  it('answers null for a list the service does not offer, and names a body that is not a list once read', async () => {
    const { c } = client(fakeFetch(() => json({ errorMessage: 'no such route' }, 404)).fetch);
    expect(await c.callUnread(orgEndpoints.tags, {})).toBeNull();
    const { c: other } = client(fakeFetch(() => json({ not: 'a list' })).fetch);
    const unread = await other.callUnread(taskEndpoints.projectTasks, { id: 'p1' });
    expect(() => unread.read()).toThrow(ResponseShapeError);
  });

  it('reads a list unread a slice at a time as read() does: an unreadable element skipped, named and logged', async () => {
    const bad = { ...aTask({ id: 't1', projectId: 'p1' }), priority: 'high' };
    const good = aTask({ id: 't2', projectId: 'p1' });
    const { c, log } = client(fakeFetch(() => json([bad, good])).fetch);
    const reads: ListRead[] = [];
    c.onListRead((read) => reads.push(read));
    const inSlices = await (await c.callUnread(taskEndpoints.projectTasks, { id: 'p1' })).readInSlices();
    expect(inSlices.items.map((t) => t.id)).toEqual(['t2']);
    expect(inSlices.skipped).toEqual([
      { index: 0, id: 't1', field: 'priority', message: expect.stringContaining('priority: ') },
    ]);
    expect(reads).toEqual([
      { method: 'GET', path: '/project/p1/tasks', total: 2, skipped: inSlices.skipped },
    ]);
    const logged = [...log];
    expect(logged).toEqual([
      expect.stringMatching(/^GET \/project\/p1\/tasks: 1 of 2 items unreadable \(priority: /),
    ]);
    // The same answer read at once: the same items, skipped items and log line.
    log.length = 0;
    const atOnce = (await c.callUnread(taskEndpoints.projectTasks, { id: 'p1' })).read();
    expect(inSlices).toEqual(atOnce);
    expect(log).toEqual(logged);
  });

  it('tells a list read untold only when its caller tells it, as the parts of one list', async () => {
    const bad = { ...aTask({ id: 't1', projectId: 'p1' }), priority: 'high' };
    const { c } = client(fakeFetch(() => json([bad, aTask({ id: 't2', projectId: 'p1' })])).fetch);
    const reads: ListRead[] = [];
    c.onListRead((read) => reads.push(read));
    const unread = await c.callUnread(taskEndpoints.projectTasks, { id: 'p1' });
    const read = await unread.readInSlices({ untold: true });
    expect(read.skipped.map((s) => s.id)).toEqual(['t1']);
    expect(reads).toEqual([]);
    unread.tell({ total: 5, skipped: read.skipped });
    expect(reads).toEqual([{ method: 'GET', path: '/project/p1/tasks', total: 5, skipped: read.skipped }]);
  });

  it('fails a list read a slice at a time whose body is not a list, naming the body', async () => {
    const { c } = client(fakeFetch(() => json({ not: 'a list' })).fetch);
    const unread = await c.callUnread(taskEndpoints.projectTasks, { id: 'p1' });
    const err = await unread.readInSlices().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as ResponseShapeError).field).toBe('body');
    expect((err as Error).message).toContain('GET /project/p1/tasks');
  });

  it('names the body when a list answer is not a list, or a single answer does not match', async () => {
    const { c } = client(fakeFetch(() => json({ not: 'a list' })).fetch);
    const err = await c.call(taskEndpoints.projectTasks, { id: 'p1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as ResponseShapeError).field).toBe('body');
    expect((err as Error).message).toContain('GET /project/p1/tasks');
    const single = client(fakeFetch(() => json({ ...aTask({ id: 't1', projectId: 'p1' }), name: 7 })).fetch);
    const detail = await single.c.call(taskEndpoints.task, { id: 't1' }).catch((e: unknown) => e);
    expect(detail).toBeInstanceOf(ResponseShapeError);
    expect((detail as ResponseShapeError).field).toBe('name');
  });

  it('classifies failures, carrying errorMessage, and never shows the token', async () => {
    const cases: [Response | Error, unknown][] = [
      [json({ errorMessage: 'bad token' }, 401), UnauthorizedError],
      [json({ errorMessage: 'title: must not be empty' }, 400), RejectedError],
      [new Response('slow down', { status: 429, headers: { 'retry-after': '2' } }), ServerError],
      [new Response('', { status: 503 }), ServerError],
      [
        new TypeError('fetch failed', {
          cause: new Error('connect ECONNREFUSED 127.0.0.1:9'),
        }),
        NetworkError,
      ],
    ];
    for (const [answer, cls] of cases) {
      const { c, log } = client(
        fakeFetch(() => {
          if (answer instanceof Error) throw answer;
          return answer.clone();
        }).fetch,
      );
      const err = await c.call(taskEndpoints.task, { id: 't1' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(cls);
      expect(
        JSON.stringify({ message: (err as Error).message, stack: (err as Error).stack, log }),
      ).not.toContain(TOKEN);
    }
    const { c } = client(fakeFetch(() => json({ errorMessage: 'title: must not be empty' }, 400)).fetch);
    const rejected = (await c
      .call(taskEndpoints.createTask, { body: { projectId: 'p', title: '', fromUserId: 'u' } })
      .catch((e: unknown) => e)) as RejectedError;
    expect(rejected).toMatchObject({
      status: 400,
      errorMessage: 'title: must not be empty',
      kind: 'rejected',
    });
    const { c: c429 } = client(
      fakeFetch(() => new Response('', { status: 429, headers: { 'retry-after': '2' } })).fetch,
    );
    expect(await c429.call(orgEndpoints.users).catch((e: unknown) => e)).toMatchObject({
      status: 429,
      retryAfterMs: 2000,
    });
  });

  it('answers null for an organization read the service does not offer', async () => {
    const { c } = client(fakeFetch(() => json({ errorMessage: 'no such path' }, 404)).fetch);
    expect(await c.call(orgEndpoints.statuses)).toBeNull();
    await expect(c.call(taskEndpoints.task, { id: 'gone' })).rejects.toMatchObject({ status: 404 });
  });

  it('times out a hung request and honours cancellation', async () => {
    const hang: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const { c } = client(hang, { timeoutMs: 20 });
    const timedOut = await c.call(taskEndpoints.task, { id: 't1' }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(isOffline(timedOut) && isTransient(timedOut)).toBe(true);
    const { c: slow } = client(hang, { timeoutMs: 60_000 });
    const controller = new AbortController();
    const pending = slow.call(taskEndpoints.task, { id: 't1' }, controller.signal).catch((e: unknown) => e);
    controller.abort();
    expect(await pending).toBeInstanceOf(AbortedError);
  });

  it('uploads raw bytes with the given content type and no service header', async () => {
    const f = fakeFetch(() => new Response('', { status: 200 }));
    const { c } = client(f.fetch);
    await c.upload('http://svc.test/upload/abc?sig=1', new Uint8Array([1, 2]), 'image/png');
    expect(f.seen[0]).toMatchObject({
      method: 'PUT',
      url: 'http://svc.test/upload/abc?sig=1',
      headers: { 'content-type': 'image/png' },
    });
    expect(f.seen[0]!.headers['svc-api-token']).toBeUndefined();
  });
});

// The client's one `call` over the endpoints each resource declares beside its schemas: the
// path, query and body it sends, the answer it reads, and (checked by `tsc`, which compiles this
// file) the calls that must not compile.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { dependencyEndpoints } from '../../../shared/api/dependencies';
import { eventEndpoints } from '../../../shared/api/events';
import { historyEndpoints } from '../../../shared/api/history';
import { memberEndpoints } from '../../../shared/api/members';
import { orgEndpoints } from '../../../shared/api/org';
import { taskEndpoints, type TaskDetail } from '../../../shared/api/tasks';
import { timeReportEndpoints, type TimeReport } from '../../../shared/api/time-reports';
import { createServiceClient } from './client';
import type { FetchLike } from './http';
import { argumentsOf } from './testing';

interface Seen {
  method: string;
  url: string;
  body: string | null;
}

function serviceAnswering(answer: (req: Seen) => Response) {
  const seen: Seen[] = [];
  const fetch: FetchLike = async (url, init) => {
    const req = { method: String(init.method), url, body: (init.body as string | null) ?? null };
    seen.push(req);
    return answer(req);
  };
  return { seen, client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch }) };
}

const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });

describe('calling an endpoint', () => {
  it('puts the path parameters in, encoded, and sends the body as JSON', async () => {
    const { seen, client } = serviceAnswering(() => new Response('OK'));
    await client.call(memberEndpoints.updateProjectUser, {
      projectId: 'p 1',
      userId: 'u/2',
      body: { userId: 'me', access: 2 },
    });
    expect(seen).toEqual([
      {
        method: 'PUT',
        url: 'http://svc.test/2.0/project/p%201/user/u%2F2',
        body: '{"userId":"me","access":2}',
      },
    ]);
  });

  it('sends only the query keys its schema names, a list comma-separated', async () => {
    const { seen, client } = serviceAnswering(() => json([]));
    const query = {
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      eventTypes: ['company-holiday', 'company-event'] as const,
    };
    await client.call(eventEndpoints.events, { query: { ...query, extra: 'x' } as typeof query });
    expect(seen[0]!.url).toBe(
      'http://svc.test/2.0/events?startDate=2026-01-01&endDate=2026-01-31&eventTypes=company-holiday%2Ccompany-event',
    );
  });

  it('answers null for a read the service does not offer, and names the item it cannot read', async () => {
    const { client } = serviceAnswering((req) =>
      req.url.endsWith('/tags') ? json({ errorMessage: 'no such path' }, 404) : json({ id: 't1' }),
    );
    expect(await client.call(orgEndpoints.tags)).toBeNull();
    await expect(client.call(taskEndpoints.task, { id: 't1' })).rejects.toMatchObject({ field: 'name' });
  });

  it('tries a fallback path on a 404 and keeps to the one that answered', async () => {
    const { seen, client } = serviceAnswering((req) =>
      req.url.includes('/projects/') ? json({ errorMessage: 'not here' }, 404) : json([]),
    );
    expect(await client.call(historyEndpoints.projectHistory, { id: 'p1' })).toEqual([]);
    expect(await client.call(historyEndpoints.projectHistory, { id: 'p2' })).toEqual([]);
    expect(seen.map((s) => s.url)).toEqual([
      'http://svc.test/2.0/projects/p1/history',
      'http://svc.test/2.0/project/p1/history',
      'http://svc.test/2.0/project/p2/history',
    ]);
  });

  it('reads a create that answers the item or OK as the item or null', async () => {
    const report = {
      id: 'r1',
      reportDate: '2026-01-02',
      momentCreated: '2026-01-02T10:00:00',
      projectId: 'p1',
      userId: 'u1',
      taskId: 't1',
      reported: 30,
      message: '',
      isBillable: false,
    };
    const body = { userId: 'u1', reportedMinutes: 30 };
    const ours = serviceAnswering(() => json(report)).client;
    expect(await ours.call(timeReportEndpoints.createTimeReport, { id: 't1', body })).toEqual(report);
    const live = serviceAnswering(() => json('OK')).client;
    expect(await live.call(timeReportEndpoints.createTimeReport, { id: 't1', body })).toBeNull();
  });

  it("gives a test double the call's arguments in the template's order, then query and body", () => {
    expect(
      argumentsOf(memberEndpoints.removeProjectUser, {
        projectId: 'p1',
        userId: 'u1',
        body: { userId: 'me' },
      }),
    ).toEqual(['p1', 'u1', { userId: 'me' }]);
    expect(argumentsOf(taskEndpoints.projectTasks, { id: 'p1' })).toEqual(['p1']);
  });

  it('types the input and the answer from the endpoint: a wrong parameter or body does not compile', () => {
    const { client } = serviceAnswering(() => json({}));
    const setStatus = taskEndpoints.updateTaskStatus;
    // Only compiled, never run: `tsc` checks the answers' types and refuses the calls marked.
    const calls = () => {
      expectTypeOf(client.call(taskEndpoints.task, { id: 't1' })).resolves.toEqualTypeOf<TaskDetail>();
      expectTypeOf(client.call(timeReportEndpoints.taskTimeReports, { id: 't1' })).resolves.toEqualTypeOf<
        TimeReport[]
      >();
      expectTypeOf(client.call(orgEndpoints.users)).resolves.toBeNullable();
      expectTypeOf(client.call(taskEndpoints.deleteTask, { id: 't1' })).resolves.toBeVoid();
      // @ts-expect-error: the path names `id`, not `taskId`
      void client.call(taskEndpoints.task, { taskId: 't1' });
      // @ts-expect-error: a path parameter left out
      void client.call(memberEndpoints.addProjectUser, { projectId: 'p1', body: { userId: 'u', access: 2 } });
      // @ts-expect-error: the input is needed when the path has parameters
      void client.call(taskEndpoints.task);
      // @ts-expect-error: the dependency lists are read for a task, an event or a project only
      void client.call(dependencyEndpoints.dependencies, { kind: 'crm', id: 'x' });
      // @ts-expect-error: an update's body needs the acting user
      void client.call(taskEndpoints.updateTask, { id: 't1', body: { title: 'New' } });
      // @ts-expect-error: a field the body does not have
      void client.call(setStatus, { id: 't1', body: { userId: 'u', statusId: 's', state: 1 } });
      // @ts-expect-error: a body where the endpoint takes none is not sent, so not accepted
      void client.call(taskEndpoints.deleteTask, { id: 't1', body: { userId: 'u' } });
      // @ts-expect-error: a query key its schema does not name
      void client.call(taskEndpoints.projectTasks, { id: 'p1', query: { archived: true } });
      // @ts-expect-error: `known` is for the list read with fingerprints only
      void client.call(taskEndpoints.projectTasks, { id: 'p1' }, { known: { idOf: () => undefined } });
    };
    void calls;
  });
});

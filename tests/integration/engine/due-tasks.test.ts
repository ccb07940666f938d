// Home's "late and due soon" read (`tasks.due`) after a sync, against the real service (in both
// answer profiles: the `integration-goodday` project runs this file again as GoodDay answers): the acting user's open tasks (assigned or awaiting their action) with a
// deadline up to a day, grouped as the service's own lists of the user's tasks say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, TEST_PROFILE, type RunningService } from '../../support/service';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { taskEndpoints, type Task } from '../../../src/shared/api/tasks';
import { testEngine } from './support';

/** The local day `offset` days from now, as YYYY-MM-DD (the renderer names days this way). */
function day(offset: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

describe(`tasks.due against the ${TEST_PROFILE} profile`, () => {
  let svc: RunningService;
  let api: ServiceClient;
  let engine: Awaited<ReturnType<typeof testEngine>>;
  const today = day(0);
  const through = day(6);

  beforeAll(async () => {
    svc = await startService({ seed: 'demo' });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    const me = svc.users.actingUserId;
    // Three of my open tasks dated late, today and in a few days, whatever the seed dated.
    const assigned = await api.call(taskEndpoints.assignedTasks, { id: me });
    const open = assigned.filter((t) => !t.momentClosed);
    expect(open.length).toBeGreaterThanOrEqual(3);
    for (const [task, deadline] of [
      [open[0]!, day(-3)],
      [open[1]!, today],
      [open[2]!, day(2)],
    ] as const) {
      await api.call(taskEndpoints.updateTask, { id: task.id, body: { userId: me, deadline } });
    }
    engine = await testEngine(svc.baseUrl, svc.token, me);
    expect((await engine.sync.now()).lastError).toBeNull();
  });

  afterAll(async () => {
    await engine?.close();
    await svc?.close();
  });

  /** My open tasks with a deadline up to `through`, as the service lists them, by group. */
  async function fromService(): Promise<Record<'late' | 'today' | 'later', Task[]>> {
    const me = svc.users.actingUserId;
    const lists = [
      ...(await api.call(taskEndpoints.assignedTasks, { id: me })),
      ...(await api.call(taskEndpoints.actionRequiredTasks, { id: me })),
    ];
    const mine = [...new Map(lists.map((t) => [t.id, t])).values()].filter(
      (t) =>
        !t.momentClosed &&
        (t.assignedToUserId === me || t.actionRequiredUserId === me) &&
        t.deadline !== null &&
        t.deadline <= through,
    );
    return {
      late: mine.filter((t) => t.deadline! < today),
      today: mine.filter((t) => t.deadline === today),
      later: mine.filter((t) => t.deadline! > today),
    };
  }

  it('answers the groups the service lists, each sorted by deadline, from the cache', async () => {
    const expected = await fromService();
    for (const group of ['late', 'today', 'later'] as const)
      expect(expected[group].length).toBeGreaterThan(0);
    const before = engine.client.requestCount;
    const due = await engine.call('tasks.due', { today, through, perGroup: 200 });
    expect(engine.client.requestCount).toBe(before);
    for (const group of ['late', 'today', 'later'] as const) {
      const rows = due[group].rows;
      expect(rows.map((r) => r.id).sort()).toEqual(expected[group].map((t) => t.id).sort());
      expect(due[group].total).toBe(expected[group].length);
      const deadlines = rows.map((r) => r.deadline!);
      expect(deadlines).toEqual([...deadlines].sort());
      for (const row of rows) {
        const task = expected[group].find((t) => t.id === row.id)!;
        expect(row).toMatchObject({ name: task.name, projectId: task.projectId, deadline: task.deadline });
      }
    }
  });

  it('lists each group up to perGroup and still counts it whole', async () => {
    const expected = await fromService();
    const due = await engine.call('tasks.due', { today, through, perGroup: 1 });
    for (const group of ['late', 'today', 'later'] as const) {
      expect(due[group].rows).toHaveLength(1);
      expect(due[group].total).toBe(expected[group].length);
      expect(due[group].rows[0]!.deadline).toBe(expected[group].map((t) => t.deadline!).sort()[0]);
    }
  });

  it('refuses a last day before today, naming the field', async () => {
    await expect(engine.call('tasks.due', { today, through: day(-1) })).rejects.toThrow(/through/);
  });
});

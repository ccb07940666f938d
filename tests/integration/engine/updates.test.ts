// The Updates view's engine part: what each pull brought (comments, replies, status and assignee
// changes, new tasks) on the user's tasks, recorded while the pull stores it; the user's own
// edits are not updates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { testEngine, type TestEngine } from '../outbox/support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { orgEndpoints } from '../../../src/shared/api/org';
import { messageEndpoints } from '../../../src/shared/api/messages';

describe.each(SERVICE_PROFILES)('on the %s profile', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  let engine: TestEngine;

  beforeAll(async () => {
    svc = await startService({ seed: 'demo', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
    expect((await engine.sync.now()).lastError).toBeNull();
  });

  afterAll(async () => {
    await engine?.close();
    await svc?.close();
  });

  describe('updates: what pulls brought', () => {
    it('records nothing for the first pull, then what other users did on my tasks, grouped by task', async () => {
      const { actingUserId: me, bob, cleo, dan } = svc.users;
      expect((await engine.call('updates.list', {})).groups).toEqual([]);
      const mine = await api.call(taskEndpoints.assignedTasks, { id: me });
      const created = (await api.call(taskEndpoints.projectTasks, { id: 'g7-p1' })).find(
        (t) => t.createdByUserId === me && t.assignedToUserId !== me && t.actionRequiredUserId !== me,
      )!;
      const other = (await api.call(taskEndpoints.projectTasks, { id: 'g7-p2' })).find(
        (t) => t.assignedToUserId !== me && t.createdByUserId !== me,
      )!;
      const [commented, ownChange] = [mine[0]!, mine[1]!];
      const statuses = (await api.call(orgEndpoints.statuses)) ?? [];
      const inProgress = statuses.find((s) => s.name === 'In Progress')!;
      const onHold = statuses.find((s) => s.name === 'On Hold')!;

      // My own status change, sent through the outbox: not an update.
      await engine.call('tasks.setStatus', { taskId: ownChange.id, statusId: onHold.id });
      await engine.drained();

      await api.call(messageEndpoints.comment, {
        id: commented.id,
        body: { userId: bob, message: 'Found the **cause**' },
      });
      await api.call(taskEndpoints.updateTaskStatus, {
        id: created.id,
        body: { userId: dan, statusId: inProgress.id },
      });
      await api.call(taskEndpoints.updateTask, {
        id: other.id,
        body: { userId: cleo, assignedToUserId: me },
      });
      const fresh = await api.call(taskEndpoints.createTask, {
        body: {
          projectId: 'g7-p1',
          title: 'Fresh for me',
          fromUserId: cleo,
          toUserId: me,
        },
      });
      expect((await engine.sync.now()).lastError).toBeNull();

      const { groups, unread } = await engine.call('updates.list', {});
      const byTask = new Map(groups.map((g) => [g.taskId, g]));
      expect(byTask.get(commented.id)?.items).toEqual([
        expect.objectContaining({ kind: 'comment', actor: bob, detail: 'Found the **cause**', read: false }),
      ]);
      expect(byTask.get(created.id)?.items).toEqual([
        expect.objectContaining({ kind: 'status', actor: null, detail: 'In Progress' }),
      ]);
      expect(byTask.get(created.id)?.relation).toBe('created');
      expect(byTask.get(other.id)?.items).toEqual([
        expect.objectContaining({ kind: 'assignee', detail: me }),
      ]);
      expect(byTask.get(fresh.id)?.items.map((i) => i.kind)).toContain('new');
      expect(byTask.has(ownChange.id)).toBe(false);
      expect(unread).toBe(groups.reduce((n, g) => n + g.unread, 0));

      await engine.call('updates.markRead', { taskIds: [commented.id] });
      expect(
        (await engine.call('updates.list', {})).groups.find((g) => g.taskId === commented.id)?.unread,
      ).toBe(0);
      await engine.call('updates.markAllRead', {});
      expect((await engine.call('updates.list', {})).unread).toBe(0);
    });
  });
});

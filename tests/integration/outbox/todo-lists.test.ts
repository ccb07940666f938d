// To-do lists through the outbox: a task's `todoList` (GoodDay's documented structure) is changed
// offline as one update-task field, shown at once, sent once online, and read back by a pull.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { TodoLists } from '../../../src/shared/api/tasks';
import { describeZodError } from '../../../src/shared/errors';
import { channels } from '../../../src/shared/ipc/contract';
import { SEED_IDS } from '../../../src/server/seed/index';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { FAST_OUTBOX, testEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';

describe.each(SERVICE_PROFILES)('to-do lists offline (%s profile)', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  beforeAll(async () => {
    svc = await startService({ seed: 'empty', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  });
  afterAll(() => svc.close());

  it('ticks an item offline; the change is sent once and survives a pull', async () => {
    const lists: TodoLists = [
      {
        uid: 'l1',
        title: 'Release',
        items: [
          { properties: { completed: false, title: 'Notes', userId: svc.users.bob } },
          { properties: { completed: false, title: 'Tag', userId: null } },
        ],
      },
    ];
    const { id: taskId } = await api.call(taskEndpoints.createTask, {
      body: {
        projectId: SEED_IDS.workspace,
        title: 'With a checklist',
        fromUserId: svc.users.admin,
        todoList: lists,
      },
    });
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.admin);
    try {
      await e.sync.now();
      expect((await e.call('tasks.detail', { taskId })).task.todoList).toEqual(lists);
      await e.outbox.stop();
      const ticked: TodoLists = [
        {
          ...lists[0]!,
          items: [
            { properties: { ...lists[0]!.items[0]!.properties, completed: true } },
            lists[0]!.items[1]!,
            { properties: { completed: false, title: 'Announce', userId: svc.users.cleo } },
          ],
        },
      ];
      await e.call('tasks.update', { taskId, changes: { todoList: ticked } });
      // Shown at once, and a pull meanwhile does not bring the service's older lists back.
      expect((await e.call('tasks.detail', { taskId })).task.todoList).toEqual(ticked);
      await e.sync.now();
      expect((await e.call('tasks.detail', { taskId })).task.todoList).toEqual(ticked);
      e.outbox.start();
      await e.drained();
      expect((await api.call(taskEndpoints.task, { id: taskId })).todoList).toEqual(ticked);
      expect(e.outbox.entries('done').filter((x) => x.kind === 'task.update')).toHaveLength(1);
      await e.sync.now();
      expect((await e.call('tasks.detail', { taskId })).task.todoList).toEqual(ticked);
    } finally {
      await e.close();
    }
  });

  it("a colleague's newer lists met by my change: taking theirs puts their lists back everywhere", async () => {
    const item = (title: string) => ({ properties: { completed: false, title, userId: null } });
    const base: TodoLists = [{ uid: 'l1', title: 'Launch', items: [item('Draft')] }];
    const { id: taskId } = await api.call(taskEndpoints.createTask, {
      body: {
        projectId: SEED_IDS.workspace,
        title: 'Shared checklist',
        fromUserId: svc.users.admin,
        todoList: base,
      },
    });
    // freshMs 0: the change reads the task before it is sent, whenever it was last read.
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.admin, {
      outbox: { ...FAST_OUTBOX, freshMs: 0 },
    });
    try {
      await e.sync.now();
      await e.outbox.stop();
      const mine: TodoLists = [{ ...base[0]!, items: [item('Draft'), item('Mine')] }];
      const theirs: TodoLists = [{ ...base[0]!, items: [item('Draft'), item('Theirs')] }];
      await e.call('tasks.update', { taskId, changes: { todoList: mine } });
      await api.call(taskEndpoints.updateTask, {
        id: taskId,
        body: { userId: svc.users.bob, todoList: theirs },
      });
      e.outbox.start();
      await e.drained();
      const conflicts = await e.call('conflicts.list', {});
      expect(conflicts).toMatchObject([{ entity: 'task', entityId: taskId, field: 'todoList' }]);
      await e.call('conflicts.resolve', { id: conflicts[0]!.id, choice: 'theirs' });
      await e.drained();
      expect((await api.call(taskEndpoints.task, { id: taskId })).todoList).toEqual(theirs);
      expect((await e.call('tasks.detail', { taskId })).task.todoList).toEqual(theirs);
    } finally {
      await e.close();
    }
  });

  it('refuses a malformed list before queueing it, naming the field', async () => {
    const { id: taskId } = await api.call(taskEndpoints.createTask, {
      body: {
        projectId: SEED_IDS.workspace,
        title: 'Bad list',
        fromUserId: svc.users.admin,
      },
    });
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.admin);
    try {
      await e.sync.now();
      // The IPC contract checks the lists before a handler runs: the field is named.
      const parsed = channels['tasks.update'].input.safeParse({
        taskId,
        changes: {
          todoList: [{ uid: 'x', title: 't', items: [{ properties: { completed: 'no', title: 'a' } }] }],
        },
      });
      expect(parsed.success).toBe(false);
      expect(describeZodError(parsed.error!).field).toBe('changes.todoList.0.items.0.properties.completed');
      expect(e.outbox.status().pending).toBe(0);
    } finally {
      await e.close();
    }
  });
});

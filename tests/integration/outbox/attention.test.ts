// Changes the service acknowledged whose answer cannot be folded into the cache, against the real
// service: after a few failed folds they need attention (no more automatic attempts), "try again"
// folds without creating anything twice, and "reload from the service" settles the entry and
// leaves the cache with the service's version. The fold is made to fail by a trigger in the
// cache file (a cache constraint the answer runs into), added and dropped by the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../src/main/core/api/http';
import { createDispatch } from '../../../src/main/core/dispatch';
import { MAX_FOLD_FAILURES } from '../../../src/main/core/outbox/outbox';
import { SEED_IDS } from '../../../src/server/seed/index';
import { makeFiles } from '../attachments/support';
import { writesSuite, type TestEngine } from './support';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { dependencyReads } from '../../../src/main/core/entities/calendar';
import { taskReads } from '../../../src/main/core/entities/tasks';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { eventEndpoints } from '../../../src/shared/api/events';
import { crmEndpoints } from '../../../src/shared/api/crm';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { messageEndpoints } from '../../../src/shared/api/messages';
import { dependencyEndpoints } from '../../../src/shared/api/dependencies';

const suite = writesSuite();

/** A fetch that counts the task creates it sends (what the service was asked to create). */
function countingCreates() {
  const counted = { creates: 0 };
  const fetch: FetchLike = (input, init) => {
    if ((init.method ?? 'GET') === 'POST' && new URL(input).pathname.endsWith('/tasks')) counted.creates++;
    return globalThis.fetch(input, init);
  };
  return { counted, fetch };
}

/** A fault in the cache file that every fold of `when` runs into, until dropped. */
function failFolds(e: TestEngine, name: string, when: string): () => void {
  e.cache.db.exec(`CREATE TRIGGER ${name} ${when} BEGIN SELECT RAISE(ABORT, 'injected: ${name}'); END`);
  return () => e.cache.db.exec(`DROP TRIGGER ${name}`);
}
/** The remap of a create cannot apply: the id map refuses every new row. */
const REMAP_FAILS = 'BEFORE INSERT ON outbox_id_map';
/** An acknowledged task update cannot be settled (a reload, from `stuck`, still can). */
const UPDATE_SETTLE_FAILS = `BEFORE UPDATE OF state ON outbox_entries
  WHEN OLD.state = 'in_flight' AND NEW.state = 'done' AND OLD.kind = 'task.update'`;

/** An acknowledged comment or reply cannot be settled (a reload, from `stuck`, still can). */
const MESSAGE_SETTLE_FAILS = `BEFORE UPDATE OF state ON outbox_entries
  WHEN OLD.state = 'in_flight' AND NEW.state = 'done' AND OLD.kind IN ('task.comment', 'task.reply')`;

/** An acknowledged comment or reply with files cannot be settled. */
const FILES_POST_SETTLE_FAILS = `BEFORE UPDATE OF state ON outbox_entries
  WHEN OLD.state = 'in_flight' AND NEW.state = 'done'
    AND OLD.kind IN ('task.commentWithFiles', 'task.replyWithFiles')`;

/** An acknowledged dependency delete cannot be settled. */
const DEPENDENCY_DELETE_SETTLE_FAILS = `BEFORE UPDATE OF state ON outbox_entries
  WHEN OLD.state = 'in_flight' AND NEW.state = 'done' AND OLD.kind = 'dependency.delete'`;

/** Runs replay until the outbox holds `stuck` entries needing attention and nothing else open. */
async function untilStuck(e: TestEngine, stuck = 1): Promise<void> {
  const outbox = queueOf(e.outbox);
  const until = Date.now() + 20_000;
  while (outbox.status().stuck < stuck || outbox.status().pending > 0) {
    if (Date.now() > until) throw new Error(`never stuck: ${JSON.stringify(outbox.status())}`);
    outbox.kick();
    await outbox.idle();
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A task made on the service, then renamed here; the rename is applied and needs attention. */
async function stuckRename(e: TestEngine, title: string, renamed: string): Promise<{ id: string }> {
  failFolds(e, 'update_settle_fails', UPDATE_SETTLE_FAILS);
  const target = await suite.api.call(taskEndpoints.createTask, {
    body: {
      projectId: SEED_IDS.workspace,
      fromUserId: suite.svc.users.actingUserId,
      title,
    },
  });
  await e.sync.now();
  await e.call('tasks.update', { taskId: target.id, changes: { title: renamed } });
  await untilStuck(e);
  return target;
}

/** Ids of the tasks the project's task list (the view's channel) shows under `title`. */
async function cachedNamed(e: TestEngine, title: string): Promise<string[]> {
  const { rows } = await e.call('tasks.list', {
    projectId: SEED_IDS.workspace,
    filter: { closed: 'all' },
    limit: 10_000,
  });
  return rows.filter((row) => row.name === title).map((row) => row.id);
}

/**
 * The course of creates whose answer never folds: after a pull, what a view lists (`shown`) holds
 * their local rows alone; after "try again" (the fault repaired) and a pull, their real ids alone.
 * Answers the real ids.
 */
async function shownOnceThenFolded(
  e: TestEngine,
  repair: () => void,
  localIds: string[],
  shown: () => Promise<string[]>,
): Promise<string[]> {
  await e.sync.now();
  expect(await shown()).toEqual(localIds);
  repair();
  for (const stuck of await e.call('outbox.stuck', {})) await e.call('outbox.tryAgain', { id: stuck.id });
  await e.drained();
  await e.sync.now();
  const real = localIds.map((id) => e.outbox.realIdOf(id));
  expect(real.filter((id) => localIds.includes(id))).toEqual([]);
  expect(await shown()).toEqual(real);
  return real;
}

/** Tasks made on the service (by the acting user), then pulled into `e`'s cache. */
async function madeOnService(e: TestEngine, ...titles: string[]) {
  const fromUserId = suite.svc.users.actingUserId;
  const tasks = await Promise.all(
    titles.map((title) =>
      suite.api.call(taskEndpoints.createTask, {
        body: { projectId: SEED_IDS.workspace, fromUserId, title },
      }),
    ),
  );
  await e.sync.now();
  return tasks;
}

async function tasksNamed(title: string) {
  return (
    await suite.api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace, query: { closed: true } })
  ).filter((t) => t.name === title);
}

describe('outbox: acknowledged changes whose answer never folds', () => {
  it(`a create needs attention after ${MAX_FOLD_FAILURES} failed folds; "try again" folds it, created once`, async () => {
    const { counted, fetch } = countingCreates();
    const e = await suite.engine({ fetch });
    const repair = failFolds(e, 'remap_fails', REMAP_FAILS);
    const title = 'Acknowledged, never folded';
    const task = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title });
    await untilStuck(e);

    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 0, stuck: 1, failed: 0 });
    const [stuck] = await e.call('outbox.stuck', {});
    expect(stuck).toMatchObject({
      kind: 'task.create',
      state: 'stuck',
      attempts: MAX_FOLD_FAILURES,
      errorType: 'fold-failed',
      errorMessage: 'injected: remap_fails',
    });
    expect(await e.call('outbox.pending', {})).toEqual([]);
    // Its optimistic row stays: the service accepted it.
    expect(e.cache.tasks.getFlat(task.id)?.name).toBe(title);
    // No more automatic attempts, whatever wakes the outbox.
    const received = suite.proxy.stats().received;
    e.outbox.reconnected();
    await new Promise((r) => setTimeout(r, 300));
    await queueOf(e.outbox).idle();
    expect(suite.proxy.stats().received).toBe(received);

    // A pull keeps the local row, and it alone stands for the service's task: shown once.
    await e.sync.now();
    expect(e.cache.tasks.getFlat(task.id)?.name).toBe(title);
    const [onService] = await tasksNamed(title);
    expect(e.cache.tasks.getFlat(onService!.id)).toBeNull();
    expect(await cachedNamed(e, title)).toEqual([task.id]);

    repair();
    expect(await e.call('outbox.tryAgain', { id: stuck!.id })).toMatchObject({ stuck: 0 });
    await e.drained();
    const realId = e.outbox.realIdOf(task.id);
    expect(realId).not.toBe(task.id);
    expect(counted.creates).toBe(1);
    expect((await tasksNamed(title)).map((t) => t.id)).toEqual([realId]);
    expect(e.cache.tasks.getFlat(realId)?.name).toBe(title);
    expect(e.cache.tasks.getFlat(task.id)).toBeNull();
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 0, stuck: 0 });
    await e.sync.now();
    expect(await cachedNamed(e, title)).toEqual([realId]);
  });

  it('"try again" while the fold still fails goes back to automatic retry, then needs attention again', async () => {
    const { counted, fetch } = countingCreates();
    const e = await suite.engine({ fetch });
    failFolds(e, 'remap_still_fails', REMAP_FAILS);
    const title = 'Tried again in vain';
    await e.call('tasks.create', { projectId: SEED_IDS.workspace, title });
    await untilStuck(e);
    const [stuck] = await e.call('outbox.stuck', {});
    await e.call('outbox.tryAgain', { id: stuck!.id });
    await untilStuck(e);
    expect(await e.call('outbox.stuck', {})).toMatchObject([{ id: stuck!.id, attempts: MAX_FOLD_FAILURES }]);
    expect(counted.creates).toBe(1);
    expect(await tasksNamed(title)).toHaveLength(1);
  });

  it('"reload" of a create settles it: the local row goes, the pull brings the service\'s task', async () => {
    const { counted, fetch } = countingCreates();
    const e = await suite.engine({ fetch });
    failFolds(e, 'remap_fails_for_good', REMAP_FAILS);
    const title = 'Reloaded create';
    const task = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title });
    await untilStuck(e);
    await e.sync.now();
    expect(await cachedNamed(e, title)).toEqual([task.id]);
    const [stuck] = await e.call('outbox.stuck', {});
    expect(await e.call('outbox.reload', { id: stuck!.id })).toMatchObject({ pending: 0, stuck: 0 });
    const [onService] = await tasksNamed(title);
    expect(e.cache.tasks.getFlat(task.id)).toBeNull();
    expect(e.cache.tasks.getFlat(onService!.id)?.name).toBe(title);
    expect(await cachedNamed(e, title)).toEqual([onService!.id]);
    expect(await e.call('outbox.stuck', {})).toEqual([]);
    expect(counted.creates).toBe(1);
  });

  it('a task created with a file shows once too', async () => {
    const e = await suite.engine();
    failFolds(e, 'with_files_remap_fails', REMAP_FAILS);
    const { paths } = makeFiles({ 'spec.txt': 64 });
    const { staged } = await e.stage({ paths: [paths['spec.txt']!] });
    const title = 'Created with a file, never folded';
    const task = await e.call('attachments.createTask', {
      input: { projectId: SEED_IDS.workspace, title },
      files: staged.map((f) => f.id),
    });
    await untilStuck(e);
    expect(await e.call('outbox.stuck', {})).toMatchObject([{ kind: 'task.createWithFiles' }]);
    await e.sync.now();
    expect(await tasksNamed(title)).toHaveLength(1);
    expect(await cachedNamed(e, title)).toEqual([task.id]);
  });

  it("a subtask create needing attention shows once among its parent's subtasks when the parent is opened", async () => {
    const e = await suite.engine();
    const parent = await suite.api.call(taskEndpoints.createTask, {
      body: {
        projectId: SEED_IDS.workspace,
        fromUserId: suite.svc.users.actingUserId,
        title: 'Parent made on the service',
      },
    });
    await e.sync.now();
    failFolds(e, 'subtask_remap_fails', REMAP_FAILS);
    const title = 'Subtask acknowledged, never folded';
    const sub = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title,
      parentTaskId: parent.id,
    });
    await untilStuck(e);
    // Opening the parent fetches its detail, whose subtasks hold the service's copy.
    const detail = await e.call('tasks.detail', { taskId: parent.id });
    expect(e.cache.tasks.fetchedAt(parent.id)).toMatchObject({ detailFetchedAt: expect.any(String) });
    expect((await suite.api.call(taskEndpoints.task, { id: parent.id })).subtasks.map((t) => t.name)).toEqual(
      [title],
    );
    expect(detail.subtasks.map((t) => [t.id, t.name])).toEqual([[sub.id, title]]);
  });

  it('an event create needing attention shows once in the calendar; "try again" folds it, created once', async () => {
    const e = await suite.engine();
    const repair = failFolds(e, 'event_remap_fails', REMAP_FAILS);
    const day = new Date().toISOString().slice(0, 10);
    const name = 'Event acknowledged, never folded';
    const event = await e.call('events.create', {
      eventType: 'project-milestone',
      name,
      startDate: day,
      projectId: SEED_IDS.workspace,
    });
    await untilStuck(e);
    const shown = async () =>
      (await e.call('events.list', { from: day, to: day })).filter((x) => x.name === name).map((x) => x.id);
    // The pull brings the service's copy: the local row alone stands for it.
    const [realId] = await shownOnceThenFolded(e, repair, [event.id], shown);
    const onService = await suite.api.call(eventEndpoints.events, {
      query: { startDate: day, endDate: day },
    });
    expect(onService.filter((x) => x.name === name).map((x) => x.id)).toEqual([realId]);
  });

  it('a CRM contact and account created so show once; "try again" folds them, created once', async () => {
    const e = await suite.engine();
    const repair = failFolds(e, 'crm_remap_fails', REMAP_FAILS);
    const contact = await e.call('crm.createContact', { firstName: 'Unfolded', lastName: 'Contact' });
    const account = await e.call('crm.createAccount', { name: 'Unfolded Account' });
    await untilStuck(e, 2);
    const shown = async () => [
      ...(await e.call('crm.contacts', { text: 'Unfolded' })).rows.map((x) => x.id),
      ...(await e.call('crm.accounts', { text: 'Unfolded' })).rows.map((x) => x.id),
    ];
    const real = await shownOnceThenFolded(e, repair, [contact.id, account.id], shown);
    const onService = [
      ...(await suite.api.call(crmEndpoints.crmContacts))
        .filter((x) => x.firstName === 'Unfolded')
        .map((x) => x.id),
      ...(await suite.api.call(crmEndpoints.crmAccounts))
        .filter((x) => x.name === 'Unfolded Account')
        .map((x) => x.id),
    ];
    expect(onService).toEqual(real);
  });

  it('a folder created so shows once in the project tree; "try again" folds it, created once', async () => {
    const e = await suite.engine();
    const repair = failFolds(e, 'folder_remap_fails', REMAP_FAILS);
    const name = 'Folder acknowledged, never folded';
    const folder = await e.call('projects.createFolder', { name, parentProjectId: SEED_IDS.workspace });
    await untilStuck(e);
    const shown = async () =>
      (await e.call('projects.tree', {})).nodes.filter((n) => n.name === name).map((n) => n.id);
    const [realId] = await shownOnceThenFolded(e, repair, [folder.id], shown);
    expect(
      (await suite.api.call(projectEndpoints.projects)).filter((p) => p.name === name).map((p) => p.id),
    ).toEqual([realId]);
  });

  it('a comment and a reply so posted show once on their tasks; "try again" settles them, posted once', async () => {
    const e = await suite.engine();
    const me = suite.svc.users.actingUserId;
    const [a, b] = await madeOnService(e, 'Commented on', 'Replied to');
    const repair = failFolds(e, 'post_settle_fails', MESSAGE_SETTLE_FAILS);
    await e.call('tasks.comment', { taskId: a!.id, message: 'Comment, never folded' });
    await e.call('tasks.reply', { taskId: b!.id, actionRequiredUserId: me, message: 'Reply, never folded' });
    await untilStuck(e, 2);
    /** The task's messages as a view shows them, after fetching them from the service. */
    const shown = async (taskId: string) => {
      await e.sync.onDemand.run(taskReads.task(taskId));
      return (await e.call('tasks.detail', { taskId })).messages.map((m) => m.message);
    };
    // The service holds each post; the draft alone stands for it.
    expect(
      (await suite.api.call(messageEndpoints.taskMessages, { id: a!.id })).map((m) => m.message),
    ).toContain('Comment, never folded');
    expect(await shown(a!.id)).toEqual(['Comment, never folded']);
    expect(await shown(b!.id)).toEqual(['Reply, never folded']);
    repair();
    for (const stuck of await e.call('outbox.stuck', {})) await e.call('outbox.tryAgain', { id: stuck.id });
    await e.drained();
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 0, stuck: 0 });
    expect(await shown(a!.id)).toEqual(['Comment, never folded']);
    expect(await shown(b!.id)).toEqual(['Reply, never folded']);
    const detail = await e.call('tasks.detail', { taskId: a!.id });
    expect(detail.messages.map((m) => m.id)).toEqual(
      (await suite.api.call(messageEndpoints.taskMessages, { id: a!.id })).map((m) => m.id),
    );
    expect(
      (await suite.api.call(messageEndpoints.taskMessages, { id: b!.id })).map((m) => m.message),
    ).toEqual(['Reply, never folded']);
  });

  it('a comment and a reply with files so posted show once, after a restart too; "try again" settles them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'attention-files-'));
    try {
      const first = await suite.engine({ dataDir });
      const me = suite.svc.users.actingUserId;
      const [a, b] = await madeOnService(first, 'Commented on with a file', 'Replied to with a file');
      const { paths } = makeFiles({ 'notes.txt': 64, 'plan.txt': 128 });
      const staged = async (name: string) =>
        (await first.stage({ paths: [paths[name]!] })).staged.map((f) => f.id);
      failFolds(first, 'files_post_settle_fails', FILES_POST_SETTLE_FAILS);
      await first.call('attachments.comment', {
        taskId: a!.id,
        message: 'With a file',
        files: await staged('notes.txt'),
      });
      await first.call('attachments.reply', {
        taskId: b!.id,
        actionRequiredUserId: me,
        message: 'With a plan',
        files: await staged('plan.txt'),
      });
      await untilStuck(first, 2);
      /** The task's messages as a view shows them, after fetching them from the service. */
      const shown = async (e: TestEngine, taskId: string) => {
        await e.sync.onDemand.run(taskReads.task(taskId));
        return (await e.call('tasks.detail', { taskId })).messages.map((m) => m.message);
      };
      expect(
        (await suite.api.call(messageEndpoints.taskMessages, { id: a!.id })).map((m) => m.message),
      ).toEqual(['With a file']);
      expect(await shown(first, a!.id)).toEqual(['With a file']);
      expect(await shown(first, b!.id)).toEqual(['With a plan']);
      await first.close();
      // A restart reads the spool's records of the files the stuck entries name.
      const again = await suite.engine({ dataDir });
      expect(await shown(again, a!.id)).toEqual(['With a file']);
      expect(await shown(again, b!.id)).toEqual(['With a plan']);
      again.cache.db.exec('DROP TRIGGER IF EXISTS files_post_settle_fails');
      for (const stuck of await again.call('outbox.stuck', {}))
        await again.call('outbox.tryAgain', { id: stuck.id });
      await again.drained();
      expect(await again.call('outbox.status', {})).toMatchObject({ pending: 0, stuck: 0 });
      expect(await shown(again, a!.id)).toEqual(['With a file']);
      const { messages } = await again.call('tasks.detail', { taskId: a!.id });
      expect(messages.map((m) => m.id)).toEqual(
        (await suite.api.call(messageEndpoints.taskMessages, { id: a!.id })).map((m) => m.id),
      );
      expect(
        (await suite.api.call(messageEndpoints.taskMessages, { id: b!.id })).map((m) => m.message),
      ).toEqual(['With a plan']);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('"reload" of a comment so posted: the draft goes, the service\'s message comes', async () => {
    const e = await suite.engine();
    const task = (await madeOnService(e, 'Reloaded'))[0]!;
    failFolds(e, 'comment_settle_fails_for_good', MESSAGE_SETTLE_FAILS);
    await e.call('tasks.comment', { taskId: task.id, message: 'Reloaded comment' });
    await untilStuck(e);
    await e.sync.onDemand.run(taskReads.task(task.id));
    const [stuck] = await e.call('outbox.stuck', {});
    expect(await e.call('outbox.reload', { id: stuck!.id })).toMatchObject({ pending: 0, stuck: 0 });
    const [onService] = (await suite.api.call(messageEndpoints.taskMessages, { id: task.id })).filter(
      (m) => m.message === 'Reloaded comment',
    );
    const { messages } = await e.call('tasks.detail', { taskId: task.id });
    expect(messages.map((m) => [m.id, m.message])).toEqual([[onService!.id, 'Reloaded comment']]);
  });

  it('a dependency so made shows once on both ends; "try again" folds it, created once', async () => {
    const e = await suite.engine();
    const [first, then] = await madeOnService(e, 'Done first', 'Done then');
    const repair = failFolds(e, 'dependency_remap_fails', REMAP_FAILS);
    const dep = await e.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: first!.id },
      successor: { kind: 'task', id: then!.id },
    });
    await untilStuck(e);
    /** The dependencies both ends' views list, after fetching them from the service. */
    const shown = async () => {
      const ids = [];
      for (const taskId of [first!.id, then!.id]) {
        await e.sync.onDemand.run(taskReads.task(taskId));
        ids.push(...(await e.call('tasks.detail', { taskId })).dependencies.map((d) => d.id));
      }
      return [...new Set(ids)];
    };
    const [realId] = await shownOnceThenFolded(e, repair, [dep.id], shown);
    const onService = await suite.api.call(dependencyEndpoints.dependencies, { kind: 'task', id: first!.id });
    expect(onService.successors.map((d) => d.id)).toEqual([realId]);
  });

  describe('"reload" of a dependency change fetches both ends\' dependencies (a pull never does)', () => {
    /** A task and an event made on the service, and what their views list as dependencies. */
    async function ends(e: TestEngine) {
      const event = await suite.api.call(eventEndpoints.createEvent, {
        body: {
          eventType: 'project-milestone',
          name: 'After',
          startDate: new Date().toISOString().slice(0, 10),
          projectId: SEED_IDS.workspace,
          createdByUserId: suite.svc.users.actingUserId,
        },
      });
      const task = (await madeOnService(e, 'Before'))[0]!;
      const listed = async () => [
        (await e.call('tasks.detail', { taskId: task.id })).dependencies.map((d) => d.id),
        (await e.call('dependencies.ofEvent', { eventId: event.id })).map((d) => d.id),
      ];
      return { task, event, listed };
    }

    it("a create: the local row goes, both ends list the service's at once", async () => {
      const e = await suite.engine();
      const { task, event, listed } = await ends(e);
      failFolds(e, 'dependency_remap_fails_for_good', REMAP_FAILS);
      const dep = await e.call('dependencies.create', {
        type: 5,
        predecessor: { kind: 'task', id: task.id },
        successor: { kind: 'event', id: event.id },
      });
      await untilStuck(e);
      expect(await listed()).toEqual([[dep.id], [dep.id]]);
      const [stuck] = await e.call('outbox.stuck', {});
      expect(await e.call('outbox.reload', { id: stuck!.id })).toMatchObject({ pending: 0, stuck: 0 });
      const { successors } = await suite.api.call(dependencyEndpoints.dependencies, {
        kind: 'task',
        id: task.id,
      });
      expect(successors).toHaveLength(1);
      expect(await listed()).toEqual([[successors[0]!.id], [successors[0]!.id]]);
    });

    it('a delete: the rollback puts it back, the fetch of both ends removes it again', async () => {
      const e = await suite.engine();
      const { task, event, listed } = await ends(e);
      const dep = await suite.api.call(dependencyEndpoints.createDependency, {
        body: {
          type: 5,
          createdByUserId: suite.svc.users.actingUserId,
          predecessorTaskId: task.id,
          successorEventId: event.id,
        },
      });
      await e.sync.onDemand.run(taskReads.task(task.id));
      await e.sync.onDemand.run(dependencyReads.ofEvent(event.id));
      expect(await listed()).toEqual([[dep.id], [dep.id]]);
      failFolds(e, 'dependency_delete_settle_fails', DEPENDENCY_DELETE_SETTLE_FAILS);
      await e.call('dependencies.delete', { dependencyId: dep.id });
      await untilStuck(e);
      expect(await listed()).toEqual([[], []]);
      const [stuck] = await e.call('outbox.stuck', {});
      await e.call('outbox.reload', { id: stuck!.id });
      expect(
        (await suite.api.call(dependencyEndpoints.dependencies, { kind: 'task', id: task.id })).successors,
      ).toEqual([]);
      expect(await listed()).toEqual([[], []]);
    });
  });

  it('"reload" of an update settles it and the cache holds the service\'s version', async () => {
    const e = await suite.engine();
    const target = await stuckRename(e, 'Made on the service', 'Mine, applied');
    expect(e.cache.tasks.getFlat(target.id)?.name).toBe('Mine, applied');
    // Another client renames it meanwhile: a reload shows the service's version.
    await suite.api.call(taskEndpoints.updateTask, {
      id: target.id,
      body: { userId: suite.svc.users.actingUserId, title: 'Theirs, later' },
    });
    const [stuck] = await e.call('outbox.stuck', {});
    expect(stuck).toMatchObject({ kind: 'task.update', errorMessage: 'injected: update_settle_fails' });
    await e.call('outbox.reload', { id: stuck!.id });
    expect(e.cache.tasks.getFlat(target.id)?.name).toBe('Theirs, later');
    expect(queueOf(e.outbox).pendingFieldsFor('task', target.id).size).toBe(0);
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 0, stuck: 0, conflicts: 0 });
  });

  it('"reload" while the service cannot be reached settles it; the item comes with the next pull', async () => {
    const logged: string[] = [];
    const e = await suite.engine({ log: (m) => logged.push(m) });
    const target = await stuckRename(e, 'Reloaded offline', 'Mine, applied offline');
    const [stuck] = await e.call('outbox.stuck', {});
    suite.proxy.set({ dropBefore: { rate: 1 } });
    expect(await e.call('outbox.reload', { id: stuck!.id })).toMatchObject({ pending: 0, stuck: 0 });
    expect(logged.some((m) => m.includes(`fetching task ${target.id} after a reload failed`))).toBe(true);
    // Its local value went with it; the service's comes with the next pull.
    expect(e.cache.tasks.getFlat(target.id)?.name).toBe('Reloaded offline');
    suite.proxy.set({ dropBefore: undefined });
    await e.sync.now();
    expect(e.cache.tasks.getFlat(target.id)?.name).toBe('Mine, applied offline');
  });

  it('refuses "try again" and "reload" of a change that does not need attention, naming the id', async () => {
    const e = await suite.engine();
    await e.outbox.stop();
    const task = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Waiting quietly' });
    const [waiting] = await e.call('outbox.pending', {});
    for (const channel of ['outbox.tryAgain', 'outbox.reload'] as const) {
      await expect(e.call(channel, { id: waiting!.id })).rejects.toMatchObject({
        type: 'conflict',
        field: 'id',
      });
      await expect(e.call(channel, { id: 987_654 })).rejects.toMatchObject({
        type: 'not-found',
        field: 'id',
      });
    }
    // Bad input names the field and reaches no handler.
    const dispatch = createDispatch(e.handlers);
    for (const channel of ['outbox.tryAgain', 'outbox.reload'] as const) {
      expect(await dispatch(channel, { id: 'one' })).toMatchObject({
        ok: false,
        error: { type: 'invalid-argument', field: 'id' },
      });
    }
    expect(e.cache.tasks.getFlat(task.id)?.name).toBe('Waiting quietly');
    expect(await e.call('outbox.pending', {})).toEqual([waiting]);
  });
});

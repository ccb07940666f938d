// A create the service applied whose answer fails to fold keeps its local row; a task list (a
// project list, an event window, a CRM list) the service answers meanwhile holds the same item
// under its real id. Storing that list must not show it twice, and "try again" / "reload" must
// still do what they promise.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../shared/api/tasks';
import { COMMUNICATION_FLOW, type TaskMessage } from '../../../shared/api/messages';
import { fakeServiceClient } from '../api/testing';
import { TimeoutError } from '../api/errors';
import type { Cache } from '../cache/cache';
import { openCacheDb } from '../cache/db';
import { aContact, aMessage, anEvent, aProject, aTask } from '../cache/fixtures';
import { flattenTask } from '../cache/repos/tasks';
import { stampOf } from '../outbox/kinds/support';
import { LOCAL_ROW_PREFIX } from '../local-ids';
import { queueOf, stoppedClockOutbox } from '../outbox/testing';
import { accountCache, ENTITIES, KIND_FACTORIES } from '../handlers/index';
import type { FetchReloaded, ReloadedItem, AccountOutbox } from '../outbox/account-outbox';
import type { Gate, SyncDeps } from './context';
import { createOnDemand } from './on-demand';
import { listedMessages } from './pending';
import { pullTaskParts, storeTasks } from './pull';
import { dependencyReads } from '../entities/calendar';

const ME = 'u-me';
const NOW = Date.UTC(2026, 10, 21, 12);
const TITLE = 'Applied, never folded';

interface Rig {
  cache: Cache;
  outbox: AccountOutbox;
  deps: SyncDeps;
  /** What the fake service answers to a task list (and so to the create's look-up). */
  listed: Task[];
  creates: number;
  /** What each reload asked to fetch (`fetchItem`). */
  fetched: ReloadedItem[];
  /** The fetch a reload is given: notes what it was asked for. */
  fetchItem: FetchReloaded;
  /** Comments the fake service was sent. */
  readonly comments: number;
  /** What the fake service answers to a task's messages (and so to a comment's look-up). */
  messages: TaskMessage[];
  /** The dependencies (task t1 before event e1) the fake service holds: what it lists for either end. */
  dependencies: { id: string; type: number }[];
  /** Makes every create's answer get lost (a timeout). */
  failCreates: boolean;
  /** Runs replay until nothing is under way. */
  run(): Promise<void>;
}

function rig(maxFoldFailures = 1): Rig {
  const cache = accountCache(openCacheDb(':memory:'));
  const state = {
    listed: [] as Task[],
    creates: 0,
    failCreates: false,
    contactMade: false,
    messages: [] as TaskMessage[],
    comments: 0,
    dependencies: [] as { id: string; type: number }[],
  };
  const client = fakeServiceClient({
    // A comment's answer names nothing; the task's message list then holds it.
    comment: async () => {
      state.comments++;
    },
    // Messages name their task (`taskId`, t1 when absent), as the service keeps them.
    taskMessages: async (taskId: string) => state.messages.filter((m) => (m.taskId ?? 't1') === taskId),
    createDependency: async () => ({ id: 'D-real', type: 5, successorEventId: 'e1' }),
    // Every dependency the service holds runs from task t1 to event e1; each item's list names
    // only the other end.
    dependencies: async (kind: string, id: string) => ({
      predecessors:
        kind === 'event' && id === 'e1'
          ? state.dependencies.map((d) => ({ ...d, predecessorTaskId: 't1' }))
          : [],
      successors:
        kind === 'task' && id === 't1'
          ? state.dependencies.map((d) => ({ ...d, successorEventId: 'e1' }))
          : [],
    }),
    createTask: async () => {
      state.creates++;
      // The service applied it and the answer was lost on the way back.
      if (state.failCreates) throw new TimeoutError('POST', '/tasks', 'no answer');
      return { id: 'T-real', shortId: 'R1', momentCreated: stampOf(NOW) };
    },
    projectTasks: async () => state.listed,
    reply: async () => undefined,
    updateTaskStatus: async () => undefined,
    // The contact create answers nothing; its send then finds it in the list.
    createCrmContact: async () => {
      state.contactMade = true;
    },
    crmContacts: async () => (state.contactMade ? [unfoldedContact] : []),
    newFolder: async () => unfoldedFolder,
    createEvent: async (body: { name: string; startDate: string }) =>
      anEvent({
        id: 'E-real',
        eventType: 'company-event',
        name: body.name,
        startDate: body.startDate,
        momentCreated: stampOf(NOW).replace(' ', 'T'),
      }),
  });
  const fetched: ReloadedItem[] = [];
  const outbox = stoppedClockOutbox({
    kindModules: KIND_FACTORIES,
    entities: ENTITIES,
    cache,
    client,
    userId: ME,
    now: NOW,
    maxFoldFailures,
  });
  cache.transaction(() => {
    cache.projects.upsertMany([aProject({ id: 'p1', ownerUserId: ME })]);
    cache.org.statuses.replace([{ id: 's-new', name: 'New', systemStatus: 1, isClosed: false }]);
    cache.org.taskTypes.replace([{ id: 'tt1', name: 'Task' }]);
    cache.tasks.upsertMany(
      ['t1', 't2', 't3'].map((id) => flattenTask(aTask({ id, projectId: 'p-other', name: 'Discussed' }))),
    );
    cache.events.upsert(anEvent({ id: 'e1', name: 'Launch' }));
  });
  const deps = {
    cache,
    client,
    pending: outbox.pending,
    userId: ME,
    clock: () => new Date(NOW),
    log: () => {},
    emitChange: () => {},
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  } satisfies SyncDeps;
  return {
    cache,
    outbox,
    deps,
    get listed() {
      return state.listed;
    },
    set listed(tasks: Task[]) {
      state.listed = tasks;
    },
    fetched,
    fetchItem: async (item) => {
      fetched.push(item);
    },
    get creates() {
      return state.creates;
    },
    get comments() {
      return state.comments;
    },
    set messages(messages: TaskMessage[]) {
      state.messages = messages;
    },
    set dependencies(list: { id: string; type: number }[]) {
      state.dependencies = list;
    },
    set failCreates(on: boolean) {
      state.failCreates = on;
    },
    async run() {
      outbox.start();
      await queueOf(outbox).idle();
      await outbox.stop();
    },
  };
}

/** The remap of every create fails (a cache constraint the answer runs into), until repaired. */
function failRemaps(cache: Cache): () => void {
  cache.db.exec(
    `CREATE TRIGGER remap_fails BEFORE INSERT ON outbox_id_map BEGIN SELECT RAISE(ABORT, 'injected'); END`,
  );
  return () => cache.db.exec('DROP TRIGGER remap_fails');
}

/** The service's copy of the create, as its task lists answer it. */
const serviceCopy = (over: Partial<Task> = {}): Task =>
  aTask({
    id: 'T-real',
    projectId: 'p1',
    name: TITLE,
    createdByUserId: ME,
    momentCreated: stampOf(NOW).replace(' ', 'T'),
    ...over,
  });
const unfoldedContact = aContact({
  id: 'C-real',
  firstName: 'Unfolded',
  lastName: '',
  email: '',
  contactOwnerUserId: ME,
});
const unfoldedFolder = aProject({
  id: 'P-real',
  name: 'Unfolded folder',
  parentProjectId: 'p1',
  isFolder: true,
  moment_created: stampOf(NOW).replace(' ', 'T'),
});
const other = aTask({ id: 'T-other', projectId: 'p1', name: 'Someone else', createdByUserId: 'u-bob' });

function cachedIds(cache: Cache): string[] {
  return cache.tasks.idsInProjects(['p1']).sort();
}

/** Queues the create and runs replay once; answers its local id. */
async function submitCreate(rig: Rig): Promise<string> {
  const id = rig.outbox.newTempId();
  rig.outbox.write('task.create', {
    tempId: id,
    draftId: rig.outbox.newLocalRowId(),
    input: { projectId: 'p1', title: TITLE },
  });
  await rig.run();
  return id;
}

let r: Rig;
let repair: () => void;
let tempId: string;
beforeEach(async () => {
  // One failed fold is enough to need attention here.
  r = rig(1);
  repair = failRemaps(r.cache);
  tempId = await submitCreate(r);
  expect(r.outbox.status()).toMatchObject({ stuck: 1, pending: 0 });
});

describe('storeTasks: the service copy of a create whose answer never folded', () => {
  it('is not stored: the local row alone stands for it', () => {
    r.cache.transaction(() => storeTasks(r.deps, [serviceCopy(), other]));
    expect(cachedIds(r.cache)).toEqual(['T-other', tempId].sort());
    expect(r.cache.tasks.getFlat(tempId)?.name).toBe(TITLE);
  });

  it('a copy stored earlier (a pull before the fold failed) leaves the cache', () => {
    r.cache.transaction(() => r.cache.tasks.upsertMany([flattenTask(serviceCopy())]));
    r.cache.transaction(() => storeTasks(r.deps, [serviceCopy(), other]));
    expect(cachedIds(r.cache)).toEqual(['T-other', tempId].sort());
  });

  it('only what the look-up would take: another title, creator, parent or an older task is stored', () => {
    const lookalikes = [
      serviceCopy({ id: 'T-title', name: `${TITLE} (2)` }),
      serviceCopy({ id: 'T-creator', createdByUserId: 'u-bob' }),
      serviceCopy({ id: 'T-parent', parentTaskId: 'T-other' }),
      serviceCopy({ id: 'T-old', momentCreated: '2026-01-01T09:00:00.000000' }),
      serviceCopy({ id: 'T-project', projectId: 'p2' }),
    ];
    r.cache.transaction(() => storeTasks(r.deps, lookalikes));
    expect(cachedIds(r.cache)).toEqual(['T-creator', 'T-old', 'T-parent', 'T-title', tempId].sort());
  });

  it('two copies of one title: one stands for the create, the later one is stored', () => {
    const later = serviceCopy({ id: 'T-later', momentCreated: stampOf(NOW + 1_000).replace(' ', 'T') });
    r.cache.transaction(() => storeTasks(r.deps, [later, serviceCopy()]));
    expect(cachedIds(r.cache)).toEqual(['T-later', tempId].sort());
  });

  it('"try again" then folds it: one task, under the real id, created once', async () => {
    r.cache.transaction(() => storeTasks(r.deps, [serviceCopy(), other]));
    repair();
    r.listed = [serviceCopy(), other];
    const [stuck] = r.outbox.entries('stuck');
    r.outbox.tryAgain(stuck!.id);
    await r.run();
    expect(r.outbox.status()).toMatchObject({ stuck: 0, pending: 0 });
    expect(r.outbox.realIdOf(tempId)).toBe('T-real');
    expect(cachedIds(r.cache)).toEqual(['T-other', 'T-real']);
    expect(r.creates).toBe(1);
    // Settled: the next list stores the service's task as any other.
    r.cache.transaction(() => storeTasks(r.deps, [serviceCopy({ name: 'Renamed there' }), other]));
    expect(r.cache.tasks.getFlat('T-real')?.name).toBe('Renamed there');
  });

  it('"reload" settles it: the local row goes and the next list brings the service\'s task', () => {
    r.cache.transaction(() => storeTasks(r.deps, [serviceCopy(), other]));
    const [stuck] = r.outbox.entries('stuck');
    queueOf(r.outbox).reload(stuck!.id);
    expect(cachedIds(r.cache)).toEqual(['T-other']);
    r.cache.transaction(() => storeTasks(r.deps, [serviceCopy(), other]));
    expect(cachedIds(r.cache)).toEqual(['T-other', 'T-real']);
    expect(r.creates).toBe(1);
  });

  it('a create still retrying its fold (before it needs attention) is recognised too', async () => {
    const retrying = rig(5);
    failRemaps(retrying.cache);
    const id = await submitCreate(retrying);
    expect(retrying.outbox.entries()).toMatchObject([{ state: 'in_flight', foldFailures: 1 }]);
    retrying.cache.transaction(() => storeTasks(retrying.deps, [serviceCopy(), other]));
    expect(cachedIds(retrying.cache)).toEqual(['T-other', id].sort());
  });

  it('a create whose answer was lost is left to its look-up: the list stores the copy meanwhile', async () => {
    const lost = rig();
    lost.failCreates = true;
    const id = await submitCreate(lost);
    expect(lost.outbox.entries()).toMatchObject([{ state: 'in_flight', answeredAt: null }]);
    lost.cache.transaction(() => storeTasks(lost.deps, [serviceCopy(), other]));
    expect(cachedIds(lost.cache)).toEqual(['T-other', 'T-real', id].sort());
  });
});

describe('projects, events and CRM records: the service copy of a create whose answer never folded', () => {
  it('the port names it among a listed window (the pull leaves it out), by the look-up test', async () => {
    const input = {
      eventType: 'company-event' as const,
      name: 'Offsite',
      startDate: '2026-12-01',
      endDate: '2026-12-02',
    };
    r.outbox.write('event.create', { tempId: r.outbox.newTempId(), input });
    await r.run();
    expect(r.outbox.entries('stuck').map((x) => x.kind)).toEqual(['task.create', 'event.create']);
    const copy = anEvent({ id: 'E-real', ...input, momentCreated: stampOf(NOW).replace(' ', 'T') });
    const listed = [
      copy,
      anEvent({ id: 'E-other-day', ...input, startDate: '2026-12-02', momentCreated: copy.momentCreated }),
      anEvent({ id: 'E-old', ...input }),
      anEvent({ id: 'E-type', ...input, eventType: 'company-holiday', momentCreated: copy.momentCreated }),
    ];
    expect([...r.deps.pending.copiesOfUnfoldedCreates!('event', listed)]).toEqual(['E-real']);
    // The task create's copy is not an event's, nor the other way round.
    expect([...r.deps.pending.copiesOfUnfoldedCreates!('task', [serviceCopy()])]).toEqual(['T-real']);
  });

  it("the port names a contact's copy among the listed contacts, by its look-up test", async () => {
    r.outbox.write('crmContact.create', {
      tempId: r.outbox.newTempId(),
      input: { firstName: 'Unfolded' },
      known: [],
    });
    await r.run();
    expect(r.outbox.entries('stuck').map((x) => x.kind)).toEqual(['task.create', 'crmContact.create']);
    const listed = [unfoldedContact, aContact({ id: 'C-other', firstName: 'Someone' })];
    expect([...r.deps.pending.copiesOfUnfoldedCreates!('crmContact', listed)]).toEqual(['C-real']);
  });

  it("the port names a folder's copy among the listed projects, by its look-up test", async () => {
    r.outbox.write('project.create', {
      type: 'folder',
      tempId: r.outbox.newTempId(),
      input: { name: 'Unfolded folder', parentProjectId: 'p1' },
    });
    await r.run();
    expect(r.outbox.entries('stuck').map((x) => x.kind)).toEqual(['task.create', 'project.create']);
    const listed = [
      unfoldedFolder,
      aProject({
        id: 'P-project',
        name: 'Unfolded folder',
        parentProjectId: 'p1',
        moment_created: unfoldedFolder.moment_created,
      }),
      aProject({
        id: 'P-elsewhere',
        name: 'Unfolded folder',
        isFolder: true,
        moment_created: unfoldedFolder.moment_created,
      }),
    ];
    expect([...r.deps.pending.copiesOfUnfoldedCreates!('project', listed)]).toEqual(['P-real']);
  });
});

/** A gate that runs each request at once (the unit tests' fake service answers at once). */
const gate = ((call: (signal: AbortSignal) => Promise<unknown>) =>
  call(new AbortController().signal)) as Gate;

/** An acknowledged message post (comment, reply, status) cannot be settled (a reload, from `stuck`, still can). */
function failMessageFolds(cache: Cache): () => void {
  cache.db.exec(
    `CREATE TRIGGER message_fold_fails BEFORE UPDATE OF state ON outbox_entries
     WHEN OLD.state = 'in_flight' AND NEW.state = 'done'
       AND OLD.kind IN ('task.comment', 'task.reply', 'task.setStatus')
     BEGIN SELECT RAISE(ABORT, 'injected'); END`,
  );
  return () => cache.db.exec('DROP TRIGGER message_fold_fails');
}

describe('messages: the service copy of a comment whose answer never folded', () => {
  const TEXT = 'Posted, never folded';
  /** The service's copy of the comment, as the task's message list answers it. */
  const copy = (over: Partial<TaskMessage> = {}) =>
    aMessage({
      id: 'M-real',
      message: TEXT,
      fromUserId: ME,
      dateCreated: stampOf(NOW).replace(' ', 'T'),
      ...over,
    });
  const theirs = aMessage({ id: 'M-other', message: 'Someone else', fromUserId: 'u-bob' });
  /** The task's cached messages as [id, text], the draft as 'draft', in id order. */
  const shown = (taskId = 't1') =>
    r.cache.messages
      .listForTask(taskId)
      .map((m) => [m.id.startsWith(LOCAL_ROW_PREFIX) ? 'draft' : m.id, m.message])
      .sort(([a], [b]) => (a! < b! ? -1 : 1));
  let repairComment: () => void;

  beforeEach(async () => {
    repairComment = failMessageFolds(r.cache);
    r.messages = [copy(), theirs];
    r.outbox.write('task.comment', { taskId: 't1', message: TEXT, draftId: r.outbox.newLocalRowId() });
    await r.run();
    expect(r.outbox.entries('stuck').map((x) => x.kind)).toEqual(['task.create', 'task.comment']);
  });

  it('is not stored: the draft alone stands for it', async () => {
    await pullTaskParts(r.deps, gate, 't1', false);
    expect(shown()).toEqual([
      ['M-other', 'Someone else'],
      ['draft', TEXT],
    ]);
  });

  it('only what the look-up would take: another text, author, kind or an older message is stored', async () => {
    r.messages = [
      copy({ id: 'M-text', message: `${TEXT} (2)` }),
      copy({ id: 'M-author', fromUserId: 'u-bob' }),
      copy({ id: 'M-reply', communicationFlow: COMMUNICATION_FLOW.reply }),
      copy({ id: 'M-old', dateCreated: '2026-01-01T09:00:00.000000' }),
    ];
    await pullTaskParts(r.deps, gate, 't1', false);
    expect(shown().map(([id]) => id)).toEqual(['M-author', 'M-old', 'M-reply', 'M-text', 'draft']);
  });

  it("a reply and a status change's message so posted show once too, each found by its own test", async () => {
    const reply = copy({
      id: 'M-reply',
      taskId: 't2',
      message: 'On it',
      communicationFlow: COMMUNICATION_FLOW.reply,
      toUserId: 'u-bob',
    });
    const status = copy({ id: 'M-status', taskId: 't3', message: 'Started' });
    // The comment's text on t3 is no post of t3's.
    r.messages = [copy(), theirs, reply, status, copy({ id: 'M-t3', taskId: 't3' })];
    r.outbox.write('task.reply', {
      taskId: 't2',
      actionRequiredUserId: 'u-bob',
      message: 'On it',
      draftId: r.outbox.newLocalRowId(),
    });
    r.outbox.write('task.setStatus', {
      taskId: 't3',
      statusId: 's-new',
      message: 'Started',
      draftId: r.outbox.newLocalRowId(),
    });
    await r.run();
    expect(r.outbox.status().stuck).toBe(4);
    await pullTaskParts(r.deps, gate, 't2', false);
    await pullTaskParts(r.deps, gate, 't3', false);
    expect(shown('t2')).toEqual([['draft', 'On it']]);
    expect(shown('t3')).toEqual([
      ['M-t3', TEXT],
      ['draft', 'Started'],
    ]);
    // A reply to someone else is not this one's copy (a list that leaves the field out, or
    // nulls it, as the live service may, cannot tell: there the text decides).
    const elsewhere = listedMessages('t2', [{ ...reply, toUserId: 'u-cleo' }]);
    expect([...r.deps.pending.copiesOfUnfoldedCreates!('message', elsewhere)]).toEqual([]);
  });

  it('"try again" then folds it: the next fetch leaves the service\'s message alone, posted once', async () => {
    await pullTaskParts(r.deps, gate, 't1', false);
    repairComment();
    const stuck = r.outbox.entries('stuck').find((x) => x.kind === 'task.comment');
    r.outbox.tryAgain(stuck!.id);
    await r.run();
    expect(r.outbox.entries('stuck').map((x) => x.kind)).toEqual(['task.create']);
    await pullTaskParts(r.deps, gate, 't1', false);
    expect(shown()).toEqual([
      ['M-other', 'Someone else'],
      ['M-real', TEXT],
    ]);
    expect(r.comments).toBe(1);
  });

  it('"reload" settles it: the draft goes and the next fetch brings the service\'s message', async () => {
    await pullTaskParts(r.deps, gate, 't1', false);
    const stuck = r.outbox.entries('stuck').find((x) => x.kind === 'task.comment');
    queueOf(r.outbox).reload(stuck!.id);
    expect(shown()).toEqual([['M-other', 'Someone else']]);
    await pullTaskParts(r.deps, gate, 't1', false);
    expect(shown()).toEqual([
      ['M-other', 'Someone else'],
      ['M-real', TEXT],
    ]);
    expect(r.comments).toBe(1);
  });
});

describe('dependencies: the service copy of a dependency create whose answer never folded', () => {
  /** The service's copy (task t1 before event e1), as the event's dependencies answer it. */
  const copyOf = (id = 'D-real', type = 5) => ({ id, type });
  const shown = () => r.cache.dependencies.listFor('e1').map((d) => d.id);
  let localId: string;

  beforeEach(async () => {
    localId = r.outbox.newTempId();
    r.outbox.write('dependency.create', {
      tempId: localId,
      input: { type: 5, predecessor: { kind: 'task', id: 't1' }, successor: { kind: 'event', id: 'e1' } },
    });
    await r.run();
    expect(r.outbox.entries('stuck').map((x) => x.kind)).toEqual(['task.create', 'dependency.create']);
  });

  it('is not stored: the local row alone stands for it; a copy stored earlier leaves the cache', async () => {
    r.dependencies = [copyOf(), copyOf('D-other', 6)];
    const onDemand = createOnDemand(r.deps, gate);
    r.cache.transaction(() =>
      r.cache.dependencies.replaceFor(
        'event',
        'e1',
        { predecessors: [{ ...copyOf(), predecessorTaskId: 't1' }], successors: [] },
        { keep: (id) => id === localId },
      ),
    );
    expect(shown().sort()).toEqual(['D-real', localId].sort());
    await onDemand.run(dependencyReads.ofEvent('e1'));
    expect(shown().sort()).toEqual(['D-other', localId].sort());
  });

  it('"try again" then folds it: one dependency, under the real id', async () => {
    r.dependencies = [copyOf()];
    const onDemand = createOnDemand(r.deps, gate);
    await onDemand.run(dependencyReads.ofEvent('e1'));
    repair();
    const stuck = r.outbox.entries('stuck').find((x) => x.kind === 'dependency.create');
    r.outbox.tryAgain(stuck!.id);
    await r.run();
    expect(r.outbox.realIdOf(localId)).toBe('D-real');
    expect(shown()).toEqual(['D-real']);
    await onDemand.run(dependencyReads.ofEvent('e1'));
    expect(shown()).toEqual(['D-real']);
  });

  it('"reload" settles it: the local row goes and the next fetch brings the service\'s', async () => {
    r.dependencies = [copyOf()];
    const onDemand = createOnDemand(r.deps, gate);
    await onDemand.run(dependencyReads.ofEvent('e1'));
    const stuck = r.outbox.entries('stuck').find((x) => x.kind === 'dependency.create');
    await r.outbox.reload(stuck!.id, r.fetchItem);
    expect(shown()).toEqual([]);
    // A pull never fetches dependencies: the reload asks for both ends' lists.
    expect(r.fetched).toEqual([
      {
        entity: 'dependency',
        id: null,
        dependencyEnds: [
          { kind: 'task', id: 't1' },
          { kind: 'event', id: 'e1' },
        ],
      },
    ]);
    await onDemand.run(dependencyReads.ofEvent('e1'));
    expect(shown()).toEqual(['D-real']);
  });
});

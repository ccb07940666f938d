import { AbortedError } from '../api/errors';
import type { KnownElements } from '../api/client';
import { yieldToLoop } from '../api/list-elements';
import { createWriteBatcher, type Gate } from '../sync/context';
import { isGone, storeDependencies, type OnDemandRead } from '../sync/on-demand';
import { ackMark } from '../sync/pending';
import { storeInSlices } from '../sync/store-slices';
import { staleTasksByActivity } from '../sync/stale-tasks';
import { TodoLists, type Task, taskEndpoints } from '../../../shared/api/tasks';
import { endsTheRun, pullProjectTaskList, pullTaskParts, storeTasks, type PullContext } from '../sync/pull';
import { confirmRemoval } from '../sync/removal';
import { RejectedError } from '../api/errors';
import { isTempId } from '../local-ids';
import { settledWithin } from '../wait-at-most';
import { customFieldValues } from './theirs';
import type { CheckedItem, EntityDescriptor, SendCheckReads } from './types';
import type { TaskChanges } from '../../../shared/ipc/tasks-write';
import type { TaskFlat } from '../cache/repos/tasks';
import { dependencyEndpoints } from '../../../shared/api/dependencies';

declare module '../sync/pending' {
  /** As its lists answer it: what a create's look-up finds the created item among. */
  interface ListedItems {
    task: Task;
    /** A message with the task it was listed for. */
    message: ListedMessage;
  }
}

/**
 * The task update's fields (`TaskChanges`) by the task column each one sets: only the title is
 * named otherwise (`name`). Undo reads an update's columns before and after it
 * (`handlers/tasks-write.ts`); "take theirs" of a conflict on a column queues an update of its
 * field (the inverse below).
 */
export const TASK_CHANGE_COLUMNS = {
  title: 'name',
  startDate: 'startDate',
  endDate: 'endDate',
  deadline: 'deadline',
  scheduleDate: 'scheduleDate',
  priority: 'priority',
  estimate: 'estimate',
  progress: 'progress',
  storyPoints: 'storyPoints',
  assignedToUserId: 'assignedToUserId',
  todoList: 'todoList',
  projectId: 'projectId',
  parentTaskId: 'parentTaskId',
} as const satisfies Partial<Record<keyof TaskChanges, keyof TaskFlat>>;

/** Request field names of `task.update` by the task field a conflict names (not the to-do list). */
const TASK_FIELD_TO_CHANGE: Record<string, string> = Object.fromEntries(
  Object.entries(TASK_CHANGE_COLUMNS)
    .filter(([change]) => change !== 'todoList')
    .map(([change, column]) => [column, change]),
);

/**
 * A first pull's own lists (`pullMyLists`), asked for in its first round trip and awaited by
 * the task lists' part, which lets their tasks be stored once it begins (the tree is stored then).
 */
interface MyListsRun {
  /** Settles once both lists are read and stored, or given up on. */
  done: Promise<void>;
  /** Tasks a project list stored this run: my lists do not store their older copies over them. */
  seen: Set<string>;
  /** Says the tree is in the cache: my lists' tasks may be stored now. */
  treeStored(): void;
}

const myListsRuns = new WeakMap<PullContext, MyListsRun>();

/** The run of my lists in this pull, started now if its first round trip did not (see `MyListsRun`). */
function myListsOf(ctx: PullContext): MyListsRun {
  let run = myListsRuns.get(ctx);
  if (!run) {
    let treeStored!: () => void;
    const tree = new Promise<void>((resolve) => (treeStored = resolve));
    const seen = new Set<string>();
    const done = pullMyLists(ctx, seen, tree);
    // Its failure is awaited by the task lists' part; meanwhile it must not count as unhandled.
    done.catch(() => {});
    run = { done, seen, treeStored };
    myListsRuns.set(ctx, run);
  }
  return run;
}

/**
 * On a first pull, my lists are asked for in its first round trip, before the tree (this part
 * starts before the projects' own) and the organization lists (the acting user is the account's:
 * no request tells it): their answers are read while the tree is asked for and stored, and their
 * tasks are stored once it is in (`pullMyLists`).
 */
function startMyLists(ctx: PullContext): Promise<void> {
  if (ctx.first) myListsOf(ctx);
  return Promise.resolve();
}

/**
 * How long the second of my lists to answer waits for the first to be read and stored before it
 * is read itself (see `pullMyLists`): a first list retried after time-outs must not hold it long.
 */
export const SECOND_LIST_WAIT_MS = 5_000;

/**
 * The acting user's own lists (`/user/{me}/action-required-tasks` and `/assigned-tasks`, open
 * tasks), read on a first pull ahead of the project lists: two round trips put My Work and the
 * inbox's Action required in the cache before the project lists, one per root and up to many
 * megabytes each, are asked for (see `pullTaskLists`). Only tasks of projects in the tree are
 * stored (a task outside it would never be judged by a full list), so nothing is stored before
 * `tree` settles, and none a project list already stored: a full list is the fresher or the same.
 * Nothing is removed from these lists (a task missing from them may just be someone else's);
 * removals are judged from the full lists alone.
 *
 * A task is often in both lists, as the same text. The lists are asked for at once, but read one
 * after the other: the second to answer waits (its bytes held by the network) until the first is
 * read and stored, then takes each element the first stored exactly as sent, by its fingerprint,
 * as held: neither parsed, nor checked, nor stored again. Storing that same text again would write
 * the values already there, or older ones over a row written since (a detail read, a local edit).
 */
async function pullMyLists(ctx: PullContext, seen: ReadonlySet<string>, tree: Promise<void>): Promise<void> {
  const { deps, gate, mark } = ctx;
  const { cache, client, userId } = deps;
  let inTree: Set<string> | undefined;
  let treeStored = false;
  void tree.then(() => (treeStored = true));
  /** The tree stored, or the run ended (then no task list's part runs to say so). */
  const treeIn = () =>
    new Promise<void>((resolve, reject) => {
      const { signal } = ctx.run;
      const onAbort = () => reject(cancelled());
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      void tree.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  /** The id of each task my lists stored exactly as its element, by the element's fingerprint. */
  const storedAsSent = new Map<string, string>();
  /** Tasks stored that the views have not heard of yet. */
  let unheard = 0;
  /** My lists' tasks not stored because the project list could not be read (no tree to judge by). */
  let treeMissing = 0;
  const cancelled = () => new AbortedError('SYNC', '', 'cancelled');
  // Each list is stored as its answer arrives, a slice at a time (thousands of tasks parsed and
  // stored in one stretch held the loop for half a second), and the views hear of each slice the
  // reader hands over (a few hundred tasks): My Work shows its first rows before the rest came.
  // A project list's slice stored between two of these is the fresher, so `seen` is asked again
  // for each chunk; so is `storedAsSent`: an element of one list stored exactly as sent by the
  // other (its slices read before the tree was stored, when there was nothing to take it as held
  // against) is not stored again. A cancelled run stores no further chunk.
  const store = async ({ items, fingerprints }: { items: Task[]; fingerprints: string[] }) => {
    if (!inTree) {
      await treeIn();
      inTree ??= new Set(ctx.roots.flatMap((root) => cache.projects.subtreeIds(root)));
    }
    const within = inTree;
    if (ctx.run.signal.aborted) throw cancelled();
    const inside = items.flatMap((task, at) =>
      within.has(task.projectId) ? [[task, fingerprints[at]!] as const] : [],
    );
    if (!ctx.treeRead) treeMissing += items.length - inside.length;
    await storeInSlices(cache.transaction, inside, (chunk) => {
      if (ctx.run.signal.aborted) throw cancelled();
      const unseen = chunk.filter(
        ([task, fingerprint]) => !seen.has(task.id) && !storedAsSent.has(fingerprint),
      );
      unheard += unseen.length;
      for (const at of storeTasks(
        deps,
        unseen.map(([task]) => task),
        mark,
      )) {
        const [task, fingerprint] = unseen[at]!;
        storedAsSent.set(fingerprint, task.id);
      }
    });
    if (unheard) {
      unheard = 0;
      ctx.changed(['tasks']);
    }
  };
  /** The first of my lists to be read (the first whose answer began): the other waits for it. */
  let readFirst: Promise<void> | undefined;
  /**
   * What a list's read knows already: what the other stored as sent, once read (see above). The
   * second list waits for the first only once the tree is stored: before, the first's slices wait
   * for the tree, whose requests may wait for the second's place at the gate, and there is nothing
   * to take as held yet (its elements are read, and dropped as they are stored, see `store`).
   */
  const knownBy = (own: Promise<void>, path: string): KnownElements => ({
    idOf: (fingerprint) => storedAsSent.get(fingerprint),
    mayBeWhole: () => false,
    async prepare() {
      readFirst ??= own;
      if (readFirst === own || !treeStored) return;
      if (!(await settledWithin(readFirst, SECOND_LIST_WAIT_MS)))
        deps.log(`${path}: read without waiting longer for my other list (${SECOND_LIST_WAIT_MS} ms)`);
    },
  });
  // Either list unread costs nothing but time: the project lists hold every task in it. A list
  // the cache could not store (the disk full, a damaged file) is not the service's fault and is
  // not hidden: the run ends with it, as with any other cache write that fails in a pull.
  const read = async (
    path: string,
    call: (s: AbortSignal, each: typeof store, known: KnownElements) => Promise<unknown>,
  ) => {
    let storeFailure: { err: unknown } | undefined;
    const storeOrNote: typeof store = async (slice) => {
      try {
        await store(slice);
      } catch (err) {
        storeFailure ??= { err };
        throw err;
      }
    };
    // Until the tree is stored the slices wait in memory and the answer is read on to its end, so
    // its request's place at the gate is let go once read: the tree's own requests may be waiting
    // for it. Once the tree is stored, each slice is stored before the next is read.
    let queued = Promise.resolve();
    const handOver: typeof store = (slice) => {
      queued = queued.then(() => storeOrNote(slice));
      // Awaited once the answer is read or its read failed; meanwhile its failure must not count
      // as unhandled.
      queued.catch(() => {});
      return treeStored ? queued : Promise.resolve();
    };
    let ended!: () => void;
    const own = new Promise<void>((resolve) => (ended = resolve));
    const known = knownBy(own, path);
    try {
      await gate((signal) => call(signal, handOver, known));
      await queued;
      return true;
    } catch (err) {
      // Cancelled while its tasks waited for the tree: not the cache's fault.
      if (ctx.run.signal.aborted) throw err;
      // The slices handed over before a read failed are stored all the same (or fail to be).
      await queued.catch(() => {});
      if (ctx.run.signal.aborted) throw cancelled();
      if (storeFailure) {
        deps.log(`${path}: its tasks could not be stored in the cache: ${String(storeFailure.err)}`);
        throw storeFailure.err;
      }
      if (endsTheRun(err)) throw err;
      deps.log(`${path} could not be read; the project lists stand for it: ${String(err)}`);
      return false;
    } finally {
      ended();
    }
  };
  const me = encodeURIComponent(userId);
  let both: [boolean, boolean];
  try {
    both = await Promise.all([
      read(`/user/${me}/action-required-tasks`, (signal, each, known) =>
        client.call(taskEndpoints.actionRequiredTaskList, { id: userId }, { signal, each, known }),
      ),
      read(`/user/${me}/assigned-tasks`, (signal, each, known) =>
        client.call(taskEndpoints.assignedTaskList, { id: userId, query: {} }, { signal, each, known }),
      ),
    ]);
  } finally {
    // Tasks stored before one list failed are in the cache: the views hear of them all the same.
    if (unheard) ctx.changed(['tasks']);
  }
  // Without the tree none of their tasks could be stored: My Work is not ready, whatever was read.
  if (treeMissing) deps.log(`my lists: ${treeMissing} tasks not stored, the project list could not be read`);
  if (both[0] && both[1] && ctx.treeRead) ctx.progress.initial?.({ myWorkReady: true });
}

/** How long a first pull's project lists wait for the user's own lists to be stored. */
export const MY_LISTS_HEAD_START_MS = 5_000;

/**
 * Every root project's tasks (closed too, subfolders included), then, per root read, the removal
 * of cached tasks of its subtree that no list returned (rule 9 checked). Messages wait for it.
 * On a first pull the acting user's own lists are read and stored before them (`pullMyLists`), and
 * each list is stored as it arrives, its projects counted in the progress.
 */
async function pullTaskLists(ctx: PullContext): Promise<void> {
  const { deps, gate, mark } = ctx;
  const { cache, client, log } = deps;
  const myLists = ctx.first ? myListsOf(ctx) : undefined;
  // The tree is stored (the projects' phase is done): my lists' tasks may be stored now.
  myLists?.treeStored();
  /**
   * The ids each project list held (of one that failed, those of the slices stored before), for
   * the removal check below. A first pull's own lists ask
   * `seen` as they store (a task a project list holds is not stored over), so there each list's
   * ids go in it as they come; a steady pull makes the set only when a check needs it (the
   * lists' 20,000 ids put in a set at every pull were 10-15 ms of its CPU).
   */
  const listed: (readonly string[])[] = [];
  let seen: Set<string> | undefined = myLists?.seen;
  const seenOf = (): ReadonlySet<string> => {
    if (!seen) {
      seen = new Set<string>();
      for (const ids of listed) for (const id of ids) seen.add(id);
    }
    return seen;
  };
  const fetchedRoots: string[] = [];
  /**
   * Tasks whose element could not be read (the service still holds them: they stay), and the
   * roots whose list had one without a readable id (it may be any of their tasks: none removed).
   */
  const unreadable = new Set<string>();
  const unnamedUnreadableIn = new Set<string>();
  /** Roots whose list held every task as stored, with its length (see the removal below). */
  const asStored = new Map<string, number>();
  const listOf = (root: string) =>
    gate((s) =>
      client.call(taskEndpoints.projectTasks, { id: root, query: { closed: true, subfolders: true } }, s),
    );
  const mine = myLists?.done;
  // Its failure is awaited below.
  let mineFailed = false;
  mine?.catch(() => (mineFailed = true));
  const subtreeSize = (root: string) => cache.projects.subtreeIds(root).length;
  let projectsDone = 0;
  if (ctx.first)
    ctx.progress.initial?.({
      projectsDone,
      projectsTotal: ctx.roots.reduce((n, root) => n + subtreeSize(root), 0),
    });
  // On a first pull the project lists are asked for once the user's own lists are stored (read
  // or given up on), or after MY_LISTS_HEAD_START_MS (or the sync's own) if they take longer (a list retried after
  // time-outs must not hold the whole sync): asked together, the project lists' megabytes were
  // parsed and stored on the same thread as My Work's slices (and served by the same service),
  // and My Work waited for them. Two small lists cost the whole sync about one round trip more.
  if (mine) await settledWithin(mine, deps.myListsHeadStartMs ?? MY_LISTS_HEAD_START_MS);
  if (ctx.first) ctx.progress.initial?.({ projectListsAsked: true });
  // My lists end the run only with a failure that ends it anyway (the cache could not store
  // them, the run cancelled, the token refused): no project list is asked for then.
  if (mineFailed) await mine;
  await Promise.all(
    ctx.roots.map((root) =>
      ctx
        .isolated(`/project/${encodeURIComponent(root)}/tasks`, async () => {
          try {
            // Each slice's ids count as listed once stored, even if the list fails after: a task
            // stored from it may be held in another root's subtree (its move there waiting to be
            // sent keeps its project, rule 7), whose check must not take it for gone. On a first
            // pull they go in `seen` at once, so the per-user lists do not store over them.
            const list = await pullProjectTaskList(deps, gate, root, mark, (stored) => {
              if (myLists) for (const id of stored) myLists.seen.add(id);
              else listed.push(stored);
            });
            const { ids, stored } = list;
            for (const id of list.unreadable) unreadable.add(id);
            if (list.unnamedUnreadable) unnamedUnreadableIn.add(root);
            // The stored ones are named twice then: the set, made only for a check, holds them once.
            if (myLists) for (const id of ids) myLists.seen.add(id);
            else listed.push(ids);
            fetchedRoots.push(root);
            // Distinct tasks: an answer listing one twice must not stand for a task gone from it.
            if (list.asStored !== undefined) asStored.set(root, list.asStored);
            // A list whose every task was as stored changed nothing a view shows.
            if (stored) ctx.changed(['tasks']);
          } catch (err) {
            // A root deleted since the project list answered: its tasks go with the next pull.
            if (!(err instanceof RejectedError && err.status === 404)) throw err;
          }
        })
        .finally(() => {
          // Counted when its read ends, stored or not: the progress is of the run, not of success.
          if (ctx.first) ctx.progress.initial?.({ projectsDone: (projectsDone += subtreeSize(root)) });
        }),
    ),
  );
  // A task a per-user list stored and no full list holds is judged below like any other.
  await mine;
  for (const root of fetchedRoots) {
    // Each root's check is a few reads of the cache: the loop is given back between them.
    await yieldToLoop();
    await ctx.isolated(`/project/${encodeURIComponent(root)}/tasks`, async () => {
      if (unnamedUnreadableIn.has(root)) return;
      const subtree = cache.projects.subtreeIds(root);
      // A list whose every task is stored as it came has each of them cached in this subtree:
      // as many cached tasks there as it held means no other, so none to remove, and the
      // thousands of ids need not be read back (the steady pull's common case).
      if (asStored.get(root) === cache.tasks.countInProjects(subtree)) return;
      const cached = cache.tasks.idsInProjects(subtree);
      const listedIds = seenOf();
      // A task whose move to this subtree waits to be sent is not in this list yet (nor, once
      // the service answered it, in its old one's): it stays.
      const candidates = cached.filter(
        (id) =>
          !listedIds.has(id) &&
          !unreadable.has(id) &&
          !ctx.keep('task')(id) &&
          !deps.pending.pendingFieldsFor('task', id).has('projectId'),
      );
      const gone = await confirmRemoval(
        cached.length,
        candidates,
        async () => new Set((await listOf(root)).map((t) => t.id)),
        log,
        `project ${root}`,
      );
      if (gone.length) {
        cache.transaction(() => cache.tasks.delete(gone));
        ctx.changed(['tasks']);
      }
    });
  }
}

/**
 * A project's task list stands in for reads of its tasks one by one when it holds at most this
 * many tasks (as the cache knows them) per task it checks: a list of a few hundred tasks costs
 * about what one more round trip does, a list of thousands for two tasks does not pay.
 */
export const LISTED_TASKS_PER_CHECK = 50;

/**
 * The check before a send reads a task alone (its `recentActivityMoment` says when it last
 * changed), or the tasks among `along` in its project (as cached) with it, from one read of the
 * project's task list (closed tasks too), when that list is small enough for what it checks
 * (`LISTED_TASKS_PER_CHECK`). Only tasks are read along: a project list item or a CRM list item
 * lacks fields a single read has (custom fields, on the live service).
 */
const taskCheck: SendCheckReads = {
  async one(client, id) {
    const task = await client.call(taskEndpoints.task, { id });
    return { values: task, source: { at: task.recentActivityMoment } };
  },
  async along(cache, client, id, along) {
    const projectId = cache.tasks.row(id)?.projectId;
    if (!projectId || isTempId(projectId)) return undefined;
    const wanted = new Set([id, ...along.filter((other) => cache.tasks.row(other)?.projectId === projectId)]);
    if (wanted.size < 2) return undefined;
    if (cache.tasks.idsInProjects([projectId]).length > wanted.size * LISTED_TASKS_PER_CHECK)
      return undefined;
    const found = new Map<string, CheckedItem>();
    for (const task of await client.call(taskEndpoints.projectTasks, {
      id: projectId,
      query: { closed: true },
    }))
      if (wanted.has(task.id))
        found.set(task.id, { values: task, source: { at: task.recentActivityMoment } });
    return found;
  },
};

/** The on-demand reads of tasks, what a view opens: `sync.onDemand.run(taskReads.task(id))`. */
export const taskReads = {
  /**
   * The single-task response, messages and dependencies of a task. When only the dependencies
   * cannot be read, the detail and messages that arrived are kept but the task is not marked
   * as read (its detail's fetch moment is cleared), so the next open asks for all three again:
   * nothing else reads a task's dependencies. The read's error is thrown after that.
   */
  task:
    (taskId: string): OnDemandRead =>
    async (deps, gate) => {
      const { cache, client, pending } = deps;
      const mark = ackMark(pending);
      const unread: unknown[] = [];
      const [parts, dependencies] = await Promise.all([
        pullTaskParts(deps, gate, taskId, true),
        gate((s) => client.call(dependencyEndpoints.dependencies, { kind: 'task', id: taskId }, s)).catch(
          (err: unknown) => {
            if (!isGone(err)) unread.push(err);
            return null;
          },
        ),
      ]);
      if (parts === 'ok') {
        cache.transaction(() => {
          if (dependencies) storeDependencies(deps, 'task', taskId, dependencies, mark);
          if (unread.length) cache.tasks.forgetDetailFetched(taskId);
        });
        deps.emitChange({ entities: ['tasks', 'messages', 'dependencies'], ids: { tasks: [taskId] } });
      } else deps.emitChange({ entities: ['tasks'], ids: { tasks: [taskId] } });
      // A task the service called gone is gone, whatever its dependencies' read answered.
      if (unread.length && parts === 'ok') throw unread[0];
      return parts;
    },
};

export const task: EntityDescriptor<'task'> = {
  views: ['tasks', 'messages', 'tags'],
  idsOf: 'tasks',
  tables: [{ name: 'tasks', localId: 'id', refs: ['project_id', 'parent_task_id', 'crm_account_id'] }],
  pull: [
    { phase: 'projects', run: startMyLists },
    { phase: 'tasks', awaited: true, run: pullTaskLists },
  ],
  fetch: taskReads.task,
  // A task's dependencies come with its detail.
  dependencies: taskReads.task,
  takeTheirs: ({ submit, cache, newLocalRowId }, id, field, value) => {
    if (field === 'status') {
      const status = value as { id: string };
      submit('task.setStatus', { taskId: id, statusId: status.id, draftId: newLocalRowId() });
    } else if (field === 'customFieldsData') {
      const values = customFieldValues(value, cache.tasks.get(id)?.customFieldsData);
      if (values.length) submit('task.setCustomFields', { taskId: id, values });
    } else if (field === 'todoList') {
      // The service's lists as it sent them (the update replaces the whole set); a value that
      // is no set of lists (none sent) cannot be put back, and taking it is refused.
      const lists = TodoLists.safeParse(value);
      if (!lists.success) return false;
      submit('task.update', { taskId: id, changes: { todoList: lists.data } });
    } else if (TASK_FIELD_TO_CHANGE[field]) {
      submit('task.update', { taskId: id, changes: { [TASK_FIELD_TO_CHANGE[field]]: value } });
    } else return false;
    return true;
  },
  nameOf: (cache, id) => cache.tasks.getFlat(id)?.name ?? null,
  check: taskCheck,
};

export const taskTag: EntityDescriptor<'taskTag'> = {
  // Its changes are queued under their task's key (`task:id`), which refreshes the tags.
  views: [],
  tables: [{ name: 'task_tags', refs: ['task_id'] }],
  // A task's tags come with its detail, a tag's tasks with the tag's part.
  pull: [],
};

/**
 * Messages (and details once fetched) of tasks whose activity moved since they were fetched,
 * after the task lists stored the new activity moments.
 */
async function pullStaleMessages(ctx: PullContext): Promise<void> {
  const { deps, gate, run, progress, poolSize } = ctx;
  const { cache, pending } = deps;
  // The most recently active first: on a first pull (every task's messages unread) the tasks a
  // user is likeliest to open get theirs first; one opened before its turn fetches them at once
  // (`tasks.detail`).
  const stale = await staleTasksByActivity(cache, pending);
  // Views refresh once per batch of stored messages while they stream in.
  const batch = createWriteBatcher(cache, () => deps.emitChange({ entities: ['messages', 'tasks'] }));
  // The whole count is known now, so the progress bar does not jump; the fetches themselves are
  // started by a small pool pulling from one queue, so a 20,000-task pull holds a few dozen
  // pending requests in memory, not 20,000.
  const counted: Gate = (call) => gate(call, true);
  progress.add(stale.reduce((n, s) => n + (s.detailFetchedAt !== null ? 2 : 1), 0));
  const queue = stale[Symbol.iterator]();
  const workers = Array.from({ length: Math.min(stale.length, poolSize) }, async () => {
    for (const { id, detailFetchedAt } of queue) {
      if (run.signal.aborted) throw new AbortedError('SYNC', '', 'cancelled');
      // One task's messages that cannot be read cost that task's, not the others'.
      await ctx.isolated(`/task/${encodeURIComponent(id)}/messages`, () =>
        pullTaskParts(deps, counted, id, detailFetchedAt !== null, batch.write),
      );
    }
  });
  try {
    await Promise.all(workers);
  } finally {
    batch.flush();
  }
}

export const message: EntityDescriptor<'message'> = {
  // Its changes (comments, replies, status notes) are queued under their task's key.
  views: [],
  tables: [{ name: 'messages', refs: ['task_id'] }],
  pull: [{ phase: 'details', run: pullStaleMessages }],
};

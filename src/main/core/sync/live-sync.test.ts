import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import type { Cache } from '../cache/cache';
import { openCacheDb } from '../cache/db';
import { describeReadProblem } from '../../../shared/ipc/sync';
import {
  LIVE_ACCOUNTS,
  LIVE_CONTACTS,
  LIVE_CUSTOM_FIELDS,
  LIVE_MESSAGES,
  LIVE_PROJECT,
  LIVE_PROJECTS,
  LIVE_STATUSES,
  LIVE_TASK_TYPES,
  LIVE_TASKS,
  LIVE_USERS,
} from '../../../shared/api/live-bodies.fixture';
import { notOfferedParts } from './not-offered';
import { createSync, type Sync } from './sync';
import { SYNC_TEST_DEFAULTS } from './testing';
import { accountCache, PULL_PARTS } from '../handlers/index';
import { withFolders } from './pull';
import { ProjectsResponse } from '../../../shared/api/projects';
import { projectReads } from '../entities/projects';
import { taskReads } from '../entities/tasks';
import { aDocument, anEvent } from '../cache/fixtures';

type Route = (url: URL) => unknown;

/**
 * A service answering as the live one does: the bodies of live-bodies.fixture, no tag or
 * template list, and 404 for what GoodDay does not offer. `over` replaces a path's answer (a
 * function of the URL, or a Response).
 */
function liveService(over: Record<string, Route> = {}, calls: string[] = []): FetchLike {
  const routes: Record<string, Route> = {
    '/custom-fields': () => LIVE_CUSTOM_FIELDS,
    '/users': () => LIVE_USERS,
    '/statuses': () => LIVE_STATUSES,
    '/task-types': () => LIVE_TASK_TYPES,
    '/projects': (url) => (url.searchParams.get('archived') === 'true' ? [] : LIVE_PROJECTS),
    '/project/FoLd01/tasks': () => [],
    '/project/PrJ002/tasks': () => [],
    '/project/FoLd01/documents': () => [],
    '/project/PrJ002/documents': () => [],
    '/events': () => [],
    '/user/Ua1B2c/time-reports': () => [],
    '/crm/contacts': () => LIVE_CONTACTS,
    '/crm/accounts': () => LIVE_ACCOUNTS,
    '/task/TaSk01/messages': () => LIVE_MESSAGES,
    '/task/TaSk02/messages': () => [],
    '/task/TaSk03/messages': () => [],
    '/project/PrJ001': () => LIVE_PROJECT,
    ...over,
  };
  return async (input) => {
    const url = new URL(input);
    const path = url.pathname.replace('/2.0', '');
    calls.push(path);
    const route = routes[path];
    if (!route) return new Response('{"errorMessage":"Not found"}', { status: 404 });
    const body = route(url);
    if (body instanceof Response) return body;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

const syncs: Sync[] = [];
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((s) => s.stop()));
});

function setup(fetch: FetchLike): { cache: Cache; sync: Sync } {
  const cache = accountCache(openCacheDb(':memory:'));
  const client = createServiceClient({ baseUrl: 'http://live.test/2.0', token: 't', fetch });
  const sync = createSync({
    cache,
    pullParts: PULL_PARTS,
    client,
    ...SYNC_TEST_DEFAULTS,
    userId: 'Ua1B2c',
    clock: () => new Date(2023, 9, 10, 9),
  });
  syncs.push(sync);
  return { cache, sync };
}

describe('a pull from a service that answers as the live one', () => {
  it('caches the tree, tasks with messages and CRM, without tag or template lists', async () => {
    const { cache, sync } = setup(liveService({ '/project/FoLd01/tasks': () => LIVE_TASKS }));
    const status = await sync.now();
    expect(status).toMatchObject({ lastError: null, readProblems: [] });
    expect(cache.org.statuses.all().map((s) => [s.name, s.isClosed])).toContainEqual(['Closed', true]);
    expect(cache.org.users.all().map((u) => u.name)).toEqual(['Ada Lovelace', 'Bob Brown']);
    const tree = cache.projects.tree(true, cache.tasks.counts());
    expect(tree.map((n) => [n.name, n.isFolder, n.depth])).toEqual([
      ['Client Projects', true, 0],
      ['Website relaunch', false, 1],
      ['Orphan project', false, 0],
    ]);
    expect(cache.tasks.get('TaSk03')?.momentClosed).toBe('2023-10-07T09:00:00');
    expect(cache.messages.listForTask('TaSk01').map((m) => m.message)).toEqual(['Please review', '']);
    expect(cache.crm.contact('CoN001')).toMatchObject({ firstName: 'Grace', userId: null });
  });

  it('reads the rest of a list with unreadable items, and goes on past a part that fails', async () => {
    const broken = LIVE_TASKS.map((t, i) => (i === 0 ? t : { ...t, status: null }));
    const extra = { ...LIVE_TASKS[0], id: 'TaSk04', name: null };
    const { cache, sync } = setup(
      liveService({
        '/project/FoLd01/tasks': () => [...broken, extra],
        '/statuses': () => new Response('{"errorMessage":"boom"}', { status: 400 }),
        '/crm/accounts': () => ({ not: 'a list' }),
      }),
    );
    const status = await sync.now();
    // The run says parts failed (so it is tried again) but stored all it could read.
    expect(status.lastError).toMatch(/^2 parts could not be read; the first: GET \/(statuses|crm\/accounts)/);
    // What could be read was stored: users, the readable task, contacts.
    expect(cache.org.users.all()).toHaveLength(2);
    expect(cache.tasks.get('TaSk01')?.name).toBe('Task TaSk01');
    expect(cache.tasks.get('TaSk02')).toBeNull();
    expect(cache.crm.contact('CoN001')).not.toBeNull();
    const byKey = new Map(status.readProblems.map((p) => [p.key, p]));
    const tasks = byKey.get('/project/FoLd01/tasks');
    expect(tasks).toMatchObject({ count: 3, total: 4, field: 'status', itemId: 'TaSk02' });
    expect(tasks && describeReadProblem(tasks)).toBe(
      '3 tasks of folder "Client Projects" (of 4) could not be read',
    );
    expect(byKey.get('/statuses')).toMatchObject({ count: null, field: null });
    expect(describeReadProblem(byKey.get('/statuses')!)).toBe('The statuses could not be read');
    expect(byKey.get('/crm/accounts')).toMatchObject({ count: null, field: 'body' });
    // Kept in the cache across a restart of the core.
    expect(cache.syncState.get('readProblems')?.value).toHaveLength(3);
  });

  it('clears a read problem once the same read goes through', async () => {
    let bad = true;
    const { sync } = setup(
      liveService({
        '/project/FoLd01/tasks': () => (bad ? [{ ...LIVE_TASKS[0], taskType: 7 }] : LIVE_TASKS),
      }),
    );
    expect((await sync.now()).readProblems.map((p) => p.key)).toEqual(['/project/FoLd01/tasks']);
    bad = false;
    expect((await sync.now()).readProblems).toEqual([]);
  });

  it('a project whose side parts answer 404 is kept, the parts marked not offered', async () => {
    const calls: string[] = [];
    const { cache, sync } = setup(liveService({ '/project/FoLd01/tasks': () => LIVE_TASKS }, calls));
    await sync.now();
    expect(await sync.onDemand.run(projectReads.project('PrJ001'))).toBe('ok');
    expect(cache.projects.get('PrJ001')).toMatchObject({ name: 'Website relaunch', settings: null });
    expect(notOfferedParts(cache, 'PrJ001')).toEqual(['dependencies', 'history', 'members']);
    // The history was asked at both paths the live service's clients use.
    expect(calls).toContain('/projects/PrJ001/history');
    expect(calls).toContain('/project/PrJ001/history');
  });

  it('takes the history from /project/{id}/history when only that path answers, and sticks to it', async () => {
    const calls: string[] = [];
    const history = [
      {
        id: 'HiS001',
        eventType: 'STATUS_COMMENTS_UPDATED',
        momentCreated: '2023-10-01T10:00:00',
        userId: 'Ua1B2c',
        params: { newValue: 'a', oldValue: 'b' },
      },
    ];
    const { cache, sync } = setup(liveService({ '/project/PrJ001/history': () => history }, calls));
    expect(await sync.onDemand.run(projectReads.project('PrJ001'))).toBe('ok');
    expect(cache.projectParts.historyOf('PrJ001').map((h) => h.id)).toEqual(['HiS001']);
    expect(notOfferedParts(cache, 'PrJ001')).toEqual(['dependencies', 'members']);
    calls.length = 0;
    await sync.onDemand.run(projectReads.project('PrJ001'));
    expect(calls.filter((c) => c.endsWith('/history'))).toEqual(['/project/PrJ001/history']);
  });

  it('without a tag list, the tags are those seen on tasks, shown by id until named', async () => {
    const calls: string[] = [];
    const { cache, sync } = setup(
      liveService(
        {
          '/project/FoLd01/tasks': () => LIVE_TASKS,
          '/task/TaSk01': () => ({ ...LIVE_TASKS[0], subtasks: [], tags: ['TaG001'] }),
        },
        calls,
      ),
    );
    await sync.now();
    expect(await sync.onDemand.run(taskReads.task('TaSk01'))).toBe('ok');
    expect(cache.org.tags.all()).toEqual([{ id: 'TaG001', name: 'TaG001', color: null }]);
    expect(cache.org.tagsOfTask('TaSk01').map((t) => t.name)).toEqual(['TaG001']);
    await sync.now();
    expect(calls.filter((c) => c.startsWith('/tag'))).toEqual(['/tags', '/tags']);
  });

  it('only a 404 on the project itself means it is gone', async () => {
    const { cache, sync } = setup(liveService({ '/project/FoLd01/tasks': () => LIVE_TASKS }));
    await sync.now();
    const gone = setup(liveService({ '/project/PrJ001': () => new Response('', { status: 404 }) }));
    await gone.sync.now();
    expect(await gone.sync.onDemand.run(projectReads.project('PrJ001'))).toBe('gone');
    expect(gone.cache.projects.get('PrJ001')).toBeNull();
    expect(cache.projects.get('PrJ001')).not.toBeNull();
  });

  it('a project whose list item cannot be read stays cached, with its tasks', async () => {
    let projects: unknown[] = LIVE_PROJECTS;
    const { cache, sync } = setup(
      liveService({
        '/projects': (url) => (url.searchParams.get('archived') === 'true' ? [] : projects),
        '/project/FoLd01/tasks': () => LIVE_TASKS,
      }),
    );
    await sync.now();
    const tasksOf = () => cache.tasks.idsInProjects(['PrJ001']).sort();
    expect(tasksOf()).toEqual(['TaSk01', 'TaSk02', 'TaSk03']);
    // Its item unreadable, with its id: that project stays, and so do its tasks.
    projects = LIVE_PROJECTS.map((p) => (p.id === 'PrJ001' ? { ...p, name: 42 } : p));
    const status = await sync.now();
    expect(status.lastError).toBeNull();
    expect(cache.projects.get('PrJ001')).not.toBeNull();
    expect(tasksOf()).toEqual(['TaSk01', 'TaSk02', 'TaSk03']);
    // An unreadable item without an id could be any project: none is removed in that pull.
    projects = LIVE_PROJECTS.map((p) => (p.id === 'PrJ002' ? { ...p, id: 42 } : p));
    await sync.now();
    expect(cache.projects.get('PrJ002')).not.toBeNull();
    // A list that can be read and lacks it removes it.
    projects = LIVE_PROJECTS.filter((p) => p.id !== 'PrJ002');
    expect((await sync.now()).readProblems).toEqual([]);
    expect(cache.projects.get('PrJ002')).toBeNull();
    expect(tasksOf()).toEqual(['TaSk01', 'TaSk02', 'TaSk03']);
  });

  it('an unreadable project item is told in the read problems, in the open or the archived list', async () => {
    let open: unknown[] = LIVE_PROJECTS;
    let archived: unknown[] = [];
    const { sync } = setup(
      liveService({ '/projects': (url) => (url.searchParams.get('archived') === 'true' ? archived : open) }),
    );
    expect((await sync.now()).readProblems).toEqual([]);
    // The open list's item unreadable: the archived list, read after it with none skipped, is
    // the same path and must not clear it.
    open = LIVE_PROJECTS.map((p) => (p.id === 'PrJ001' ? { ...p, name: 42 } : p));
    expect((await sync.now()).readProblems).toMatchObject([
      { key: '/projects', itemId: 'PrJ001', count: 1, total: LIVE_PROJECTS.length },
    ]);
    // One in each list: both counted, of both lists' items.
    archived = [{ ...LIVE_PROJECTS[2], id: 'ArC001', name: 7 }];
    expect((await sync.now()).readProblems).toMatchObject([
      { key: '/projects', itemId: 'PrJ001', count: 2, total: LIVE_PROJECTS.length + 1 },
    ]);
    // Both read whole: the problem is cleared.
    open = LIVE_PROJECTS;
    archived = [];
    expect((await sync.now()).readProblems).toEqual([]);
  });

  it('a task whose list element cannot be read stays cached', async () => {
    let tasks: unknown[] = LIVE_TASKS;
    const { cache, sync } = setup(liveService({ '/project/FoLd01/tasks': () => tasks }));
    await sync.now();
    const tasksOf = () => cache.tasks.idsInProjects(['PrJ001']).sort();
    expect(tasksOf()).toEqual(['TaSk01', 'TaSk02', 'TaSk03']);
    // Its element unreadable, with its id: that task stays.
    tasks = LIVE_TASKS.map((t) => (t.id === 'TaSk02' ? { ...t, status: 7 } : t));
    expect((await sync.now()).readProblems).toMatchObject([{ itemId: 'TaSk02', count: 1 }]);
    expect(tasksOf()).toEqual(['TaSk01', 'TaSk02', 'TaSk03']);
    // An unreadable element without an id could be any task: none of the list's is removed.
    tasks = [LIVE_TASKS[0], { ...LIVE_TASKS[1], id: 42 }];
    await sync.now();
    expect(tasksOf()).toEqual(['TaSk01', 'TaSk02', 'TaSk03']);
    // A list that can be read and lacks them removes them.
    tasks = [LIVE_TASKS[0]];
    expect((await sync.now()).readProblems).toEqual([]);
    expect(tasksOf()).toEqual(['TaSk01']);
  });

  it('a contact or an event whose list element cannot be read stays cached', async () => {
    const event = anEvent({ id: 'EvT001', startDate: '2023-10-12', endDate: '2023-10-12' });
    let contacts: unknown[] = LIVE_CONTACTS;
    let events: unknown[] = [event];
    const { cache, sync } = setup(liveService({ '/crm/contacts': () => contacts, '/events': () => events }));
    await sync.now();
    const eventIds = () => cache.events.idsInWindow('2023-01-01', '2024-12-31');
    expect(cache.crm.contact('CoN001')).not.toBeNull();
    expect(eventIds()).toEqual(['EvT001']);
    // Each unreadable, with its id: each stays as it was.
    contacts = LIVE_CONTACTS.map((c) => ({ ...c, firstName: 7 }));
    events = [{ ...event, startDate: 7 }];
    const problems = (await sync.now()).readProblems;
    expect(problems.map((p) => p.itemId).sort()).toEqual(['CoN001', 'EvT001']);
    expect(cache.crm.contact('CoN001')).toMatchObject({ firstName: 'Grace' });
    expect(eventIds()).toEqual(['EvT001']);
    // Without a readable id, they could be any: none is removed.
    contacts = LIVE_CONTACTS.map((c) => ({ ...c, id: 7 }));
    events = [{ ...event, id: 7 }];
    await sync.now();
    expect(cache.crm.contact('CoN001')).not.toBeNull();
    expect(eventIds()).toEqual(['EvT001']);
    // Lists that can be read and lack them remove them.
    contacts = [];
    events = [];
    expect((await sync.now()).readProblems).toEqual([]);
    expect(cache.crm.contact('CoN001')).toBeNull();
    expect(eventIds()).toEqual([]);
  });

  it('a document whose list element cannot be read stays cached', async () => {
    const [first, second] = [
      aDocument({ id: 'DoC001', projectId: 'PrJ001' }),
      aDocument({ id: 'DoC002', projectId: 'PrJ001' }),
    ];
    let docs: unknown[] = [first, second];
    const { cache, sync } = setup(
      liveService({
        '/project/FoLd01/documents': () => docs,
        // Their text, which the search index reads after a pull.
        '/document/DoC001': () => ({ ...first, content: 'Plan' }),
        '/document/DoC002': () => ({ ...second, content: 'Budget' }),
      }),
    );
    await sync.now();
    const docIds = () => cache.projectParts.documentIdsIn(cache.projects.subtreeIds('FoLd01')).sort();
    expect(docIds()).toEqual(['DoC001', 'DoC002']);
    // Its element unreadable, with its id: that document stays, and the problem is told.
    docs = [{ ...first, name: 7 }, second];
    expect((await sync.now()).readProblems).toMatchObject([{ itemId: 'DoC001', count: 1 }]);
    expect(docIds()).toEqual(['DoC001', 'DoC002']);
    // An unreadable element without an id could be any document: none of the subtree's goes.
    docs = [{ ...second, id: 7 }];
    await sync.now();
    expect(docIds()).toEqual(['DoC001', 'DoC002']);
    // A list that can be read and lacks it removes it.
    docs = [second];
    expect((await sync.now()).readProblems).toEqual([]);
    expect(docIds()).toEqual(['DoC002']);
  });

  it('an organization list element that cannot be read stays cached', async () => {
    // Tags and project templates as the spec's service lists them (the live one lists neither).
    const lists: Record<string, readonly Record<string, unknown>[]> = {
      '/users': LIVE_USERS,
      '/statuses': LIVE_STATUSES,
      '/task-types': LIVE_TASK_TYPES,
      '/custom-fields': LIVE_CUSTOM_FIELDS,
      '/tags': [
        { id: 'TaG001', name: 'Urgent', color: 1 },
        { id: 'TaG002', name: 'Later', color: null },
      ],
      '/project-templates': [
        { id: 'TpL001', name: 'Launch' },
        { id: 'TpL002', name: 'Audit' },
      ],
    };
    let answers: Record<string, readonly unknown[]> = lists;
    /** Each list as the service answers it now, its first element changed by `first`. */
    const withFirst = (first: (item: Record<string, unknown>) => Record<string, unknown> | null) =>
      Object.fromEntries(
        Object.entries(lists).map(([path, list]) => [
          path,
          list.flatMap((item, i) => (i > 0 ? [item] : (first(item) ?? []))),
        ]),
      );
    const routes = Object.fromEntries(Object.keys(lists).map((path) => [path, () => answers[path]]));
    const { cache, sync } = setup(
      liveService({ ...routes, '/tag/TaG001/tasks': () => [], '/tag/TaG002/tasks': () => [] }),
    );
    const { org } = cache;
    const cached = () =>
      [org.users, org.statuses, org.taskTypes, org.customFields, org.tags, org.projectTemplates]
        .flatMap((list) => list.all().map((item) => item.id))
        .sort();
    const firstIds = Object.values(lists).map((list) => list[0]!.id as string);
    expect((await sync.now()).lastError).toBeNull();
    const all = cached();
    expect(all).toEqual(expect.arrayContaining(firstIds));
    // Each list's first element unreadable, with its id: each stays, and each problem is told.
    answers = withFirst((item) => ({ ...item, name: 7 }));
    const problems = (await sync.now()).readProblems;
    expect(problems.map((p) => p.itemId).sort()).toEqual([...firstIds].sort());
    expect(cached()).toEqual(all);
    // Without a readable id, it could be any of its list: none of that list's rows goes.
    answers = withFirst((item) => ({ ...item, id: 7 }));
    await sync.now();
    expect(cached()).toEqual(all);
    // Lists that can be read and lack them remove them.
    answers = withFirst(() => null);
    expect((await sync.now()).readProblems).toEqual([]);
    expect(cached()).toEqual(all.filter((id) => !firstIds.includes(id)));
  });
});

describe('folders told from the tree when the answer says neither isFolder nor systemType', () => {
  it('an item with projects under it and no status is a folder', () => {
    const bare = LIVE_PROJECTS.map(({ systemType: _t, ...p }) => p);
    const projects = withFolders(ProjectsResponse.parse(bare));
    expect(projects.map((p) => [p.id, p.isFolder])).toEqual([
      ['FoLd01', true],
      ['PrJ001', false],
      ['PrJ002', false],
    ]);
  });
});

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openCacheDb } from './db';
import { migrate } from './migrate';
import { migrations } from './migrations/index';
import { flattenTask } from './repos/tasks';
import { toFtsQuery } from './repos/search';
import { SNIPPET_HIT_END, SNIPPET_HIT_START } from '../../../shared/search-query';
import { aContact, aDocument, aMessage, anAccount, anEvent, aProject, aTask } from './fixtures';
import type { TaskFilter } from '../../../shared/ipc/tasks';
import { accountCache } from '../handlers/index';

const open = () => accountCache(openCacheDb(':memory:'));
const allFilter: TaskFilter = { closed: 'all', topLevelOnly: false };

describe('cache migrations', () => {
  it('brings a new database to the last version, STRICT tables, and is idempotent', () => {
    const db = openCacheDb(':memory:');
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    const strict = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%CREATE TABLE%' AND sql NOT LIKE '%STRICT%' AND name NOT LIKE '%fts%'`,
      )
      .all();
    expect(strict).toEqual([]);
    expect(migrate(db, migrations)).toBe(migrations.length);
  });

  it('refuses a list whose versions are out of order and a database newer than the app', () => {
    const db = openCacheDb(':memory:');
    expect(() => migrate(db, [{ version: 2, name: 'x', up() {} }])).toThrow(/expected 1/);
    expect(() => migrate(db, migrations.slice(0, 1))).toThrow(/newer than this build knows/);
  });

  it('rolls back a failing migration as a whole', () => {
    const db = openCacheDb(':memory:');
    const broken = [
      ...migrations,
      {
        version: migrations.length + 1,
        name: 'broken',
        up: (d: typeof db) => {
          d.exec('CREATE TABLE half (x INTEGER) STRICT');
          throw new Error('boom');
        },
      },
    ];
    expect(() => migrate(db, broken)).toThrow('boom');
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_schema WHERE name = 'half'`).get()).toEqual({ n: 0 });
  });
});

describe('tasks repository', () => {
  function seeded() {
    const cache = open();
    cache.projects.upsertMany([
      aProject({ id: 'p1' }),
      aProject({ id: 'p2', parentProjectId: 'p1' }),
      aProject({ id: 'p3' }),
    ]);
    const tasks = [
      aTask({
        id: 't1',
        projectId: 'p1',
        name: 'Write spec',
        priority: 3,
        momentCreated: '2026-01-01T10:00:00',
      }),
      aTask({
        id: 't2',
        projectId: 'p1',
        name: 'review spec',
        priority: 50,
        assignedToUserId: 'u2',
        momentCreated: '2026-01-02T10:00:00',
      }),
      aTask({
        id: 't3',
        projectId: 'p1',
        name: 'Ship',
        momentClosed: '2026-01-05T10:00:00',
        momentCreated: '2026-01-03T10:00:00',
      }),
      aTask({
        id: 't4',
        projectId: 'p2',
        name: 'Child work',
        actionRequiredUserId: 'u2',
        momentCreated: '2026-01-04T10:00:00',
      }),
      aTask({
        id: 't5',
        projectId: 'p1',
        parentTaskId: 't1',
        name: 'Sub step',
        momentCreated: '2026-01-06T10:00:00',
      }),
      aTask({ id: 't6', projectId: 'p3', name: 'Elsewhere', assignedToUserId: 'u2' }),
    ];
    cache.transaction(() => cache.tasks.upsertMany(tasks.map(flattenTask)));
    return cache;
  }

  it('reads back a task exactly as the service sent it', () => {
    const cache = open();
    const task = aTask({
      id: 't1',
      projectId: 'p1',
      customFieldsData: { cf1: [1, 2] },
      users: ['u1', 'u2'],
      storyPoints: 3,
    });
    cache.tasks.upsertMany([flattenTask(task)]);
    expect(cache.tasks.get('t1')).toEqual({ ...task, formSubmission: null, crmAccountId: null });
    expect(cache.tasks.get('nope')).toBeNull();
  });

  it('lists open tasks of a project newest first, with the total', () => {
    const cache = seeded();
    const page = cache.tasks.list({
      scope: { kind: 'project', projectId: 'p1', includeSubprojects: false },
      filter: { closed: 'open', topLevelOnly: false },
      sort: { by: 'momentCreated', dir: 'desc' },
      offset: 0,
      limit: 200,
    });
    expect(page.rows.map((r) => r.id)).toEqual(['t5', 't2', 't1']);
    expect(page.total).toBe(3);
    expect(page.rows[0]).toMatchObject({ closed: false, statusName: 'New', parentTaskId: 't1' });
  });

  it('includes subprojects, filters, sorts case-insensitively and windows', () => {
    const cache = seeded();
    const base = {
      scope: { kind: 'project' as const, projectId: 'p1', includeSubprojects: true },
      offset: 0,
      limit: 200,
    };
    const byName = cache.tasks.list({ ...base, filter: allFilter, sort: { by: 'name', dir: 'asc' } });
    expect(byName.rows.map((r) => r.name)).toEqual([
      'Child work',
      'review spec',
      'Ship',
      'Sub step',
      'Write spec',
    ]);
    const window = cache.tasks.list({
      ...base,
      filter: allFilter,
      sort: { by: 'name', dir: 'asc' },
      offset: 1,
      limit: 2,
    });
    expect(window).toMatchObject({ total: 5, rows: [{ id: 't2' }, { id: 't3' }] });
    const closed = cache.tasks.list({
      ...base,
      filter: { closed: 'closed', topLevelOnly: false },
      sort: { by: 'name', dir: 'asc' },
    });
    expect(closed.rows.map((r) => [r.id, r.closed])).toEqual([['t3', true]]);
    const filtered = cache.tasks.list({
      ...base,
      filter: { ...allFilter, priorities: [50], assignedToUserId: 'u2' },
      sort: { by: 'priority', dir: 'desc' },
    });
    expect(filtered.rows.map((r) => r.id)).toEqual(['t2']);
    const unassignedTop = cache.tasks.list({
      ...base,
      filter: { closed: 'open', topLevelOnly: true, assignedToUserId: null },
      sort: { by: 'momentCreated', dir: 'asc' },
    });
    expect(unassignedTop.rows.map((r) => r.id)).toEqual(['t1', 't4']);
  });

  it('answers My Work and tag scopes', () => {
    const cache = seeded();
    const q = { filter: allFilter, sort: { by: 'momentCreated', dir: 'asc' as const }, offset: 0, limit: 10 };
    expect(
      cache.tasks.list({ ...q, scope: { kind: 'assigned', userId: 'u2' } }).rows.map((r) => r.id),
    ).toEqual(['t6', 't2']);
    expect(
      cache.tasks.list({ ...q, scope: { kind: 'actionRequired', userId: 'u2' } }).rows.map((r) => r.id),
    ).toEqual(['t4']);
    cache.org.setTagTasks('tag1', ['t3', 't4']);
    expect(cache.tasks.list({ ...q, scope: { kind: 'tag', tagId: 'tag1' } }).total).toBe(2);
  });

  it('keeps detail-only columns when the list shape is written again, and deletes with messages', () => {
    const cache = seeded();
    cache.tasks.setDetail('t1', 'acc1', '2026-02-01T00:00:00');
    cache.messages.replaceForTask('t1', [aMessage({ id: 'm1' })]);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1', name: 'Renamed' }))]);
    expect(cache.tasks.get('t1')).toMatchObject({ name: 'Renamed', crmAccountId: 'acc1' });
    cache.tasks.delete(['t1']);
    expect(cache.tasks.get('t1')).toBeNull();
    expect(cache.messages.listForTask('t1')).toEqual([]);
  });
});

describe('projects repository', () => {
  it('builds the tree depth first with counts, hiding archived on request', () => {
    const cache = open();
    cache.projects.upsertMany([
      aProject({ id: 'b', name: 'Beta' }),
      aProject({ id: 'a', name: 'alpha', isFolder: true }),
      aProject({ id: 'a2', name: 'Zed', parentProjectId: 'a' }),
      aProject({ id: 'a1', name: 'Ant', parentProjectId: 'a', systemStatus: 5 }),
      aProject({ id: 'o', name: 'Orphan', parentProjectId: 'not-visible' }),
    ]);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't', projectId: 'a2' }))]);
    const tree = cache.projects.tree(true, cache.tasks.counts());
    expect(tree.map((n) => [n.id, n.depth])).toEqual([
      ['a', 0],
      ['a1', 1],
      ['a2', 1],
      ['b', 0],
      ['o', 0],
    ]);
    expect(tree[0]).toMatchObject({ isFolder: true, archived: false });
    expect(tree[2]).toMatchObject({ taskCount: 1, openTaskCount: 1 });
    expect(cache.projects.tree(false, new Map()).map((n) => n.id)).toEqual(['a', 'a2', 'b', 'o']);
    expect(cache.projects.subtreeIds('a').sort()).toEqual(['a', 'a1', 'a2']);
    expect(cache.projects.path('a2')).toEqual([{ id: 'a', name: 'alpha' }]);
  });

  it('reads a project back as sent, settings once fetched', () => {
    const cache = open();
    const p = aProject({ id: 'p', customFieldsData: { f: 'x' }, color: 3 });
    cache.projects.upsertMany([p]);
    // Extension fields the service did not send read back as null.
    const absent = { isFolder: null, health: null, ownerUserId: null, deadline: null, statusId: null };
    expect(cache.projects.get('p')).toEqual({ ...p, ...absent, settings: null });
    const settings = {
      workItems: ['TASK'],
      additionalTaskCustomFields: [],
      taskCustomWorkflow: [],
      taskTypes: [],
    };
    cache.projects.setSettings('p', settings, '2026-01-01T00:00:00');
    expect(cache.projects.get('p')?.settings).toEqual(settings);
  });
});

describe('parts, events, CRM', () => {
  it('replaces a project subtree of documents and keeps content until the document changes', () => {
    const cache = open();
    cache.projectParts.replaceDocuments(
      ['p1', 'p2'],
      [aDocument({ id: 'd1', projectId: 'p1' }), aDocument({ id: 'd2', projectId: 'p2' })],
    );
    cache.projectParts.putDocument({ ...aDocument({ id: 'd1', projectId: 'p1' }), content: 'hello world' });
    const removed = cache.projectParts.replaceDocuments(
      ['p1', 'p2'],
      [aDocument({ id: 'd1', projectId: 'p1' })],
    );
    expect(removed).toEqual(['d2']);
    expect(cache.projectParts.document('d1')).toMatchObject({
      content: 'hello world',
      contentMoment: '2026-01-01T09:00:00.000000',
    });
  });

  it('replaces the events of a window only', () => {
    const cache = open();
    cache.events.replaceWindow('2026-01-01', '2026-12-31', [
      anEvent({ id: 'e1', startDate: '2026-03-01', endDate: '2026-03-05' }),
      anEvent({
        id: 'e2',
        eventType: 'project-milestone',
        startDate: '2027-02-01',
        endDate: undefined,
        projectId: 'p1',
      }),
    ]);
    cache.events.replaceWindow('2027-01-01', '2027-12-31', []);
    expect(cache.events.list({ from: '2026-03-04', to: '2027-12-31' }).map((e) => e.id)).toEqual(['e1']);
    cache.events.upsert(
      anEvent({
        id: 'e3',
        eventType: 'project-milestone',
        startDate: '2027-02-01',
        endDate: undefined,
        projectId: 'p1',
      }),
    );
    const milestone = cache.events.list({
      from: '2027-01-01',
      to: '2027-12-31',
      types: ['project-milestone'],
      projectId: 'p1',
    });
    expect(milestone).toHaveLength(1);
    expect(milestone[0]).not.toHaveProperty('endDate');
  });

  it('lists CRM contacts by text and account, windowed, without deleted ones', () => {
    const cache = open();
    cache.crm.replaceContacts([
      aContact({ id: 'c1', firstName: 'Grace', lastName: 'Hopper', crmAccountId: 'a1' }),
      aContact({ id: 'c2', firstName: 'Alan', lastName: 'Turing', email: 'alan@100%.org' }),
      aContact({ id: 'c3', firstName: 'Gone', lastName: 'Away', isDeleted: true }),
    ]);
    cache.crm.replaceAccounts([anAccount({ id: 'a1', name: 'Navy', contacts: ['c1'] })]);
    const q = { includeDeleted: false, offset: 0, limit: 10 };
    expect(cache.crm.listContacts(q).rows.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(cache.crm.listContacts({ ...q, text: '100%' }).rows.map((c) => c.id)).toEqual(['c2']);
    expect(cache.crm.listContacts({ ...q, accountId: 'a1' }).total).toBe(1);
    expect(cache.crm.listContacts({ ...q, includeDeleted: true, limit: 1 })).toMatchObject({
      total: 3,
      rows: [{ id: 'c3' }],
    });
    expect(cache.crm.account('a1')).toEqual(anAccount({ id: 'a1', name: 'Navy', contacts: ['c1'] }));
  });
});

describe('search', () => {
  it('finds tasks, messages, documents and CRM records by word prefix, kept current by writes', () => {
    const cache = open();
    cache.tasks.upsertMany([
      flattenTask(aTask({ id: 't1', projectId: 'p1', name: 'Quarterly budget review' })),
    ]);
    cache.messages.replaceForTask('t1', [aMessage({ id: 'm1', message: 'The budgets are attached' })]);
    cache.projectParts.putDocument({
      ...aDocument({ id: 'd1', projectId: 'p1', name: 'Plan' }),
      content: 'budget lines for Q3',
    });
    cache.crm.replaceContacts([aContact({ id: 'c1', firstName: 'Budgie', lastName: 'Smith' })]);
    const kinds = ['task', 'message', 'document', 'contact', 'account'] as const;
    const hits = cache.search.query('budg', kinds, 10);
    expect(hits.map((h) => `${h.kind}:${h.id}`).sort()).toEqual([
      'contact:c1',
      'document:d1',
      'message:m1',
      'task:t1',
    ]);
    expect(hits.find((h) => h.kind === 'message')).toMatchObject({
      taskId: 't1',
      title: 'Quarterly budget review',
    });
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1', name: 'Annual plan' }))]);
    expect(cache.search.query('quarterly', ['task'], 10)).toEqual([]);
    expect(cache.search.query('annual', ['task'], 10)).toHaveLength(1);
    cache.tasks.delete(['t1']);
    expect(cache.search.query('annual budg', kinds, 10).map((h) => h.kind)).toEqual([]);
  });

  it('finds projects and folders by name and description, kept current by writes', () => {
    const cache = open();
    cache.projects.upsertMany([
      aProject({ id: 'p1', name: 'Website relaunch', description: 'New landing pages and a blog' }),
      aProject({ id: 'f1', name: 'Marketing' }),
      aProject({ id: 'p2', name: 'Blog migration', parentProjectId: 'f1' }),
    ]);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1', name: 'Write blog post' }))]);
    const hits = cache.search.query('blog', ['project'], 10);
    // The name outweighs the description.
    expect(hits.map((h) => h.id)).toEqual(['p2', 'p1']);
    expect(hits[1]).toEqual({
      kind: 'project',
      id: 'p1',
      title: 'Website relaunch',
      snippet: `New landing pages and a ${SNIPPET_HIT_START}blog${SNIPPET_HIT_END}`,
      taskId: null,
      projectId: 'p1',
      shortId: null,
      date: null,
    });
    expect(
      cache.search
        .query('blog', ['task', 'project'], 10)
        .map((h) => `${h.kind}:${h.id}`)
        .sort(),
    ).toEqual(['project:p1', 'project:p2', 'task:t1']);
    cache.projects.upsertMany([
      aProject({ id: 'p1', name: 'Website relaunch', description: 'Landing pages' }),
    ]);
    expect(cache.search.query('blog', ['project'], 10).map((h) => h.id)).toEqual(['p2']);
    cache.projects.delete(['p2']);
    expect(cache.search.query('blog migration', ['project'], 10)).toEqual([]);
    expect(cache.search.query('market', ['project'], 10).map((h) => h.id)).toEqual(['f1']);
  });

  it('indexes projects cached before the project search existed when the migration runs', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 4));
    db.prepare(
      `INSERT INTO projects (id, name, description, moment_created, priority, status, system_status)
       VALUES ('p1', 'Old roadmap', 'kept from before', '2026-01-01T09:00:00', 1, 'Open', 2)`,
    ).run();
    expect(migrate(db, migrations)).toBe(migrations.length);
    expect(
      accountCache(db)
        .search.query('roadmap', ['project'], 5)
        .map((h) => h.id),
    ).toEqual(['p1']);
  });

  it('treats operators and punctuation in the input as plain text', () => {
    expect(toFtsQuery('a AND "b" (c*')).toBe('"a"* AND "AND"* AND "b"* AND "c"*');
    expect(toFtsQuery('  --  ')).toBeNull();
    const cache = open();
    expect(cache.search.query('NEAR( "x', ['task'], 5)).toEqual([]);
  });
});

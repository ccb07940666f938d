import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CACHE_ENTITIES,
  RESOURCE_NAMES,
  RESOURCES,
  entityNoun,
  type CacheEntity,
  type OutboxEntity,
  type ResourceName,
  type ResourcesDeclaredTwice,
} from '../../../shared/entities';
import { CHANNEL_DOMAINS, type DomainResources } from '../../../shared/ipc/contract';
import type { timeResources } from '../../../shared/ipc/time';
import { CacheEntity as CacheEntitySchema } from '../../../shared/ipc/events';
import { openCacheDb } from '../cache/db';
import type { ListedItems, PendingEntity } from '../sync/pending';
import { PULL_PHASES } from '../sync/pull';
import { cacheChangeOf, entityOf, localIdColumnsOf } from './index';
import type { Entities, EntityDescriptor } from './types';
import {
  ENTITIES,
  PULL_PARTS,
  REPOSITORIES,
  accountCache,
  type DescribedTwice,
  type HANDLER_MODULES,
  type ReposNamedTwice,
  type UnnamedRepos,
  type Undescribed,
  type Unhandled,
  type UnlistedKinds,
} from '../handlers/index';
import type { projectKinds } from '../outbox/kinds/projects';
import type { timeHandlers } from '../handlers/time';

const bare = { views: [], tables: [], pull: [] } as const;
const LOCAL_ID_COLUMNS = localIdColumnsOf(ENTITIES);

describe('the descriptor of every resource', () => {
  it('is complete by type: a resource missing anywhere does not compile', () => {
    // Every resource of `src/shared/entities.ts` needs its descriptor...
    const { timeReport: _left, ...withoutOne } = ENTITIES;
    // @ts-expect-error: `timeReport` is missing
    const missing: Entities = withoutOne;
    // ...and a descriptor of a resource the shared list does not name is refused.
    // @ts-expect-error: `invoice` is no resource
    const extra: Entities = { ...ENTITIES, invoice: bare };
    // An end of dependencies says how its dependency list is fetched.
    // @ts-expect-error: `dependencies` is missing
    const event: EntityDescriptor<'event'> = bare;
    // The views a change refreshes are cache entities.
    // @ts-expect-error: `invoices` is no cache entity
    const views: EntityDescriptor<'user'> = { ...bare, views: ['invoices'] };
    expect([missing, extra, event, views]).toHaveLength(4);
    expect(Object.keys(ENTITIES).sort()).toEqual([...RESOURCE_NAMES].sort());
  });

  it('is declared by one IPC domain: a resource two domains declare does not compile', () => {
    // `RESOURCES` is gathered from the domains of the IPC contract, each declaring its own...
    const once: Record<ResourcesDeclaredTwice<DomainResources<typeof CHANNEL_DOMAINS>>, never> = {};
    type Twice = readonly [
      ...typeof CHANNEL_DOMAINS,
      { channels: Record<never, never>; resources: typeof timeResources },
    ];
    expectTypeOf<ResourcesDeclaredTwice<DomainResources<Twice>>>().toEqualTypeOf<'timeReport'>();
    // @ts-expect-error: `timeReport` is declared by two domains
    const twice: Record<ResourcesDeclaredTwice<DomainResources<Twice>>, never> = {};
    expect([once, twice]).toHaveLength(2);
    // ...and every resource comes from one domain.
    const declared = CHANNEL_DOMAINS.flatMap((d) => ('resources' in d ? Object.keys(d.resources) : []));
    expect(declared.sort()).toEqual(Object.keys(RESOURCES).sort());
    expect(RESOURCES.timeReport).toEqual({
      noun: 'a time report',
      cacheEntities: ['timeReports'],
      outbox: true,
    });
  });

  it('is named by one module of the registry: a resource no module describes does not compile', () => {
    // `ENTITIES` is gathered from the handler modules: each resource is described by one...
    const all: Record<Undescribed<typeof HANDLER_MODULES>, never> = {};
    const once: Record<DescribedTwice<typeof HANDLER_MODULES>, never> = {};
    // ...the list without time reports' module leaves exactly `timeReport` undescribed...
    type WithoutTime = readonly Exclude<(typeof HANDLER_MODULES)[number], typeof timeHandlers>[];
    expectTypeOf<Undescribed<WithoutTime>>().toEqualTypeOf<'timeReport'>();
    // @ts-expect-error: `timeReport` is described by no module
    const missing: Record<Undescribed<WithoutTime>, never> = {};
    // ...and a resource two modules describe is refused (the later would replace the first).
    type Twice = readonly [...typeof HANDLER_MODULES, { entities: { timeReport: Entities['timeReport'] } }];
    expectTypeOf<DescribedTwice<Twice>>().toEqualTypeOf<'timeReport'>();
    // @ts-expect-error: `timeReport` is described twice
    const twice: Record<DescribedTwice<Twice>, never> = {};
    expect([all, once, missing, twice]).toHaveLength(4);
  });

  it('has its cache repositories named by its module: one a repository file adds and no module names does not compile', () => {
    // Each repository file adds itself to the cache's type (`ResourceRepos`); the modules name
    // their factories once...
    const all: Record<UnnamedRepos<typeof HANDLER_MODULES>, never> = {};
    const once: Record<ReposNamedTwice<typeof HANDLER_MODULES>, never> = {};
    // ...and the list without time reports' module leaves exactly their two repositories unmade.
    type WithoutTime = readonly Exclude<(typeof HANDLER_MODULES)[number], typeof timeHandlers>[];
    expectTypeOf<UnnamedRepos<WithoutTime>>().toEqualTypeOf<'timeReports' | 'timer'>();
    // @ts-expect-error: `timeReports` and `timer` are named by no module
    const missing: Record<UnnamedRepos<WithoutTime>, never> = {};
    type Twice = readonly [...typeof HANDLER_MODULES, { repos: { timer: (typeof REPOSITORIES)['timer'] } }];
    // @ts-expect-error: `timer` is named twice
    const twice: Record<ReposNamedTwice<Twice>, never> = {};
    expect([all, once, missing, twice]).toHaveLength(4);
    // The cache the root builds has each of them, made once over its database.
    const cache = accountCache(openCacheDb(':memory:'));
    for (const name of Object.keys(REPOSITORIES)) expect(cache, name).toHaveProperty(name);
    expect(cache.timeReports.byTask('t1')).toEqual([]);
  });

  it('has its handlers in the one registry: a channel of the engine nobody handles does not compile', () => {
    // Every channel of the contract the engine owns is handled by a module of the registry...
    const all: Record<Unhandled<typeof HANDLER_MODULES>, never> = {};
    // ...and the list without time reports' module leaves exactly their channels unhandled.
    type WithoutTime = readonly Exclude<(typeof HANDLER_MODULES)[number], typeof timeHandlers>[];
    // @ts-expect-error: `time.log`, `time.mine`, `time.ofTask` and the timer's channels are missing
    const missing: Record<Unhandled<WithoutTime>, never> = {};
    expectTypeOf<Unhandled<WithoutTime>>().toEqualTypeOf<
      | 'time.mine'
      | 'time.ofTask'
      | 'time.log'
      | 'time.timer'
      | 'time.timerStart'
      | 'time.timerUpdate'
      | 'time.timerStop'
      | 'time.timerDiscard'
    >();
    // Every kinds module is named by a handler module (the tasks' and attachments' the outbox
    // makes itself); with only the projects' named, the others are unlisted.
    expectTypeOf<UnlistedKinds<ReturnType<typeof projectKinds>>>().toEqualTypeOf<
      'calendar' | 'crm' | 'timeReports'
    >();
    expect([all, missing]).toHaveLength(2);
  });

  it('derives the names the layers share', () => {
    // What a pull asks the outbox about is what the outbox writes.
    expectTypeOf<PendingEntity>().toEqualTypeOf<OutboxEntity>();
    expectTypeOf<keyof ListedItems>().toExtend<PendingEntity>();
    expectTypeOf<keyof Entities>().toEqualTypeOf<ResourceName>();
    // The IPC schema of a cache change is the resources' views, nothing more.
    expectTypeOf<CacheEntitySchema>().toEqualTypeOf<CacheEntity>();
    expectTypeOf<CacheEntity>().toEqualTypeOf<
      | 'projects'
      | 'tasks'
      | 'messages'
      | 'members'
      | 'documents'
      | 'history'
      | 'events'
      | 'dependencies'
      | 'crmContacts'
      | 'crmAccounts'
      | 'customFields'
      | 'users'
      | 'statuses'
      | 'taskTypes'
      | 'tags'
      | 'timeReports'
    >();
    expect([...CacheEntitySchema.options].sort()).toEqual([...CACHE_ENTITIES].sort());
    // Each view has one home.
    expect(new Set(CACHE_ENTITIES).size).toBe(CACHE_ENTITIES.length);
  });

  it('names the views an outbox change refreshes, and the ids', () => {
    expect(cacheChangeOf(ENTITIES, ['task:t1', 'project:p1'])).toEqual({
      entities: ['tasks', 'messages', 'tags', 'projects', 'members'],
      ids: { tasks: ['t1'], projects: ['p1'] },
    });
    expect(cacheChangeOf(ENTITIES, ['event:e1', 'crmContact:c1', 'crmAccount:a1'])).toEqual({
      entities: ['events', 'crmContacts', 'crmAccounts'],
      ids: { events: ['e1'], crmContacts: ['c1'], crmAccounts: ['a1'] },
    });
    expect(cacheChangeOf(ENTITIES, ['dependency:d1', 'timeReport:r1'])).toEqual({
      entities: ['dependencies', 'timeReports'],
      ids: {},
    });
    // A create's remap that rewrote rows of other tables (a report and the timer on the task, a
    // subtask): their resources' views too, any of their items (the tasks' ids dropped).
    expect(cacheChangeOf(ENTITIES, ['task:local-t', 'task:T1'], ['time_reports', 'timer', 'tasks'])).toEqual({
      entities: ['tasks', 'messages', 'tags', 'timeReports'],
      ids: {},
    });
    // A contact created offline and linked to a task: an open task shows its contacts.
    expect(cacheChangeOf(ENTITIES, ['crmContact:local-c'], ['crm_contact_tasks'])).toEqual({
      entities: ['crmContacts', 'tasks'],
      ids: {},
    });
    // A key of no resource (written by a newer build) touches nothing.
    expect(cacheChangeOf(ENTITIES, ['invoice:i1'])).toEqual({ entities: [], ids: {} });
    expect(entityOf(ENTITIES, 'invoice')).toBeUndefined();
  });

  it('says each resource in words', () => {
    expect(entityNoun('task')).toBe('a task');
    expect(entityNoun('crmAccount')).toBe('an account');
    expect(entityNoun('invoice')).toBe('an item');
  });

  it('gives a pull one list of parts, each in a phase of the pull', () => {
    expect(PULL_PARTS.length).toBeGreaterThan(0);
    for (const part of PULL_PARTS) expect(PULL_PHASES).toContain(part.phase);
    // The project tree decides which task lists are read; messages wait for the task lists.
    expect(ENTITIES.project.pull.every((p) => p.phase === 'projects' && p.awaited)).toBe(true);
    // A first pull's own lists start with the projects' phase (not awaited: stored once the
    // tree is in); the task lists are read, and awaited, in the tasks' phase.
    expect(ENTITIES.task.pull.map((p) => [p.phase, p.awaited === true])).toEqual([
      ['projects', false],
      ['tasks', true],
    ]);
    expect(ENTITIES.message.pull.map((p) => p.phase)).toEqual(['details']);
  });
});

describe('the cache columns that may hold a local id', () => {
  const db = openCacheDb(':memory:');
  const columnsOf = (table: string) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
  // LIKE's `_` matches any one character: escaped, so that "drafts" is not taken for a search table.
  const tables = (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name NOT LIKE '%!_fts%' ESCAPE '!' AND name NOT LIKE 'outbox!_%' ESCAPE '!'`,
      )
      .pluck()
      .all() as string[]
  ).sort();
  const claimed = Object.values(ENTITIES).flatMap((d) => d.tables.map((t) => t.name));
  /** The engine's own tables: no resource's rows. */
  const engineTables = [
    'sync_state',
    'update_capture',
    'updates',
    'inbox_seen',
    // What the last pulls listed (cache migration 014): a fingerprint per listed task and per
    // project list's answer, so a pull with no change touches no row.
    'task_fingerprints',
    'task_list_answers',
    // The whole lists (projects, the organization's, CRM, events) held as last stored, and the
    // writes to their tables (cache migration 017), so an unchanged list is not stored again.
    'list_answers',
    'list_table_writes',
  ];

  it('are columns of the cache', () => {
    for (const [table, column] of [
      ...LOCAL_ID_COLUMNS.ids,
      ...LOCAL_ID_COLUMNS.refs,
      ...LOCAL_ID_COLUMNS.json,
    ])
      expect(columnsOf(table), `${table}.${column}`).toContain(column);
  });

  it('are looked for in every table: each belongs to one resource or to the engine', () => {
    expect(new Set(claimed).size).toBe(claimed.length);
    expect([...claimed, ...engineTables].sort()).toEqual(tables);
  });

  it('cover every column referring to an item that may be created offline', () => {
    const refersToLocal = /(^|_)(task|project|account|contact|event|predecessor|successor|time_report)_id$/;
    /** Columns that never hold a local id, and why. */
    const notLocal: Record<string, string> = {
      'updates.task_id': "written by pulls, from the service's answers",
      'messages.time_report_id': 'set only on the messages the service lists',
      // Not remapped before this check either; whether a task created here can be marked read
      // under its local id is not settled here.
      'inbox_seen.task_id': "My Work's read state",
      // Only a pull writes one, under the id the service listed; a task created here has none.
      'task_fingerprints.task_id': "written by pulls, from the service's answers",
    };
    const remapped = new Set(LOCAL_ID_COLUMNS.refs.map(([t, c]) => `${t}.${c}`));
    const missed = tables.flatMap((table) =>
      columnsOf(table)
        .filter((c) => refersToLocal.test(c))
        .map((c) => `${table}.${c}`)
        .filter((name) => !remapped.has(name) && !(name in notLocal)),
    );
    expect(missed).toEqual([]);
    // A resource the outbox creates keeps its rows under an id that may be local.
    const created: readonly ResourceName[] = [
      'task',
      'project',
      'event',
      'crmContact',
      'crmAccount',
      'dependency',
      'timeReport',
    ];
    for (const name of created)
      expect(
        ENTITIES[name].tables.some((t) => t.localId),
        name,
      ).toBe(true);
  });
});

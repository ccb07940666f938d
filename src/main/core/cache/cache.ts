import type { CacheDb } from './db';
import { createDraftsRepo } from './repos/drafts';
import { createInboxRepo } from './repos/inbox';
import { createUpdatesRepo } from './repos/updates';
import { createSearchRepo } from './repos/search';
import { createSyncStateRepo } from './repos/sync-state';
import { createTaskFingerprints } from './repos/task-fingerprints';
import { createListAnswers } from './repos/list-answers';

/**
 * The resources' repositories on an account's cache, by their name there (`cache.tasks`,
 * `cache.timeReports`, …). Each repository's file adds its own entry by module augmentation
 * (`declare module '../cache'`), and the handler module of its domain names its factory
 * (`repos` in `handlers/index.ts`, typed so that one no module names does not compile): the
 * root builds the cache from those, so this file names no resource.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by augmentation
export interface ResourceRepos {}

/** How each resource repository is made over the account's database. */
export type RepoFactories = { readonly [K in keyof ResourceRepos]: (db: CacheDb) => ResourceRepos[K] };

/**
 * Every repository over one account's cache database: the engine's own (below) and the
 * resources' (`repos`, each made once, as the root is given them).
 */
export function createCache(db: CacheDb, repos: RepoFactories) {
  // Each factory makes the repository of its own name (`RepoFactories`), so the object is whole.
  const made = Object.fromEntries(
    Object.entries(repos).map(([name, make]: [string, (db: CacheDb) => unknown]) => [name, make(db)]),
  ) as unknown as ResourceRepos;
  return {
    db,
    ...made,
    /** Task list elements held as sent, so a pull skips what did not change (see the repo). */
    taskFingerprints: createTaskFingerprints(db),
    /** Whole lists (projects, the organization's, CRM, events) held as last stored (see the repo). */
    listAnswers: createListAnswers(db),
    syncState: createSyncStateRepo(db),
    search: createSearchRepo(db),
    inbox: createInboxRepo(db),
    updates: createUpdatesRepo(db),
    /** Drafts of comments and replies (kept in the outbox file). */
    drafts: createDraftsRepo(db),
    /** Runs `fn` in one transaction (synchronous: no await inside). */
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
  };
}

export type Cache = ReturnType<typeof createCache>;

import type { CacheDb } from './db';
import { createCalendarEventsRepo } from './repos/calendar-events';
import { createCrmRepo } from './repos/crm';
import { createDependenciesRepo } from './repos/dependencies';
import { createDraftsRepo } from './repos/drafts';
import { createInboxRepo } from './repos/inbox';
import { createUpdatesRepo } from './repos/updates';
import { createMessagesRepo } from './repos/messages';
import { createOrgRepo } from './repos/org';
import { createProjectPartsRepo } from './repos/project-parts';
import { createProjectsRepo } from './repos/projects';
import { createSearchRepo } from './repos/search';
import { createSyncStateRepo } from './repos/sync-state';
import { createTasksRepo } from './repos/tasks';
import { createTaskFingerprints } from './repos/task-fingerprints';
import { createTimeReportsRepo } from './repos/time-reports';
import { createTimerRepo } from './repos/timer';

/** Every repository over one account's cache database. */
export function createCache(db: CacheDb) {
  return {
    db,
    projects: createProjectsRepo(db),
    projectParts: createProjectPartsRepo(db),
    tasks: createTasksRepo(db),
    /** Task list elements held as sent, so a pull skips what did not change (see the repo). */
    taskFingerprints: createTaskFingerprints(db),
    messages: createMessagesRepo(db),
    events: createCalendarEventsRepo(db),
    timeReports: createTimeReportsRepo(db),
    timer: createTimerRepo(db),
    dependencies: createDependenciesRepo(db),
    crm: createCrmRepo(db),
    org: createOrgRepo(db),
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

import type { Migration } from './types';

/**
 * An index of the tasks whose messages are stale (their activity moved since their messages were
 * fetched, or they never were): the end of every pull asks for them (`staleFetchStates`), and
 * without it that read scanned every cached task, 2-8 ms at 20,000 tasks on the core's thread
 * (more on a loaded machine), in one stretch. A pull with no change finds the index empty.
 */
export const migration016: Migration = {
  version: 16,
  name: 'stale-messages-index',
  // `IF NOT EXISTS`: a file whose recorded version was set back (as a test of an older file's
  // upgrade does) runs this step again over the index it already has.
  up(db) {
    db.exec(
      'CREATE INDEX IF NOT EXISTS tasks_messages_stale ON tasks(id) WHERE messages_activity_moment IS NOT recent_activity_moment',
    );
  },
};

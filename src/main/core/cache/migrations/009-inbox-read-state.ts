import type { Migration } from './types';

/**
 * What the user has read in the Action required inbox, kept per account (the cache is the
 * account's) and across restarts. A row says the task was opened or marked read when the last
 * message from someone else was `message_id` (null: there was none); a newer one from someone
 * else makes it unread again. Moments are not compared, so the service's clock (UTC or local)
 * never matters. A task with no row came in since: unread.
 */
export const migration009: Migration = {
  version: 9,
  name: 'inbox-read-state',
  up(db) {
    db.exec(`
      CREATE TABLE inbox_seen (
        task_id TEXT PRIMARY KEY,
        message_id TEXT
      ) STRICT;
    `);
  },
};

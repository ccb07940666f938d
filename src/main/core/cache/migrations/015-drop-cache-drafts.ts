import type { Migration } from './types';

/**
 * Drops the cache file's `drafts` table (012). Drafts live in the outbox file since its step 4,
 * which copies them from this table: the outbox file is migrated before the cache file on every
 * open, so whatever was typed here was copied before this step runs. Nothing reads the table.
 */
export const migration015: Migration = {
  version: 15,
  name: 'drop-cache-drafts',
  up(db) {
    db.exec('DROP TABLE drafts');
  },
};

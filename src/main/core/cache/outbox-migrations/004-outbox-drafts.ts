import type { Migration } from '../migrations/types';

/**
 * Outbox file migration 4. Drafts (what was typed in a task's message box or the New task dialog
 * and not sent) move from the cache file, which is thrown away when damaged and rebuilt by a
 * pull, into the outbox's file, which is never thrown away: `outbox_drafts`, the same columns as
 * the cache's `drafts` (cache migration 012). The drafts already typed are copied over from
 * wherever a `drafts` table is visible: the cache file attached as `cache` while this step runs
 * (`cache/db.ts`), or `main` where both live in one database (tests). The cache's table is left
 * as it is, no longer read. Frozen as shipped.
 */
export const outboxMigration004: Migration = {
  version: 4,
  name: 'outbox-drafts',
  up(db) {
    db.exec(`
      CREATE TABLE outbox_drafts (
        key TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
    const schemas = db.prepare('SELECT name FROM pragma_database_list').pluck().all() as string[];
    for (const schema of ['main', 'cache'].filter((s) => schemas.includes(s))) {
      const has = db
        .prepare(`SELECT count(*) FROM ${schema}.sqlite_schema WHERE type = 'table' AND name = 'drafts'`)
        .pluck()
        .get() as number;
      if (has) {
        db.exec(
          `INSERT OR IGNORE INTO main.outbox_drafts (key, text, updated_at)
           SELECT key, text, updated_at FROM ${schema}.drafts`,
        );
      }
    }
  },
};

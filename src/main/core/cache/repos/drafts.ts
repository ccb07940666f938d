import type { CacheDb } from '../db';

export type DraftsRepo = ReturnType<typeof createDraftsRepo>;

/**
 * Drafts, one row per key in the account's outbox file (`outbox_drafts`, outbox migration 4),
 * which is never thrown away: a damaged cache is rebuilt and the drafts stay. A draft on a task
 * created here follows the task to its real id (`TempIdMap.remap`).
 */
export function createDraftsRepo(db: CacheDb) {
  // Prepared on first use: a cache database opened without the outbox file's tables (a
  // migration's test, a tool reading the cache alone) has no drafts table, and needs none.
  const prepare = () => ({
    get: db.prepare('SELECT text, updated_at AS updatedAt FROM outbox_drafts WHERE key = ?'),
    put: db.prepare(
      'INSERT INTO outbox_drafts (key, text, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at',
    ),
    drop: db.prepare('DELETE FROM outbox_drafts WHERE key = ?'),
  });
  let stmts: ReturnType<typeof prepare> | null = null;
  const statements = () => (stmts ??= prepare());
  return {
    /** The draft kept under `key`; null when there is none. */
    get(key: string): { text: string; updatedAt: number } | null {
      return (statements().get.get(key) as { text: string; updatedAt: number } | undefined) ?? null;
    },
    /** Keeps `text` under `key`, written at `at` (milliseconds), replacing any draft there. */
    put(key: string, text: string, at: number): void {
      statements().put.run(key, text, at);
    },
    drop(key: string): void {
      statements().drop.run(key);
    },
  };
}

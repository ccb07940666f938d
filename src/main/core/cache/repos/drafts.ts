import type { CacheDb } from '../db';

export type DraftsRepo = ReturnType<typeof createDraftsRepo>;

/**
 * Drafts, one row per key in the account's outbox file (`outbox_drafts`, outbox migration 4),
 * which is never thrown away: a damaged cache is rebuilt and the drafts stay. A draft on a task
 * created here follows the task to its real id (`TempIdMap.remap`).
 */
export function createDraftsRepo(db: CacheDb) {
  const getStmt = db.prepare('SELECT text, updated_at AS updatedAt FROM outbox_drafts WHERE key = ?');
  const putStmt = db.prepare(
    'INSERT INTO outbox_drafts (key, text, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at',
  );
  const dropStmt = db.prepare('DELETE FROM outbox_drafts WHERE key = ?');
  return {
    /** The draft kept under `key`; null when there is none. */
    get(key: string): { text: string; updatedAt: number } | null {
      return (getStmt.get(key) as { text: string; updatedAt: number } | undefined) ?? null;
    },
    /** Keeps `text` under `key`, written at `at` (milliseconds), replacing any draft there. */
    put(key: string, text: string, at: number): void {
      putStmt.run(key, text, at);
    },
    drop(key: string): void {
      dropStmt.run(key);
    },
  };
}

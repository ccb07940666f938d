import type { CacheDb } from '../db';

export type SyncStateRepo = ReturnType<typeof createSyncStateRepo>;

/** When each list or on-demand part was last fetched (keys like `projects`, `members:<id>`). */
export function createSyncStateRepo(db: CacheDb) {
  const get = db.prepare('SELECT fetched_at AS fetchedAt, value FROM sync_state WHERE key = ?');
  const set = db.prepare(
    'INSERT INTO sync_state (key, fetched_at, value) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET fetched_at = excluded.fetched_at, value = excluded.value',
  );
  return {
    get(key: string): { fetchedAt: string; value: unknown } | null {
      const row = get.get(key) as { fetchedAt: string; value: string | null } | undefined;
      return row
        ? { fetchedAt: row.fetchedAt, value: row.value === null ? null : (JSON.parse(row.value) as unknown) }
        : null;
    },
    set(key: string, fetchedAt: string, value: unknown = null): void {
      set.run(key, fetchedAt, value === null ? null : JSON.stringify(value));
    },
  };
}

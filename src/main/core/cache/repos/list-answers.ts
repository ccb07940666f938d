import type { CacheDb } from '../db';

/** A table a pull stores whole lists in, its writes counted (cache migration 017). */
export type ListTable =
  | 'custom_fields'
  | 'users'
  | 'statuses'
  | 'task_types'
  | 'tags'
  | 'project_templates'
  | 'projects'
  | 'crm_contacts'
  | 'crm_accounts'
  | 'calendar_events';

/**
 * What a pull last stored of a whole list (the projects, an organization list, CRM records, the
 * events of a window), so that the same answer again is neither parsed nor stored: the cache
 * holds it already. A record holds while no row of its table was written since, by whoever (a
 * local edit, an on-demand read, an id remapped): every row write counts through a trigger
 * (`list_table_writes`, migration 017). Kept in the cache file, so the first pull after a start
 * skips what did not change as every later one does.
 *
 * The contract with a list's store: record (`stored`) only in the same transaction as the last of
 * its writes, after them, and only when the table then holds the answer exactly (every item as
 * sent, nothing kept beside it); a crash before that leaves no record, and the next pull stores
 * the list again. A store that is not recorded forgets the list's record (`forget`).
 */
export interface ListAnswers {
  /**
   * The ids list `key` held when it last answered `fingerprint`, while that answer is still
   * stored as it was (its table not written since); undefined otherwise.
   */
  held(key: string, fingerprint: string): string[] | undefined;
  /** The count of row writes to `table` so far (see the interface's comment). */
  writes(table: ListTable): number;
  /** Records that list `key` answered `fingerprint`, holding `ids`, now stored in `table` as sent. */
  stored(key: string, table: ListTable, fingerprint: string, ids: readonly string[]): void;
  /** No answer of list `key` is held as stored (its last store kept a local value, or failed). */
  forget(key: string): void;
}

export function createListAnswers(db: CacheDb): ListAnswers {
  const heldStmt = db
    .prepare(
      `SELECT a.ids FROM list_answers a JOIN list_table_writes w ON w.table_name = a.table_name
         WHERE a.list_key = ? AND a.fingerprint = ? AND a.writes = w.writes`,
    )
    .pluck();
  const writesStmt = db.prepare('SELECT writes FROM list_table_writes WHERE table_name = ?').pluck();
  const putStmt = db.prepare(
    `INSERT INTO list_answers (list_key, table_name, fingerprint, writes, ids)
       VALUES (@key, @table, @fingerprint, (SELECT writes FROM list_table_writes WHERE table_name = @table), @ids)
     ON CONFLICT (list_key) DO UPDATE SET table_name = excluded.table_name,
       fingerprint = excluded.fingerprint, writes = excluded.writes, ids = excluded.ids`,
  );
  const forgetStmt = db.prepare('DELETE FROM list_answers WHERE list_key = ?');
  return {
    held(key, fingerprint) {
      const ids = heldStmt.get(key, fingerprint) as string | undefined;
      return ids === undefined ? undefined : (JSON.parse(ids) as string[]);
    },
    writes(table) {
      const writes = writesStmt.get(table) as number | undefined;
      if (writes === undefined) throw new Error(`list_table_writes: no count for table ${table}`);
      return writes;
    },
    stored(key, table, fingerprint, ids) {
      putStmt.run({ key, table, fingerprint, ids: JSON.stringify(ids) });
    },
    forget(key) {
      forgetStmt.run(key);
    },
  };
}

import type { CacheDb } from '../db';
import { TASK_LIST_COLUMNS } from './tasks';

/**
 * The fingerprints of the task list elements the cache holds exactly as the service sent them
 * (see `FingerprintedListAnswer`): a pull that meets the same element again leaves its row alone,
 * so a steady pull costs what changed. A row written since it was stored from its element (a local
 * edit, a detail, a removal) loses its fingerprint through a trigger, and its element is read
 * again. Kept in memory for the life of the connection (a temporary table and triggers, no
 * schema change): the first pull after a start reads every element once.
 */
export interface TaskFingerprints {
  /** The id of the task stored from an element with this fingerprint, while its row is unchanged. */
  idOf(fingerprint: string): string | undefined;
  /**
   * Records that these tasks were just stored exactly as their elements: call in the same
   * synchronous run as the write (rows written before are forgotten first, the write's own too).
   */
  stored(entries: readonly (readonly [id: string, fingerprint: string])[]): void;
  /** The ids of the list whose whole answer had this fingerprint, while all its rows are as stored. */
  wholeAnswer(fingerprint: string): readonly string[] | undefined;
  /**
   * Records that the list `key` (a project's) answered `fingerprint` and that every one of its
   * elements is stored as it was (call after `stored`, in the same synchronous run).
   */
  storedWhole(key: string, fingerprint: string, ids: readonly string[]): void;
  /** Forgets the fingerprints of rows written since the last call (done by `idOf`'s callers first). */
  settle(): void;
  /** How many tasks are held (for tests). */
  readonly size: number;
}

export function createTaskFingerprints(db: CacheDb): TaskFingerprints {
  // A temporary table and triggers belong to this connection alone and end with it.
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS task_rows_written (id TEXT NOT NULL);
    CREATE TEMP TRIGGER IF NOT EXISTS task_list_row_updated
      AFTER UPDATE OF ${TASK_LIST_COLUMNS.join(', ')} ON tasks
      BEGIN INSERT INTO task_rows_written (id) VALUES (old.id); END;
    CREATE TEMP TRIGGER IF NOT EXISTS task_list_row_deleted AFTER DELETE ON tasks
      BEGIN INSERT INTO task_rows_written (id) VALUES (old.id); END;
  `);
  const written = db.prepare('SELECT DISTINCT id FROM temp.task_rows_written').pluck();
  const clear = db.prepare('DELETE FROM temp.task_rows_written');
  const anyWritten = db.prepare('SELECT 1 FROM temp.task_rows_written LIMIT 1').pluck();
  const idByFingerprint = new Map<string, string>();
  const fingerprintById = new Map<string, string>();
  /** A whole list answer held as stored; any of its rows written since makes it not intact. */
  interface WholeList {
    fingerprint: string;
    ids: readonly string[];
    intact: boolean;
  }
  const listByKey = new Map<string, WholeList>();
  const listByFingerprint = new Map<string, WholeList>();
  const listOfId = new Map<string, WholeList>();

  const forget = (id: string): void => {
    const list = listOfId.get(id);
    if (list) list.intact = false;
    const fingerprint = fingerprintById.get(id);
    if (fingerprint === undefined) return;
    fingerprintById.delete(id);
    idByFingerprint.delete(fingerprint);
  };
  const settle = (): void => {
    if (!anyWritten.get()) return;
    for (const id of written.all() as string[]) forget(id);
    clear.run();
  };
  return {
    idOf: (fingerprint) => idByFingerprint.get(fingerprint),
    stored(entries) {
      settle();
      for (const [id, fingerprint] of entries) {
        forget(id);
        // Two tasks with the same text cannot be: the text holds the id.
        idByFingerprint.set(fingerprint, id);
        fingerprintById.set(id, fingerprint);
      }
    },
    wholeAnswer(fingerprint) {
      const list = listByFingerprint.get(fingerprint);
      return list?.intact ? list.ids : undefined;
    },
    storedWhole(key, fingerprint, ids) {
      settle();
      const old = listByKey.get(key);
      if (old?.intact && old.fingerprint === fingerprint) return;
      if (old) listByFingerprint.delete(old.fingerprint);
      const list: WholeList = { fingerprint, ids, intact: ids.every((id) => fingerprintById.has(id)) };
      listByKey.set(key, list);
      listByFingerprint.set(fingerprint, list);
      for (const id of ids) listOfId.set(id, list);
    },
    settle,
    get size() {
      return fingerprintById.size;
    },
  };
}

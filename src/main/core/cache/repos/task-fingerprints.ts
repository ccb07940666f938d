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

  const forget = (id: string): void => {
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
    settle,
    get size() {
      return fingerprintById.size;
    },
  };
}

import type { CacheDb } from '../db';

/**
 * The fingerprints of the task list elements the cache holds exactly as the service sent them
 * (see `FingerprintedListAnswer`): a pull that meets the same element again leaves its row alone,
 * so a steady pull costs what changed. A row written since it was stored from its element (a local
 * edit, a detail, a removal) loses its fingerprint through a trigger, and its element is read
 * again. Kept in the cache file (`task_fingerprints`, `task_list_answers`, migration 014), so the
 * first pull after a start costs what any later one does.
 */
export interface TaskFingerprints {
  /** The id of the task stored from an element with this fingerprint, while its row is unchanged. */
  idOf(fingerprint: string): string | undefined;
  /**
   * Records that these tasks were just stored exactly as their elements: call after the write
   * (a write forgets the row's fingerprint, so one recorded before it would be lost).
   */
  stored(entries: readonly (readonly [id: string, fingerprint: string])[]): void;
  /** The ids of the list whose whole answer had this fingerprint, while all its rows are as stored. */
  wholeAnswer(fingerprint: string): readonly string[] | undefined;
  /**
   * Records that the list `key` (a project's) answered `fingerprint` and that every one of its
   * elements is stored as it was (call after `stored`). Its tasks join the list a slice at a
   * time, the event loop given back between slices (20,000 of them were one 100-250 ms write).
   */
  storedWhole(key: string, fingerprint: string, ids: readonly string[]): Promise<void>;
  /** How many tasks are held (for tests). */
  readonly size: number;
}

/** Tasks joined to their list per statement (a few milliseconds each). */
const JOIN_SLICE = 2_000;

export function createTaskFingerprints(db: CacheDb): TaskFingerprints {
  const idOf = db.prepare('SELECT task_id FROM task_fingerprints WHERE fingerprint = ?').pluck();
  // A task stored again from another element leaves its list's answer (no longer as held) and
  // is proved part of a list again by `storedWhole`. Two tasks with the same text cannot be (the
  // text holds the id): a stale row with the fingerprint is dropped the same way.
  const leaveAnswer = db.prepare(
    `UPDATE task_list_answers SET intact = 0 WHERE intact = 1 AND list_key IN
       (SELECT list_key FROM task_fingerprints WHERE task_id = @id OR fingerprint = @fingerprint)`,
  );
  const drop = db.prepare('DELETE FROM task_fingerprints WHERE task_id = @id OR fingerprint = @fingerprint');
  const put = db.prepare('INSERT INTO task_fingerprints (task_id, fingerprint) VALUES (?, ?)');
  const answerOf = db.prepare('SELECT fingerprint, intact FROM task_list_answers WHERE list_key = ?');
  const intactKey = db
    .prepare('SELECT list_key FROM task_list_answers WHERE fingerprint = ? AND intact = 1 LIMIT 1')
    .pluck();
  const idsOfList = db.prepare('SELECT task_id FROM task_fingerprints WHERE list_key = ?').pluck();
  const leaveList = db.prepare('UPDATE task_fingerprints SET list_key = NULL WHERE list_key = ?');
  const joinList = db.prepare(
    'UPDATE task_fingerprints SET list_key = ? WHERE task_id IN (SELECT value FROM json_each(?))',
  );
  const countOfList = db.prepare('SELECT count(*) FROM task_fingerprints WHERE list_key = ?').pluck();
  const setIntact = db.prepare(
    'UPDATE task_list_answers SET intact = 1 WHERE list_key = ? AND fingerprint = ?',
  );
  const putAnswer = db.prepare(
    `INSERT INTO task_list_answers (list_key, fingerprint, intact) VALUES (?, ?, ?)
     ON CONFLICT (list_key) DO UPDATE SET fingerprint = excluded.fingerprint, intact = excluded.intact`,
  );
  const count = db.prepare('SELECT count(*) FROM task_fingerprints').pluck();

  const stored = db.transaction((entries: readonly (readonly [string, string])[]) => {
    for (const [id, fingerprint] of entries) {
      leaveAnswer.run({ id, fingerprint });
      drop.run({ id, fingerprint });
      put.run(id, fingerprint);
    }
  });
  // The answer is recorded not intact while its tasks join it: a row written meanwhile loses its
  // fingerprint (the triggers) and with it its place in the list, so the count at the end, in the
  // same transaction as the mark, tells whether every task is still held as stored.
  const beginWhole = db.transaction((key: string, fingerprint: string) => {
    const old = answerOf.get(key) as { fingerprint: string; intact: number } | undefined;
    if (old?.intact === 1 && old.fingerprint === fingerprint) return false;
    putAnswer.run(key, fingerprint, 0);
    leaveList.run(key);
    return true;
  });
  const endWhole = db.transaction((key: string, fingerprint: string, total: number) => {
    if (countOfList.get(key) === total) setIntact.run(key, fingerprint);
  });
  return {
    idOf: (fingerprint) => idOf.get(fingerprint) as string | undefined,
    stored(entries) {
      if (entries.length) stored(entries);
    },
    wholeAnswer(fingerprint) {
      const key = intactKey.get(fingerprint) as string | undefined;
      return key === undefined ? undefined : (idsOfList.all(key) as string[]);
    },
    async storedWhole(key, fingerprint, ids) {
      if (!beginWhole(key, fingerprint)) return;
      for (let at = 0; at < ids.length; at += JOIN_SLICE) {
        // The loop given back: timers and I/O waiting run before the next slice.
        if (at > 0) await new Promise((resolve) => setImmediate(resolve));
        joinList.run(key, JSON.stringify(ids.slice(at, at + JOIN_SLICE)));
      }
      endWhole(key, fingerprint, new Set(ids).size);
    },
    get size() {
      return count.get() as number;
    },
  };
}

import type { LocalIdColumns } from '../entities';
import type { Db } from './types';

/**
 * The last mapping of the outbox's id map (`outbox_id_map`, its rowid) whose remap the cache's
 * file holds, kept in that file's `sync_state`. The acknowledging transaction spans both files,
 * and SQLite commits them one after the other (the outbox's first: `cache/db.ts`), so a process
 * killed between the two commits keeps the mapping and loses the cache's remap: the cache's rows
 * would go on naming the local id (a dependency of an event created offline, say), and nothing
 * else brings them up (no pull lists dependencies). At open, `healCacheRemaps` applies the
 * mappings after this mark again.
 */
const REMAPPED_THROUGH = 'outbox-id-map:remapped-through';

/**
 * Rule 5, the cache's half: puts the real id of an acknowledged create everywhere the local id
 * stood. A pull may have brought the real item in already; the local row (which carries any
 * pending local change) replaces it. Runs inside the acknowledging transaction, after the id
 * map took the mapping (whose rowid it records as `REMAPPED_THROUGH`).
 *
 * Answers the tables where rows referring to the item were rewritten (a time report of the task,
 * a subtask of it, a task in the project): those rows belong to other views than the created
 * item's own, which the outbox tells of the change too. The item's own row is not counted.
 */
export type CacheRemap = (tempId: string, realId: string) => readonly string[];

export function cacheRemapper(db: Db, columns: LocalIdColumns): CacheRemap {
  // Which columns may hold a local id is each resource's to say (`CacheTable` in `entities/`);
  // the outbox reads them from the descriptors the engine gives it (`localIdColumnsOf`).
  const own = columns.ids.flatMap(([table, column]) => [
    db.prepare(
      `DELETE FROM ${table} WHERE ${column} = @real AND EXISTS (SELECT 1 FROM ${table} WHERE ${column} = @temp)`,
    ),
    db.prepare(`UPDATE ${table} SET ${column} = @real WHERE ${column} = @temp`),
  ]);
  const referring = [
    ...columns.refs.map(
      ([table, column]) =>
        [
          table,
          db.prepare(`UPDATE OR REPLACE ${table} SET ${column} = @real WHERE ${column} = @temp`),
        ] as const,
    ),
    ...columns.json.map(
      ([table, column]) =>
        [
          table,
          db.prepare(
            `UPDATE ${table} SET ${column} = replace(${column}, json_quote(@temp), json_quote(@real))
             WHERE instr(${column}, json_quote(@temp)) > 0`,
          ),
        ] as const,
    ),
  ];
  // A remap run without the outbox's id map (a cache alone, in tests) records nothing.
  const hasIdMap = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'outbox_id_map'").get() !== undefined;
  const mark = hasIdMap
    ? db.prepare(
        `INSERT INTO sync_state (key, fetched_at, value)
         SELECT '${REMAPPED_THROUGH}', '', CAST(rowid AS TEXT) FROM outbox_id_map WHERE temp_id = @temp
         ON CONFLICT (key) DO UPDATE SET value = excluded.value
         WHERE CAST(excluded.value AS INTEGER) > CAST(sync_state.value AS INTEGER)`,
      )
    : undefined;
  return (temp, real) => {
    for (const step of own) step.run({ temp, real });
    const rewritten = new Set<string>();
    for (const [table, step] of referring) if (step.run({ temp, real }).changes > 0) rewritten.add(table);
    mark?.run({ temp });
    return [...rewritten];
  };
}

/**
 * Applies again the id map's mappings after the cache's mark (`REMAPPED_THROUGH`): those whose
 * remap a crash between the two files' commits lost. Remapping is idempotent (it changes only
 * what still names the local id), so one applied twice changes nothing. A cache without a mark
 * (made before the mark existed, or made anew) takes the map's last mapping as its mark: a new
 * cache holds no local id of an acknowledged create, and an old one is not scanned for them
 * (every mapping ever made, at every column). Answers the number of mappings applied again.
 */
export function healCacheRemaps(db: Db, remap: (tempId: string, realId: string) => void): number {
  if (db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'outbox_id_map'").get() === undefined) return 0;
  const last = db.prepare('SELECT coalesce(max(rowid), 0) FROM outbox_id_map').pluck().get() as number;
  const stored = db.prepare('SELECT value FROM sync_state WHERE key = ?').pluck().get(REMAPPED_THROUGH) as
    string | null | undefined;
  const setMark = db.prepare(
    `INSERT INTO sync_state (key, fetched_at, value) VALUES (?, '', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  const through = stored === undefined || stored === null ? undefined : Number(stored);
  if (through === undefined || !Number.isInteger(through)) {
    setMark.run(REMAPPED_THROUGH, String(last));
    return 0;
  }
  if (through >= last) return 0;
  const lost = db
    .prepare('SELECT temp_id AS tempId, real_id AS realId FROM outbox_id_map WHERE rowid > ? ORDER BY rowid')
    .all(through) as { tempId: string; realId: string }[];
  db.transaction(() => {
    for (const { tempId, realId } of lost) remap(tempId, realId);
    setMark.run(REMAPPED_THROUGH, String(last));
  })();
  return lost.length;
}

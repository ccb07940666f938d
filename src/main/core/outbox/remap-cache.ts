import type { LocalIdColumns } from '../entities';
import type { Db } from './types';

/**
 * Rule 5, the cache's half: puts the real id of an acknowledged create everywhere the local id
 * stood. A pull may have brought the real item in already; the local row (which carries any
 * pending local change) replaces it. Runs inside the acknowledging transaction.
 */
export function cacheRemapper(db: Db, columns: LocalIdColumns): (tempId: string, realId: string) => void {
  // Which columns may hold a local id is each resource's to say (`CacheTable` in `entities/`);
  // the outbox reads them from the descriptors the engine gives it (`localIdColumnsOf`).
  const steps = [
    ...columns.ids.flatMap(([table, column]) => [
      db.prepare(
        `DELETE FROM ${table} WHERE ${column} = @real AND EXISTS (SELECT 1 FROM ${table} WHERE ${column} = @temp)`,
      ),
      db.prepare(`UPDATE ${table} SET ${column} = @real WHERE ${column} = @temp`),
    ]),
    ...columns.refs.flatMap(([table, column]) => [
      db.prepare(`UPDATE OR REPLACE ${table} SET ${column} = @real WHERE ${column} = @temp`),
    ]),
    ...columns.json.map(([table, column]) =>
      db.prepare(
        `UPDATE ${table} SET ${column} = replace(${column}, json_quote(@temp), json_quote(@real))
         WHERE instr(${column}, json_quote(@temp)) > 0`,
      ),
    ),
  ];
  return (temp, real) => {
    for (const step of steps) step.run({ temp, real });
  };
}

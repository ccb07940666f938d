import type { Statement } from 'better-sqlite3';
import type { CacheDb } from '../db';

const perDb = new WeakMap<CacheDb, Map<string, Statement>>();

/**
 * Prepared statements for SQL built from a fixed set of fragments (filters and sorts), keyed by
 * the SQL text and shared per database, so each distinct query shape is prepared once.
 */
export function statementCache(db: CacheDb): (sql: string) => Statement {
  let found = perDb.get(db);
  if (!found) perDb.set(db, (found = new Map()));
  const cache = found;
  return (sql) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

/** Deletes rows of `table` whose `column` is in `ids`, in chunks under SQLite's variable limit. */
export function deleteByIds(db: CacheDb, table: string, column: string, ids: readonly string[]): number {
  if (!ids.length) return 0;
  const stmt = statementCache(db)(`DELETE FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?))`);
  let changed = 0;
  for (let i = 0; i < ids.length; i += 5000) {
    changed += stmt.run(JSON.stringify(ids.slice(i, i + 5000))).changes;
  }
  return changed;
}

/** Ids of the rows of `table` where `scopeSql` holds: what a `replaceScope` would consider. */
export function scopeIds(
  db: CacheDb,
  table: string,
  idColumn: string,
  scopeSql: string,
  scopeParams: unknown[],
): string[] {
  return statementCache(db)(`SELECT ${idColumn} FROM ${table} WHERE ${scopeSql}`)
    .pluck()
    .all(...scopeParams) as string[];
}

/**
 * Makes the rows of `table` where `scopeSql` holds exactly `records` (by `idColumn`): upserts
 * them and deletes the others, except those `keep` protects (pending local creates). Returns
 * the ids removed.
 */
export function replaceScope<T extends { id: string }>(
  db: CacheDb,
  codec: { table: string; upsert(record: T): void },
  idColumn: string,
  scopeSql: string,
  scopeParams: unknown[],
  records: readonly T[],
  keep: (id: string) => boolean = () => false,
): string[] {
  const incoming = new Set(records.map((r) => r.id));
  const existing = scopeIds(db, codec.table, idColumn, scopeSql, scopeParams);
  const gone = existing.filter((id) => !incoming.has(id) && !keep(id));
  deleteByIds(db, codec.table, idColumn, gone);
  for (const r of records) codec.upsert(r);
  return gone;
}

/**
 * One row of `table` by id as stored (its column names): what a delete keeps to undo itself.
 * The outbox keeps it as it is, so entries stored by an earlier version restore the same way.
 * `columns` are those a restore writes (every column of the table).
 */
export function storedRows(db: CacheDb, table: string, columns: readonly string[]) {
  const get = db.prepare(`SELECT * FROM ${table} WHERE id = ?`);
  const put = db.prepare(
    `INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const remove = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  return {
    /** The row as stored, or undefined when there is none. */
    storedRow(id: string): Record<string, unknown> | undefined {
      return get.get(id) as Record<string, unknown> | undefined;
    },
    /** Puts back a row `storedRow` read (a refused delete's rollback). */
    restoreRow(row: Record<string, unknown>): void {
      put.run(row);
    },
    delete(id: string): void {
      remove.run(id);
    },
  };
}

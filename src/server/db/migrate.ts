import type { Database } from 'better-sqlite3';

/** One schema step. `up` runs inside a transaction the runner opens; it must not await. */
export interface Migration {
  /** Equals its position in the list, starting at 1; recorded in `user_version`. */
  version: number;
  name: string;
  up(db: Database): void;
}

/**
 * Runs the migrations newer than the database's `user_version`, each in its own transaction
 * that also records its version, so a crash leaves the database at a whole step. Serves both
 * the service's database and the client's cache; `what` names the database in errors.
 * Returns the version the database is at afterwards.
 */
export function runMigrations(db: Database, list: readonly Migration[], what: string): number {
  list.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > list.length) {
    throw new Error(`${what} is at version ${current}, newer than this build knows (${list.length})`);
  }
  for (const m of list.slice(current)) {
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return list.length;
}

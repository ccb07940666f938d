import type { Database } from 'better-sqlite3';
import type { Migration } from './migrations/types';

/**
 * Runs the migrations newer than the database's `user_version`, each in its own transaction
 * that also records its version, so a crash leaves the database at a whole step.
 */
export function migrate(db: Database, list: readonly Migration[]): number {
  list.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > list.length) {
    throw new Error(`Cache database is at version ${current}, newer than this app knows (${list.length})`);
  }
  for (const m of list.slice(current)) {
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return list.length;
}

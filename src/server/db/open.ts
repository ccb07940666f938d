import Database from 'better-sqlite3';
import { migrations } from './migrations/index';

export type Db = Database.Database;

/**
 * Opens (or creates) the service database: WAL, synchronous=NORMAL, foreign keys on, and every
 * pending migration applied, each in its own transaction that also records `user_version`.
 */
export function openDatabase(path: string): Db {
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(`database schema version ${current} is newer than this server (${migrations.length})`);
  }
  for (let version = current; version < migrations.length; version++) {
    const step = migrations[version];
    if (!step) continue;
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

import Database from 'better-sqlite3';
import { runMigrations } from './migrate';
import { migrations } from './migrations/index';

export type Db = Database.Database;

/**
 * Opens (or creates) the service database: WAL, synchronous=NORMAL, foreign keys on, and every
 * pending migration applied, each in its own transaction that also records `user_version`.
 */
export function openDatabase(path: string): Db {
  // The Electron shell points this at a better-sqlite3 build for Electron's ABI (npm start);
  // unset, the Node build the tests use is loaded.
  const db = new Database(path, { nativeBinding: process.env['WORKDESK_SQLITE_NATIVE_BINDING'] });
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/** Brings the service database up to the newest migration this build has. */
export function migrate(db: Db): void {
  runMigrations(db, migrations, 'Service database');
}

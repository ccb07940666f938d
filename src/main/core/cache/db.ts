import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate';
import { migrations } from './migrations/index';

export type CacheDb = Database.Database;

/**
 * Opens (creating if needed) one account's cache file, or `:memory:` for tests, in WAL mode
 * with `synchronous=NORMAL`, and brings its schema up to date.
 */
export function openCacheDb(file: string): CacheDb {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  // The Electron shell points this at a better-sqlite3 build for Electron's ABI (npm start);
  // unset, the Node build the tests use is loaded.
  const db = new Database(file, { nativeBinding: process.env['WORKDESK_SQLITE_NATIVE_BINDING'] });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -32000');
  db.pragma('temp_store = MEMORY');
  migrate(db, migrations);
  return db;
}

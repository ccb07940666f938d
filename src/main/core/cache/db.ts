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
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -32000');
  db.pragma('temp_store = MEMORY');
  migrate(db, migrations);
  return db;
}

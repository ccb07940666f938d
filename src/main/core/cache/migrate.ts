import type { Database } from 'better-sqlite3';
import { runMigrations } from '../../../server/db/migrate';
import type { Migration } from './migrations/types';

/** Brings a cache database up to the newest of `list` (the one runner the service uses too). */
export function migrate(db: Database, list: readonly Migration[]): number {
  return runMigrations(db, list, 'Cache database');
}

import type { Database as Db } from 'better-sqlite3';
import type { Migration } from './migrations/types';
import { migration003 } from './migrations/003-outbox';
import { migration006 } from './migrations/006-outbox-stuck';
import { outboxMigration003 } from './outbox-migrations/003-outbox-conflict-source';
import { outboxMigration004 } from './outbox-migrations/004-outbox-drafts';

/**
 * The outbox's tables, in the order their rows may be copied (a table before those that refer
 * to it).
 */
export const OUTBOX_TABLES = [
  'outbox_entries',
  'outbox_entry_keys',
  'outbox_id_map',
  'outbox_field_claims',
  'outbox_conflicts',
  'outbox_drafts',
] as const;

/**
 * The outbox file's migrations (recorded in that file's `user_version`). The outbox tables live
 * in the outbox's own file; builds before cache migration 007 kept them in the cache file, where
 * cache migrations 003 and 006 made them, and 007 drops them once their rows were copied out (see
 * `cache/db.ts`). The outbox file's first two steps are those same frozen steps; later ones have
 * a file each in `outbox-migrations/`.
 *
 * To change the outbox's tables add a step here (never in the cache's list): the outbox file is
 * the only copy of what the user has not sent yet. Never edit a step that has shipped.
 */
export const outboxFileMigrations: readonly Migration[] = [
  { version: 1, name: 'outbox', up: (db) => migration003.up(db) },
  { version: 2, name: 'outbox-stuck', up: (db) => migration006.up(db) },
  outboxMigration003,
  outboxMigration004,
];

/** The outbox file's version from which drafts live in it (copied from the cache file then). */
export const DRAFTS_MOVED_OUTBOX_VERSION = outboxMigration004.version;

/** Every outbox step in order, for a database that holds only the outbox (unit tests). */
export const outboxMigrations: readonly ((db: Db) => void)[] = outboxFileMigrations.map((m) => m.up);

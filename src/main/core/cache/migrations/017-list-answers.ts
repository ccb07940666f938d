import type { Migration } from './types';

/**
 * The tables a pull stores whole lists in (the organization's lists, projects, CRM records,
 * events): a write to any row of one, by whoever, counts in `list_table_writes`.
 */
const LIST_TABLES = [
  'custom_fields',
  'users',
  'statuses',
  'task_types',
  'tags',
  'project_templates',
  'projects',
  'crm_contacts',
  'crm_accounts',
  'calendar_events',
];

/**
 * What a pull last stored of each of these lists, so that the same answer again (byte for byte)
 * is neither parsed nor stored (200 projects and the organization's, CRM and event lists were
 * stored again by every pull). `list_answers`: a list's answer (`list_key`, e.g. `/projects`),
 * its fingerprint, the ids it held, the table it was stored in and that table's write count
 * right after the store, in the same transaction. `list_table_writes`: each table's count, one
 * more for every row inserted, updated or deleted (triggers, whoever writes). The record holds
 * while the count is the one it took: no row of the table was written since.
 */
export const migration017: Migration = {
  version: 17,
  name: 'list-answers',
  // `IF NOT EXISTS`: a file whose recorded version was set back (as a test of an older file's
  // upgrade does) runs this step again over what it made.
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS list_answers (
        list_key TEXT PRIMARY KEY,
        table_name TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        writes INTEGER NOT NULL,
        ids TEXT NOT NULL
      ) STRICT;
      CREATE TABLE IF NOT EXISTS list_table_writes (
        table_name TEXT PRIMARY KEY,
        writes INTEGER NOT NULL
      ) STRICT;
    `);
    const count = (table: string) =>
      `UPDATE list_table_writes SET writes = writes + 1 WHERE table_name = '${table}';`;
    for (const table of LIST_TABLES) {
      db.exec(`
        INSERT OR IGNORE INTO list_table_writes (table_name, writes) VALUES ('${table}', 0);
        CREATE TRIGGER IF NOT EXISTS ${table}_list_write_inserted AFTER INSERT ON ${table} BEGIN ${count(table)} END;
        CREATE TRIGGER IF NOT EXISTS ${table}_list_write_updated AFTER UPDATE ON ${table} BEGIN ${count(table)} END;
        CREATE TRIGGER IF NOT EXISTS ${table}_list_write_deleted AFTER DELETE ON ${table} BEGIN ${count(table)} END;
      `);
    }
  },
};

import type { Migration } from './types';
import { createFtsIndex } from './fts';

/** The full-text tables given a word list here (one `<table>_vocab` each). */
const FTS_TABLES = [
  'tasks_fts',
  'projects_fts',
  'messages_fts',
  'documents_fts',
  'crm_contacts_fts',
  'crm_accounts_fts',
  'calendar_events_fts',
] as const;

/** The text of a task's custom-field values (strings and numbers, nested lists too). */
const FIELD_TEXT = (row: 'new' | 'old') =>
  `CASE WHEN json_valid(${row}.custom_fields) THEN (SELECT group_concat(atom, ' ') FROM json_tree(${row}.custom_fields)
     WHERE type IN ('text', 'integer', 'real')) END`;

/**
 * Search by what a user remembers: tasks by number (an index on the short id, matched without
 * regard to case), tasks by their custom-field values as well as their name, calendar events by
 * name and notes, and every full-text table's word list for one-typo matching.
 *
 * The task index holds its own copy of the text (not external content like the others): the
 * field text is computed from the JSON column, which an external-content table cannot do.
 */
export const migration008: Migration = {
  version: 8,
  name: 'search-numbers',
  up(db) {
    db.exec(`
      CREATE INDEX tasks_short_id ON tasks(short_id COLLATE NOCASE);

      DROP TRIGGER tasks_fts_insert;
      DROP TRIGGER tasks_fts_delete;
      DROP TRIGGER tasks_fts_update;
      DROP TABLE tasks_fts;
      CREATE VIRTUAL TABLE tasks_fts USING fts5(name, fields, tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
        INSERT INTO tasks_fts(rowid, name, fields) VALUES (new.rowid, new.name, ${FIELD_TEXT('new')});
      END;
      CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
        DELETE FROM tasks_fts WHERE rowid = old.rowid;
      END;
      CREATE TRIGGER tasks_fts_update AFTER UPDATE OF name, custom_fields ON tasks
      WHEN old.name IS NOT new.name OR old.custom_fields IS NOT new.custom_fields BEGIN
        DELETE FROM tasks_fts WHERE rowid = old.rowid;
        INSERT INTO tasks_fts(rowid, name, fields) VALUES (new.rowid, new.name, ${FIELD_TEXT('new')});
      END;
      INSERT INTO tasks_fts(rowid, name, fields) SELECT rowid, name, ${FIELD_TEXT('new').replaceAll('new.', 'tasks.')} FROM tasks;
    `);
    createFtsIndex(db, { fts: 'calendar_events_fts', source: 'calendar_events', columns: ['name', 'notes'] });
    db.exec(`INSERT INTO calendar_events_fts(calendar_events_fts) VALUES ('rebuild')`);
    for (const fts of FTS_TABLES) db.exec(`CREATE VIRTUAL TABLE ${fts}_vocab USING fts5vocab(${fts}, 'row')`);
  },
};

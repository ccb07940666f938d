import type { Migration } from './types';

/**
 * Full-text search. One external-content FTS5 table per searchable resource, keyed by the
 * resource row's rowid, kept current by triggers so every cache write (sync or local edit)
 * updates the index in the same transaction; an update that leaves the text alone skips it.
 */
export const migration002: Migration = {
  version: 2,
  name: 'search',
  up(db) {
    const tables: { fts: string; source: string; columns: string[]; updateOf: string[] }[] = [
      { fts: 'tasks_fts', source: 'tasks', columns: ['name'], updateOf: ['name'] },
      { fts: 'messages_fts', source: 'messages', columns: ['message'], updateOf: ['message'] },
      {
        fts: 'documents_fts',
        source: 'documents',
        columns: ['name', 'content'],
        updateOf: ['name', 'content'],
      },
      {
        fts: 'crm_contacts_fts',
        source: 'crm_contacts',
        columns: ['first_name', 'last_name', 'email', 'notes'],
        updateOf: ['first_name', 'last_name', 'email', 'notes'],
      },
      {
        fts: 'crm_accounts_fts',
        source: 'crm_accounts',
        columns: ['name', 'email', 'website', 'notes'],
        updateOf: ['name', 'email', 'website', 'notes'],
      },
    ];
    for (const { fts, source, columns, updateOf } of tables) {
      const cols = columns.join(', ');
      const newVals = columns.map((c) => `new.${c}`).join(', ');
      const oldVals = columns.map((c) => `old.${c}`).join(', ');
      db.exec(`
        CREATE VIRTUAL TABLE ${fts} USING fts5(${cols}, content='${source}', content_rowid='rowid',
          tokenize='unicode61 remove_diacritics 2');
        CREATE TRIGGER ${source}_fts_insert AFTER INSERT ON ${source} BEGIN
          INSERT INTO ${fts}(rowid, ${cols}) VALUES (new.rowid, ${newVals});
        END;
        CREATE TRIGGER ${source}_fts_delete AFTER DELETE ON ${source} BEGIN
          INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', old.rowid, ${oldVals});
        END;
        CREATE TRIGGER ${source}_fts_update AFTER UPDATE OF ${updateOf.join(', ')} ON ${source}
        WHEN ${updateOf.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN
          INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', old.rowid, ${oldVals});
          INSERT INTO ${fts}(rowid, ${cols}) VALUES (new.rowid, ${newVals});
        END;
      `);
    }
  },
};

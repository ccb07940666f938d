import type { Database } from 'better-sqlite3';

/** A full-text index over some text columns of one cache table. */
export interface FtsIndex {
  fts: string;
  source: string;
  columns: readonly string[];
}

/**
 * Creates an external-content FTS5 table over `source`, keyed by the source row's rowid, and
 * the triggers that keep it current, so every cache write (sync or local edit) updates the
 * index in the same transaction; an update that leaves the text alone skips it. The index
 * starts empty: a migration over a table that may hold rows rebuilds it.
 *
 * Frozen: migrations 002, 005 and 008 call it, so what it makes is part of what they shipped
 * (`frozen-migrations.test.ts` checks the schema each version leaves). A different index needs
 * a helper of its own, not an edit here.
 */
export function createFtsIndex(db: Database, { fts, source, columns }: FtsIndex): void {
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
        CREATE TRIGGER ${source}_fts_update AFTER UPDATE OF ${cols} ON ${source}
        WHEN ${columns.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN
          INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', old.rowid, ${oldVals});
          INSERT INTO ${fts}(rowid, ${cols}) VALUES (new.rowid, ${newVals});
        END;
      `);
}

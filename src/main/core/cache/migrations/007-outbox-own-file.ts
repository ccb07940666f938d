import type { Migration } from './types';

/**
 * The outbox moved to a file of its own (`outbox-*.sqlite`, see `cache/db.ts`): the cache can
 * then be thrown away and pulled again without losing what the user has not sent. `openAccountDb`
 * copies the rows into the outbox file (and commits that) before this step drops them here.
 * Children first: their foreign keys point at `outbox_entries`.
 */
export const migration007: Migration = {
  version: 7,
  name: 'outbox-own-file',
  up(db) {
    db.exec(`
      DROP TABLE IF EXISTS outbox_entry_keys;
      DROP TABLE IF EXISTS outbox_field_claims;
      DROP TABLE IF EXISTS outbox_entries;
      DROP TABLE IF EXISTS outbox_id_map;
      DROP TABLE IF EXISTS outbox_conflicts;
    `);
  },
};

import type { Migration } from './types';
import { createFtsIndex } from './fts';

/**
 * Full-text search. One external-content FTS5 table per searchable resource, kept current by
 * triggers (see `createFtsIndex`).
 */
export const migration002: Migration = {
  version: 2,
  name: 'search',
  up(db) {
    createFtsIndex(db, { fts: 'tasks_fts', source: 'tasks', columns: ['name'] });
    createFtsIndex(db, { fts: 'messages_fts', source: 'messages', columns: ['message'] });
    createFtsIndex(db, { fts: 'documents_fts', source: 'documents', columns: ['name', 'content'] });
    createFtsIndex(db, {
      fts: 'crm_contacts_fts',
      source: 'crm_contacts',
      columns: ['first_name', 'last_name', 'email', 'notes'],
    });
    createFtsIndex(db, {
      fts: 'crm_accounts_fts',
      source: 'crm_accounts',
      columns: ['name', 'email', 'website', 'notes'],
    });
  },
};

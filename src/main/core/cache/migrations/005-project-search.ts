import type { Migration } from './types';
import { createFtsIndex } from './fts';

/** Projects and folders in the full-text search, by name and description. */
export const migration005: Migration = {
  version: 5,
  name: 'project-search',
  up(db) {
    createFtsIndex(db, { fts: 'projects_fts', source: 'projects', columns: ['name', 'description'] });
    // Projects cached before this migration go into the index too.
    db.exec(`INSERT INTO projects_fts(projects_fts) VALUES ('rebuild')`);
  },
};

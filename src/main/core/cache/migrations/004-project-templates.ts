import type { Migration } from './types';

/** Project templates (the `projectTemplateId` values new-project accepts), for the New-project dialog. */
export const migration004: Migration = {
  version: 4,
  name: 'project-templates',
  up(db) {
    db.exec(`
      CREATE TABLE project_templates (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL
      ) STRICT;
    `);
  },
};

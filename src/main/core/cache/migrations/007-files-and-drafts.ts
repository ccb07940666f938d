import type { Migration } from './types';

/**
 * Task rows count their files: a partial index of the messages that carry attachments, so the
 * count of a task without any is one index probe. Drafts: what was typed in a message box or the
 * new-task dialog and not sent, kept by the core per account (this file is the account's) so it
 * survives a restart and a crash.
 */
export const migration007: Migration = {
  version: 7,
  name: 'files-and-drafts',
  up(db) {
    db.exec(`
      CREATE INDEX messages_with_files ON messages(task_id) WHERE attachments IS NOT NULL;
      CREATE TABLE drafts (
        key TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};

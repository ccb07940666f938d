import type { Migration } from './types';

/** The files a task's cached messages carry, counted afresh. */
const COUNT = (task: string): string =>
  `coalesce((SELECT sum(json_array_length(attachments)) FROM messages
             WHERE task_id = ${task} AND attachments IS NOT NULL), 0)`;

/**
 * Task rows count their files: `tasks.attachment_count`, kept by triggers on the messages (and
 * on a task stored after its messages), so a list reads it as a plain column; a subquery per
 * row cost a full 10,000-row read about half again its time. A partial index of the messages
 * with files keeps each recount to the task's few. Drafts: what was typed in a message box or
 * the New task dialog and not sent, kept per account (this file is the account's) so it
 * survives a restart and a crash.
 */
export const migration012: Migration = {
  version: 12,
  name: 'files-and-drafts',
  up(db) {
    db.exec(`
      CREATE INDEX messages_with_files ON messages(task_id) WHERE attachments IS NOT NULL;
      ALTER TABLE tasks ADD COLUMN attachment_count INTEGER NOT NULL DEFAULT 0;
      UPDATE tasks SET attachment_count = ${COUNT('tasks.id')}
        WHERE id IN (SELECT task_id FROM messages WHERE attachments IS NOT NULL);
      CREATE TRIGGER messages_files_insert AFTER INSERT ON messages WHEN NEW.attachments IS NOT NULL
      BEGIN
        UPDATE tasks SET attachment_count = ${COUNT('NEW.task_id')} WHERE id = NEW.task_id;
      END;
      CREATE TRIGGER messages_files_delete AFTER DELETE ON messages WHEN OLD.attachments IS NOT NULL
      BEGIN
        UPDATE tasks SET attachment_count = ${COUNT('OLD.task_id')} WHERE id = OLD.task_id;
      END;
      CREATE TRIGGER messages_files_update AFTER UPDATE OF attachments, task_id ON messages
      BEGIN
        UPDATE tasks SET attachment_count = ${COUNT('OLD.task_id')} WHERE id = OLD.task_id;
        UPDATE tasks SET attachment_count = ${COUNT('NEW.task_id')} WHERE id = NEW.task_id;
      END;
      CREATE TRIGGER tasks_files_insert AFTER INSERT ON tasks
      BEGIN
        UPDATE tasks SET attachment_count = ${COUNT('NEW.id')} WHERE id = NEW.id;
      END;
      CREATE TABLE drafts (
        key TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};

import type { Migration } from './types';

/**
 * Indexes of the open tasks with a deadline, by assignee and by the user whose action they await,
 * then deadline: Home's late and due-soon read and the daily due notices (`tasks.due`) ask for a
 * user's open tasks due up to a day, and read only those through these two. Before, the people
 * indexes gave every open task of the user (with a deadline or not, due in a year or not), each
 * then looked up in the table to test its deadline. Partial: closed and undated tasks, most of a
 * workspace's, are not held.
 */
export const migration018: Migration = {
  version: 18,
  name: 'due-tasks-index',
  // `IF NOT EXISTS`: a file whose recorded version was set back (as a test of an older file's
  // upgrade does) runs this step again over the indexes it already has.
  up(db) {
    db.exec(`
      CREATE INDEX IF NOT EXISTS tasks_due_assigned ON tasks(assigned_to_user_id, deadline)
        WHERE moment_closed IS NULL AND deadline IS NOT NULL;
      CREATE INDEX IF NOT EXISTS tasks_due_action_required ON tasks(action_required_user_id, deadline)
        WHERE moment_closed IS NULL AND deadline IS NOT NULL;
    `);
  },
};

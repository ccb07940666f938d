import type { TaskMessage } from '../../../../shared/api/messages';
import type { MessageView } from '../../../../shared/ipc/tasks';
import type { CacheDb } from '../db';
import { tableCodec } from '../codec';
import { replaceScope } from './statements';

export type MessagesRepo = ReturnType<typeof createMessagesRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.messages` (see `ResourceRepos`). */
  interface ResourceRepos {
    messages: MessagesRepo;
  }
}

/** A message with files and its task, as a project's file list reads it. */
export interface MessageWithFiles {
  messageId: string;
  fromUserId: string;
  dateCreated: string;
  /** The stored JSON array of the message's attachments. */
  attachments: string;
  taskId: string;
  taskShortId: string;
  taskName: string;
}

export function createMessagesRepo(db: CacheDb) {
  const codec = tableCodec<MessageView>(db, 'messages', ['id'], {
    id: ['id', 'value'],
    taskId: ['task_id', 'value'],
    dateCreated: ['date_created', 'value'],
    communicationFlow: ['communication_flow', 'value'],
    fromUserId: ['from_user_id', 'value'],
    toUserId: ['to_user_id', 'value'],
    message: ['message', 'value'],
    messageRTF: ['message_rtf', 'json'],
    editByUserId: ['edit_by_user_id', 'value'],
    editDate: ['edit_date', 'value'],
    taskStatusId: ['task_status_id', 'value'],
    taskSystemStatusNew: ['task_system_status_new', 'value'],
    timeReportId: ['time_report_id', 'value'],
    attachments: ['attachments', 'json'],
  });
  const listStmt = db.prepare(
    `SELECT ${codec.select} FROM messages WHERE task_id = ? ORDER BY date_created, id`,
  );
  const hasStmt = db.prepare('SELECT 1 FROM messages WHERE id = ?').pluck();
  const deleteStmt = db.prepare('DELETE FROM messages WHERE id = ?');
  const deleteDraftStmt = db.prepare("DELETE FROM messages WHERE id = ? AND id LIKE 'draft-%'");
  const draftsStmt = db.prepare(
    "SELECT id, from_user_id AS fromUserId, message FROM messages WHERE task_id = ? AND id LIKE 'draft-%'",
  );
  const withFilesInProjectStmt = db.prepare(
    `WITH RECURSIVE scope(id) AS (
       SELECT ? UNION ALL SELECT p.id FROM projects p JOIN scope ON p.parent_project_id = scope.id)
     SELECT m.id AS messageId, m.from_user_id AS fromUserId, m.date_created AS dateCreated,
            m.attachments AS attachments, t.id AS taskId, t.short_id AS taskShortId, t.name AS taskName
     FROM tasks t JOIN messages m ON m.task_id = t.id AND m.attachments IS NOT NULL
     WHERE t.project_id IN (SELECT id FROM scope)
     ORDER BY m.date_created DESC, m.id`,
  );
  /**
   * Makes the cached messages of a task exactly `messages`, which carry that task already (as a
   * task's message list is read: see `listedMessages`), keeping those `keep` protects: as
   * `replaceForTask`, without a copy of each message.
   */
  function replaceListed(
    taskId: string,
    messages: readonly (TaskMessage & { taskId: string })[],
    keep?: (id: string) => boolean,
  ): string[] {
    const other = messages.find((m) => m.taskId !== taskId);
    if (other) throw new Error(`message ${other.id} is listed for task ${other.taskId}, not ${taskId}`);
    return replaceScope(db, codec, 'id', 'task_id = ?', [taskId], messages, keep);
  }
  return {
    codec,
    has(id: string): boolean {
      return hasStmt.get(id) !== undefined;
    },
    delete(id: string): void {
      deleteStmt.run(id);
    },
    /**
     * Removes the row a comment shows while it waits (id `draft-…`); a message the service
     * answered is left alone.
     */
    deleteDraft(id: string): void {
      deleteDraftStmt.run(id);
    },
    /**
     * The messages with files on tasks of a project and its subprojects, newest first, with
     * their task; `attachments` is the stored JSON text, as kept.
     */
    withFilesInProject(projectId: string): MessageWithFiles[] {
      return withFilesInProjectStmt.all(projectId) as MessageWithFiles[];
    },
    /** Makes the cached messages of a task exactly `messages`, keeping those `keep` protects. */
    replaceForTask(
      taskId: string,
      messages: readonly TaskMessage[],
      keep?: (id: string) => boolean,
    ): string[] {
      return replaceListed(
        taskId,
        messages.map((m) => ({ ...m, taskId })),
        keep,
      );
    },
    replaceListed,
    /** The rows a comment shows while it waits (id `draft-…`) on a task: who wrote what. */
    draftsOfTask(taskId: string): { id: string; fromUserId: string; message: string }[] {
      return draftsStmt.all(taskId) as { id: string; fromUserId: string; message: string }[];
    },
    listForTask(taskId: string): MessageView[] {
      return (listStmt.all(taskId) as Record<string, unknown>[]).map((r) => {
        const m = codec.decode(r) as MessageView & Record<string, unknown>;
        if (m.attachments === null) delete m.attachments;
        return m;
      });
    },
  };
}

import type { StoredAttachment } from '../../shared/api/attachments';
import type { TaskMessage } from '../../shared/api/messages';
import type { Db } from './open';

export interface MessageRow {
  id: string;
  task_id: string;
  date_created: string;
  communication_flow: number;
  from_user_id: string;
  to_user_id: string | null;
  message: string;
  edit_by_user_id: string | null;
  edit_date: string | null;
  task_status_id: string;
  task_system_status_new: number | null;
  attachments: string | null;
}

function toMessage(r: MessageRow): TaskMessage {
  const out: TaskMessage = {
    id: r.id,
    dateCreated: r.date_created,
    communicationFlow: r.communication_flow,
    fromUserId: r.from_user_id,
    toUserId: r.to_user_id,
    message: r.message,
    messageRTF: { text: r.message },
    editByUserId: r.edit_by_user_id,
    editDate: r.edit_date,
    taskStatusId: r.task_status_id,
    taskSystemStatusNew: r.task_system_status_new,
    timeReportId: null,
  };
  if (r.attachments) out.attachments = JSON.parse(r.attachments) as StoredAttachment[];
  return out;
}

export function messageStore(db: Db) {
  const byTask = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE task_id = ? ORDER BY seq');
  const insert = db.prepare<MessageRow>(
    `INSERT INTO messages (id, task_id, date_created, communication_flow, from_user_id, to_user_id, message,
       edit_by_user_id, edit_date, task_status_id, task_system_status_new, attachments)
     VALUES (@id, @task_id, @date_created, @communication_flow, @from_user_id, @to_user_id, @message,
       @edit_by_user_id, @edit_date, @task_status_id, @task_system_status_new, @attachments)`,
  );
  return {
    byTask: (taskId: string) => byTask.all(taskId).map(toMessage),
    insert: (row: MessageRow) => insert.run(row),
  };
}
export type MessageStore = ReturnType<typeof messageStore>;

import type { Db } from './open';
import { descendantsSql, insertSql, updateSql } from './sql';

export interface TaskRow {
  id: string;
  short_id: string;
  project_id: string;
  parent_task_id: string | null;
  name: string;
  created_by_user_id: string | null;
  assigned_to_user_id: string | null;
  action_required_user_id: string | null;
  status_id: string;
  task_type_id: string;
  priority: number;
  start_date: string | null;
  end_date: string | null;
  deadline: string | null;
  schedule_date: string | null;
  schedule_status: number;
  estimate: number | null;
  progress: number | null;
  story_points: number | null;
  todo_list: string | null;
  crm_account_id: string | null;
  custom_fields_data: string;
  form_submission: string | null;
  users: string;
  moment_created: string;
  moment_closed: string | null;
  recent_activity_moment: string;
}

const COLUMNS: ReadonlyArray<keyof TaskRow> = [
  'id',
  'short_id',
  'project_id',
  'parent_task_id',
  'name',
  'created_by_user_id',
  'assigned_to_user_id',
  'action_required_user_id',
  'status_id',
  'task_type_id',
  'priority',
  'start_date',
  'end_date',
  'deadline',
  'schedule_date',
  'schedule_status',
  'estimate',
  'progress',
  'story_points',
  'todo_list',
  'crm_account_id',
  'custom_fields_data',
  'form_submission',
  'users',
  'moment_created',
  'moment_closed',
  'recent_activity_moment',
];

/**
 * The Task resource built by SQLite itself, so a list of a thousand tasks is one query and one
 * string join, with no per-row mapping in JavaScript. `t`, `s` and `tt` are the task, its status
 * and its task type.
 */
export const TASK_JSON = `json_object(
  'id', t.id, 'shortId', t.short_id, 'name', t.name,
  'actionRequiredUserId', t.action_required_user_id, 'assignedToUserId', t.assigned_to_user_id,
  'createdByUserId', t.created_by_user_id, 'customFieldsData', json(t.custom_fields_data),
  'deadline', t.deadline, 'startDate', t.start_date, 'endDate', t.end_date, 'scheduleDate', t.schedule_date,
  'estimate', t.estimate, 'progress', t.progress, 'priority', t.priority, 'reportedTime', NULL,
  'momentCreated', t.moment_created, 'momentClosed', t.moment_closed,
  'recentActivityMoment', t.recent_activity_moment, 'parentTaskId', t.parent_task_id,
  'projectId', t.project_id, 'status', json_object('id', s.id, 'name', s.name),
  'systemStatus', s.system_status, 'systemType', tt.system_type, 'scheduleStatus', t.schedule_status,
  'taskType', json_object('id', tt.id, 'name', tt.name), 'users', json(t.users),
  'formSubmission', json(t.form_submission), 'storyPoints', t.story_points,
  'todoList', json(t.todo_list))`;

export const TASK_FROM =
  'FROM tasks t JOIN statuses s ON s.id = t.status_id JOIN task_types tt ON tt.id = t.task_type_id';

/** The SQL of GET /project/{id}/tasks (closed=false), shared with the benchmark's bare baseline. */
export const PROJECT_OPEN_TASKS_SQL = `SELECT ${TASK_JSON} ${TASK_FROM} WHERE t.project_id = ? AND s.is_closed = 0 ORDER BY t.rowid`;
export const TASK_BY_ID_SQL = `SELECT ${TASK_JSON} ${TASK_FROM} WHERE t.id = ?`;

/** Joins JSON object texts into a JSON array text. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}

export function taskStore(db: Db) {
  const byId = db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?');
  const jsonById = db.prepare<[string], string>(TASK_BY_ID_SQL).pluck();
  const subtasksJson = db
    .prepare<[string], string>(`SELECT ${TASK_JSON} ${TASK_FROM} WHERE t.parent_task_id = ? ORDER BY t.rowid`)
    .pluck();
  const projectOpen = db.prepare<[string], string>(PROJECT_OPEN_TASKS_SQL).pluck();
  const projectAll = db
    .prepare<[string], string>(`SELECT ${TASK_JSON} ${TASK_FROM} WHERE t.project_id = ? ORDER BY t.rowid`)
    .pluck();
  const treeCte = `WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT p.id FROM projects p JOIN tree ON p.parent_project_id = tree.id)`;
  const treeOpen = db
    .prepare<[string], string>(
      `${treeCte} SELECT ${TASK_JSON} ${TASK_FROM} JOIN tree ON tree.id = t.project_id WHERE s.is_closed = 0 ORDER BY t.rowid`,
    )
    .pluck();
  const treeAll = db
    .prepare<[string], string>(
      `${treeCte} SELECT ${TASK_JSON} ${TASK_FROM} JOIN tree ON tree.id = t.project_id ORDER BY t.rowid`,
    )
    .pluck();
  const actionRequired = db
    .prepare<[string], string>(
      `SELECT ${TASK_JSON} ${TASK_FROM} WHERE t.action_required_user_id = ? AND s.is_closed = 0 ORDER BY t.rowid`,
    )
    .pluck();
  const assignedOpen = db
    .prepare<[string], string>(
      `SELECT ${TASK_JSON} ${TASK_FROM} WHERE t.assigned_to_user_id = ? AND s.is_closed = 0 ORDER BY t.rowid`,
    )
    .pluck();
  const assignedAll = db
    .prepare<[string], string>(
      `SELECT ${TASK_JSON} ${TASK_FROM} WHERE t.assigned_to_user_id = ? ORDER BY t.rowid`,
    )
    .pluck();
  const tagOpen = db
    .prepare<[string], string>(
      `SELECT ${TASK_JSON} ${TASK_FROM} JOIN task_tags g ON g.task_id = t.id WHERE g.tag_id = ? AND s.is_closed = 0 ORDER BY t.rowid`,
    )
    .pluck();
  const tagAll = db
    .prepare<[string], string>(
      `SELECT ${TASK_JSON} ${TASK_FROM} JOIN task_tags g ON g.task_id = t.id WHERE g.tag_id = ? ORDER BY t.rowid`,
    )
    .pluck();
  const insert = db.prepare(insertSql('tasks', COLUMNS));
  const update = db.prepare(updateSql('tasks', COLUMNS));
  const descendants = db.prepare<[string], string>(descendantsSql('tasks', 'parent_task_id')).pluck();
  const moveProject = db.prepare<[string, string]>('UPDATE tasks SET project_id = ? WHERE id = ?');
  const tagIds = db
    .prepare<[string], string>('SELECT tag_id FROM task_tags WHERE task_id = ? ORDER BY tag_id')
    .pluck();
  const addTag = db.prepare<[string, string]>(
    'INSERT OR IGNORE INTO task_tags (task_id, tag_id) VALUES (?, ?)',
  );
  const removeTag = db.prepare<[string, string]>('DELETE FROM task_tags WHERE task_id = ? AND tag_id = ?');
  const contactIds = db
    .prepare<[string], string>(
      'SELECT contact_id FROM task_crm_contacts WHERE task_id = ? ORDER BY contact_id',
    )
    .pluck();
  const clearContacts = db.prepare<[string]>('DELETE FROM task_crm_contacts WHERE task_id = ?');
  const addContact = db.prepare<[string, string]>(
    'INSERT OR IGNORE INTO task_crm_contacts (task_id, contact_id) VALUES (?, ?)',
  );
  const deleteStatements = [
    'DELETE FROM task_tags WHERE task_id = @id',
    'DELETE FROM task_crm_contacts WHERE task_id = @id',
    'DELETE FROM messages WHERE task_id = @id',
    'DELETE FROM time_reports WHERE task_id = @id',
    "DELETE FROM dependencies WHERE (predecessor_kind = 'Task' AND predecessor_id = @id) OR (successor_kind = 'Task' AND successor_id = @id)",
    'DELETE FROM tasks WHERE id = @id',
  ].map((sql) => db.prepare<{ id: string }>(sql));
  const nextShort = db.prepare<[], { value: string }>(
    "INSERT INTO meta (key, value) VALUES ('task_short_id', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value",
  );
  const reassign = db.prepare<{ project: string; from: string; to: string | null }>(
    'UPDATE tasks SET assigned_to_user_id = @to WHERE project_id = @project AND assigned_to_user_id = @from',
  );
  const reassignActionRequired = db.prepare<{ project: string; from: string; to: string | null }>(
    'UPDATE tasks SET action_required_user_id = @to WHERE project_id = @project AND action_required_user_id = @from',
  );

  return {
    row: (id: string) => byId.get(id),
    json: (id: string) => jsonById.get(id),
    subtasksJson: (id: string) => subtasksJson.all(id),
    byProject: (projectId: string, closed: boolean, subfolders: boolean) =>
      subfolders
        ? (closed ? treeAll : treeOpen).all(projectId)
        : (closed ? projectAll : projectOpen).all(projectId),
    actionRequired: (userId: string) => actionRequired.all(userId),
    assigned: (userId: string, closed: boolean) => (closed ? assignedAll : assignedOpen).all(userId),
    byTag: (tagId: string, closed: boolean) => (closed ? tagAll : tagOpen).all(tagId),
    insert: (row: TaskRow) => insert.run(row),
    update: (row: TaskRow) => update.run(row),
    descendants: (id: string) => descendants.all(id),
    moveProject: (id: string, projectId: string) => moveProject.run(projectId, id),
    tagIds: (id: string) => tagIds.all(id),
    addTag: (id: string, tagId: string) => addTag.run(id, tagId),
    removeTag: (id: string, tagId: string) => removeTag.run(id, tagId),
    contactIds: (id: string) => contactIds.all(id),
    setContacts: (id: string, contacts: readonly string[]) => {
      clearContacts.run(id);
      for (const c of contacts) addContact.run(id, c);
    },
    /** Deletes the task and everything hanging off it, subtasks first. */
    delete: (id: string) => {
      for (const taskId of [...descendants.all(id).reverse(), id]) {
        for (const statement of deleteStatements) statement.run({ id: taskId });
      }
    },
    nextShortId: () => nextShort.get()!.value,
    /** Moves the user's assignments (and action-required marks) in one project to `to`. */
    reassignInProject: (project: string, from: string, to: string | null) => {
      reassign.run({ project, from, to });
      reassignActionRequired.run({ project, from, to });
    },
  };
}
export type TaskStore = ReturnType<typeof taskStore>;

import type { Task, TodoLists } from '../../../../shared/api/tasks';
import type { TaskRow, TaskView, TaskFilter } from '../../../../shared/ipc/tasks';
import type { Statement } from 'better-sqlite3';
import type { CacheDb } from '../db';
import { tableCodec, type FieldMap } from '../codec';
import { deleteByIds, statementCache } from './statements';

/** A task as stored: the list shape flattened (status and type split into id and name). */
export interface TaskFlat {
  id: string;
  shortId: string;
  name: string;
  projectId: string;
  parentTaskId: string | null;
  statusId: string;
  statusName: string;
  systemStatus: number;
  systemType: number;
  scheduleStatus: number;
  taskTypeId: string;
  taskTypeName: string;
  priority: number;
  assignedToUserId: string | null;
  actionRequiredUserId: string | null;
  createdByUserId: string | null;
  deadline: string | null;
  startDate: string | null;
  endDate: string | null;
  scheduleDate: string | null;
  estimate: number | null;
  progress: number | null;
  momentCreated: string;
  momentClosed: string | null;
  recentActivityMoment: string;
  users: string[];
  customFieldsData: Record<string, unknown>;
  formSubmission: unknown;
  storyPoints: number | null | undefined;
  reportedTime: unknown;
  /** The to-do lists (GoodDay's documented structure); null when none or not sent. */
  todoList: TodoLists | null | undefined;
}

export function flattenTask(t: Task): TaskFlat {
  return {
    id: t.id,
    shortId: t.shortId,
    name: t.name,
    projectId: t.projectId,
    parentTaskId: t.parentTaskId,
    statusId: t.status.id,
    statusName: t.status.name,
    systemStatus: t.systemStatus,
    systemType: t.systemType,
    scheduleStatus: t.scheduleStatus,
    taskTypeId: t.taskType.id,
    taskTypeName: t.taskType.name,
    priority: t.priority,
    assignedToUserId: t.assignedToUserId,
    actionRequiredUserId: t.actionRequiredUserId,
    createdByUserId: t.createdByUserId,
    deadline: t.deadline,
    startDate: t.startDate,
    endDate: t.endDate,
    scheduleDate: t.scheduleDate,
    estimate: t.estimate,
    progress: t.progress,
    momentCreated: t.momentCreated,
    momentClosed: t.momentClosed,
    recentActivityMoment: t.recentActivityMoment,
    users: t.users,
    customFieldsData: t.customFieldsData,
    formSubmission: t.formSubmission ?? null,
    storyPoints: t.storyPoints ?? null,
    reportedTime: t.reportedTime ?? null,
    todoList: t.todoList ?? null,
  };
}

/** Which tasks a list shows; every list handler is one of these scopes plus a filter. */
export type TaskScope =
  | { kind: 'project'; projectId: string; includeSubprojects: boolean }
  | { kind: 'assigned'; userId: string }
  | { kind: 'actionRequired'; userId: string }
  | { kind: 'tag'; tagId: string };

export interface TaskListQuery {
  scope: TaskScope;
  filter: TaskFilter;
  sort: { by: string; dir: 'asc' | 'desc' };
  offset: number;
  limit: number;
}

const SORT_COLUMNS: Record<string, string> = {
  name: 'name COLLATE NOCASE',
  shortId: 'short_id',
  priority: 'priority',
  status: 'status_name COLLATE NOCASE',
  deadline: 'deadline',
  momentCreated: 'moment_created',
  recentActivityMoment: 'recent_activity_moment',
  assignedToUserId: 'assigned_to_user_id',
};

/** Sort keys whose column may be NULL: those rows go last in both directions. */
const NULLABLE_SORTS = new Set(['deadline', 'assignedToUserId']);

/**
 * The flat list row, column by column: [SQL expression, TaskRow key]; `closed` is derived. One
 * list serves the query and the row builder, and sits beside TaskRow so the two cannot drift.
 */
const ROW_COLUMNS: readonly (readonly [sql: string, key: keyof TaskRow])[] = [
  ['id', 'id'],
  ['short_id', 'shortId'],
  ['name', 'name'],
  ['project_id', 'projectId'],
  ['parent_task_id', 'parentTaskId'],
  // Every statement selecting these reads `FROM tasks` (unaliased), which this names.
  ['(SELECT parent.name FROM tasks AS parent WHERE parent.id = tasks.parent_task_id)', 'parentTaskName'],
  ['status_id', 'statusId'],
  ['status_name', 'statusName'],
  ['task_type_id', 'taskTypeId'],
  ['task_type_name', 'taskTypeName'],
  ['priority', 'priority'],
  ['assigned_to_user_id', 'assignedToUserId'],
  ['action_required_user_id', 'actionRequiredUserId'],
  ['created_by_user_id', 'createdByUserId'],
  ['deadline', 'deadline'],
  ['start_date', 'startDate'],
  ['end_date', 'endDate'],
  ['schedule_date', 'scheduleDate'],
  ['estimate', 'estimate'],
  ['progress', 'progress'],
  ['moment_created', 'momentCreated'],
  ['moment_closed', 'momentClosed'],
  ['recent_activity_moment', 'recentActivityMoment'],
  ['moment_closed IS NOT NULL', 'closed'],
  // The paperclip's count, kept by triggers on the messages (migration 012).
  ['attachment_count', 'attachmentCount'],
  // To-do progress over all the task's lists, kept by triggers on `todo_list` (migration 013).
  ['todo_done', 'todoDone'],
  ['todo_total', 'todoTotal'],
];

export const ROW_SELECT = ROW_COLUMNS.map(([sql, key]) => (sql === key ? sql : `${sql} AS ${key}`)).join(
  ', ',
);

/**
 * A TaskRow from a raw (array) result row of ROW_SELECT. better-sqlite3 builds a row object by
 * adding its columns one at a time, and V8 turns an object given more than a dozen properties
 * that way into a slow dictionary; an object literal with all its keys stays a fast object. On
 * a 200-row window this reads 2.6x faster, and 5x with the JSON the web host sends, 10,000 rows
 * 4.5x (measured on the cache-reads benchmark's data). The literal is generated from
 * ROW_COLUMNS, the one list of the columns.
 */
// The Function body is a fixed literal built from ROW_COLUMNS above; no input reaches it.
const rowFromArray = new Function(
  'a',
  `return {${ROW_COLUMNS.map(([, key], i) => `${key}: a[${i}]${key === 'closed' ? ' === 1' : ''}`).join(', ')}};`,
) as (a: unknown[]) => TaskRow;

/** Every row of a statement selecting ROW_SELECT, as TaskRows. */
function allRows(stmt: Statement, ...params: unknown[]): TaskRow[] {
  return (stmt.raw(true).all(...params) as unknown[][]).map(rowFromArray);
}

/** The groups of `due`, in the order of its `grp` numbers. */
const DUE_GROUPS = ['late', 'today', 'later'] as const;
export type DueGroup = (typeof DUE_GROUPS)[number];
/** One of `due`'s groups: its first rows, how many it holds, how many of the rest are assigned. */
export interface DueGroupRows {
  rows: TaskRow[];
  total: number;
  unlistedAssigned: number;
}

// The OR of the two people columns is read as a union of two indexes (`MULTI-INDEX OR`): the
// open dated tasks by assignee and by awaited user, then deadline (`tasks_due_assigned`,
// `tasks_due_action_required`), each searched for the user's tasks due up to `through`. The
// terms `moment_closed IS NULL` and `deadline IS NOT NULL` are those indexes' conditions,
// written as they are so SQLite can use them.
export const DUE_SQL = `WITH due AS (
    SELECT rowid AS rid, deadline AS day, assigned_to_user_id IS @userId AS mine,
      CASE WHEN deadline < @today THEN 0 WHEN deadline = @today THEN 1 ELSE 2 END AS grp
    FROM tasks
    WHERE (assigned_to_user_id = @userId OR action_required_user_id = @userId)
      AND moment_closed IS NULL AND deadline IS NOT NULL AND deadline <= @through
  ), ranked AS (
    SELECT rid, grp, mine, row_number() OVER (PARTITION BY grp ORDER BY day, rid) AS place,
      count(*) OVER (PARTITION BY grp) AS groupTotal,
      sum(mine) OVER (PARTITION BY grp) AS groupAssigned
    FROM due
  )
  SELECT ${ROW_SELECT}, ranked.grp, ranked.groupTotal, ranked.groupAssigned, ranked.mine
  FROM ranked JOIN tasks ON tasks.rowid = ranked.rid
  WHERE ranked.place <= @perGroup
  ORDER BY ranked.grp, ranked.place`;

/** Bookkeeping of what was fetched for a task beyond the list shape. */
export interface TaskFetchState {
  recentActivityMoment: string;
  messagesActivityMoment: string | null;
  detailFetchedAt: string | null;
}

/** The list shape's columns: what a project's task list sets (detail-only columns and fetch bookkeeping apart). */
const TASK_FIELDS: FieldMap<TaskFlat> = {
  id: ['id', 'value'],
  shortId: ['short_id', 'value'],
  name: ['name', 'value'],
  projectId: ['project_id', 'value'],
  parentTaskId: ['parent_task_id', 'value'],
  statusId: ['status_id', 'value'],
  statusName: ['status_name', 'value'],
  systemStatus: ['system_status', 'value'],
  systemType: ['system_type', 'value'],
  scheduleStatus: ['schedule_status', 'value'],
  taskTypeId: ['task_type_id', 'value'],
  taskTypeName: ['task_type_name', 'value'],
  priority: ['priority', 'value'],
  assignedToUserId: ['assigned_to_user_id', 'value'],
  actionRequiredUserId: ['action_required_user_id', 'value'],
  createdByUserId: ['created_by_user_id', 'value'],
  deadline: ['deadline', 'value'],
  startDate: ['start_date', 'value'],
  endDate: ['end_date', 'value'],
  scheduleDate: ['schedule_date', 'value'],
  estimate: ['estimate', 'value'],
  progress: ['progress', 'value'],
  momentCreated: ['moment_created', 'value'],
  momentClosed: ['moment_closed', 'value'],
  recentActivityMoment: ['recent_activity_moment', 'value'],
  users: ['users', 'json'],
  customFieldsData: ['custom_fields', 'json'],
  formSubmission: ['form_submission', 'json'],
  storyPoints: ['story_points', 'value'],
  reportedTime: ['reported_time', 'json'],
  todoList: ['todo_list', 'json'],
};

/** The columns a task list answer writes (see `TASK_FIELDS`). */
export const TASK_LIST_COLUMNS: readonly string[] = Object.values(TASK_FIELDS).map(([column]) => column);

export type TasksRepo = ReturnType<typeof createTasksRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.tasks` (see `ResourceRepos`). */
  interface ResourceRepos {
    tasks: TasksRepo;
  }
}

export function createTasksRepo(db: CacheDb) {
  const codec = tableCodec<TaskFlat>(db, 'tasks', ['id'], TASK_FIELDS);
  const stmt = statementCache(db);
  const byShortIdStmt = db.prepare('SELECT id, name FROM tasks WHERE short_id = ? LIMIT 1');
  const getStmt = db.prepare(
    `SELECT ${codec.select}, crm_account_id AS crmAccountId FROM tasks WHERE id = ?`,
  );
  const getFlatStmt = db.prepare(`SELECT ${codec.select} FROM tasks WHERE id = ?`);
  const rowStmt = db.prepare(`SELECT ${ROW_SELECT} FROM tasks WHERE id = ?`).raw(true);
  const subtasksStmt = db.prepare(
    `SELECT ${ROW_SELECT} FROM tasks WHERE parent_task_id = ? ORDER BY moment_created, id`,
  );
  const descendantsStmt = db
    .prepare(
      `WITH RECURSIVE d(id) AS (SELECT id FROM tasks WHERE parent_task_id = ?
         UNION ALL SELECT t.id FROM tasks t JOIN d ON t.parent_task_id = d.id)
       SELECT id FROM d`,
    )
    .pluck();
  const crmAccountOfStmt = db.prepare('SELECT crm_account_id FROM tasks WHERE id = ?').pluck();
  const setCrmAccountStmt = db.prepare('UPDATE tasks SET crm_account_id = ? WHERE id = ?');
  const peopleInProjectStmt = db.prepare(
    `SELECT id, assigned_to_user_id AS assignedToUserId, action_required_user_id AS actionRequiredUserId FROM tasks
     WHERE project_id = @project AND (assigned_to_user_id = @user OR action_required_user_id = @user)`,
  );
  const setPeopleStmt = db.prepare(
    'UPDATE tasks SET assigned_to_user_id = ?, action_required_user_id = ? WHERE id = ?',
  );

  function toView(row: Record<string, unknown> | undefined): TaskView | null {
    if (!row) return null;
    const f = codec.decode(row) as TaskFlat & { crmAccountId: string | null };
    const { statusId, statusName, taskTypeId, taskTypeName, ...rest } = f;
    return {
      ...rest,
      status: { id: statusId, name: statusName },
      taskType: { id: taskTypeId, name: taskTypeName },
    } as TaskView;
  }

  /** A list's order: its sort, then the row order, so that windows never overlap. */
  function orderOf(q: Pick<TaskListQuery, 'sort'>): string {
    const dir = q.sort.dir === 'asc' ? 'ASC' : 'DESC';
    const column = SORT_COLUMNS[q.sort.by] ?? 'moment_created';
    // A task with no deadline (or no assignee) is listed after those with one, either way
    // round: SQLite puts NULL first when ascending, and "soonest deadline" must not open on
    // every task that has none.
    const nullsLast = NULLABLE_SORTS.has(q.sort.by) ? `(${column} IS NULL), ` : '';
    return `${nullsLast}${column} ${dir}, tasks.rowid ${dir}`;
  }

  function where(q: Pick<TaskListQuery, 'scope' | 'filter'>): {
    sql: string;
    params: Record<string, unknown>;
  } {
    const clauses: string[] = [];
    const params: Record<string, unknown> = {};
    const s = q.scope;
    let prefix = '';
    switch (s.kind) {
      case 'project':
        params.projectId = s.projectId;
        if (s.includeSubprojects) {
          prefix =
            'WITH RECURSIVE scope(id) AS (SELECT @projectId UNION ALL ' +
            'SELECT p.id FROM projects p JOIN scope ON p.parent_project_id = scope.id) ';
          clauses.push('project_id IN (SELECT id FROM scope)');
        } else clauses.push('project_id = @projectId');
        break;
      case 'assigned':
        params.userId = s.userId;
        clauses.push('assigned_to_user_id = @userId');
        break;
      case 'actionRequired':
        params.userId = s.userId;
        clauses.push('action_required_user_id = @userId');
        break;
      case 'tag':
        params.tagId = s.tagId;
        clauses.push('id IN (SELECT task_id FROM task_tags WHERE tag_id = @tagId)');
        break;
    }
    const f = q.filter;
    if (f.closed === 'open') clauses.push('moment_closed IS NULL');
    if (f.closed === 'closed') clauses.push('moment_closed IS NOT NULL');
    if (f.statusIds) {
      params.statusIds = JSON.stringify(f.statusIds);
      clauses.push('status_id IN (SELECT value FROM json_each(@statusIds))');
    }
    if (f.priorities) {
      params.priorities = JSON.stringify(f.priorities);
      clauses.push('priority IN (SELECT value FROM json_each(@priorities))');
    }
    if (f.assignedToUserId !== undefined) {
      params.assignee = f.assignedToUserId;
      clauses.push('assigned_to_user_id IS @assignee');
    }
    if (f.actionRequiredUserId !== undefined) {
      params.actionRequired = f.actionRequiredUserId;
      clauses.push('action_required_user_id IS @actionRequired');
    }
    if (f.topLevelOnly) clauses.push('parent_task_id IS NULL');
    return { sql: `${prefix}SELECT {cols} FROM tasks WHERE ${clauses.join(' AND ')}`, params };
  }

  return {
    codec,

    /** Writes tasks in the list shape; detail-only columns and fetch bookkeeping are kept. */
    upsertMany(tasks: readonly TaskFlat[]): void {
      for (const t of tasks) codec.upsert(t);
    },

    get(id: string): TaskView | null {
      return toView(getStmt.get(id) as Record<string, unknown> | undefined);
    },

    getFlat(id: string): TaskFlat | null {
      const row = getFlatStmt.get(id) as Record<string, unknown> | undefined;
      return row ? codec.decode(row) : null;
    },

    /** The task a `#123` link names, by its number (short id); null when none is cached. */
    byShortId(shortId: string): { id: string; name: string } | null {
      return (byShortIdStmt.get(shortId) as { id: string; name: string } | undefined) ?? null;
    },

    row(id: string): TaskRow | null {
      const row = rowStmt.get(id) as unknown[] | undefined;
      return row ? rowFromArray(row) : null;
    },

    subtasks(id: string): TaskRow[] {
      return allRows(subtasksStmt, id);
    },

    /** Every task below this one: its subtasks, theirs, and so on. */
    descendantIds(id: string): string[] {
      return descendantsStmt.all(id) as string[];
    },

    /** The CRM account the task is linked to (a detail-only column), null when none or not cached. */
    crmAccountOf(id: string): string | null {
      return (crmAccountOfStmt.get(id) as string | null | undefined) ?? null;
    },

    setCrmAccount(id: string, accountId: string | null): void {
      setCrmAccountStmt.run(accountId, id);
    },

    /** The project's tasks assigned to the user or waiting for their action, with both people. */
    withPersonInProject(
      projectId: string,
      userId: string,
    ): { id: string; assignedToUserId: string | null; actionRequiredUserId: string | null }[] {
      return peopleInProjectStmt.all({ project: projectId, user: userId }) as {
        id: string;
        assignedToUserId: string | null;
        actionRequiredUserId: string | null;
      }[];
    },

    /** Sets the task's assignee and action-required user (a member change hands them on). */
    setPeople(id: string, assignedToUserId: string | null, actionRequiredUserId: string | null): void {
      setPeopleStmt.run(assignedToUserId, actionRequiredUserId, id);
    },

    /** One window of a list plus the length of the whole list. */
    list(q: TaskListQuery): { rows: TaskRow[]; total: number } {
      const { sql, params } = where(q);
      const rows = allRows(
        stmt(`${sql.replace('{cols}', ROW_SELECT)} ORDER BY ${orderOf(q)} LIMIT @limit OFFSET @offset`),
        { ...params, limit: q.limit, offset: q.offset },
      );
      const total =
        q.offset === 0 && rows.length < q.limit
          ? rows.length
          : (stmt(sql.replace('{cols}', 'count(*) AS n')).get(params) as { n: number }).n;
      return { rows, total };
    },

    /**
     * The same window as `list`, each task as its id and name alone: for a reader that only
     * compares which tasks are in a list (a task's whole row is about 600 bytes, 500 of them 300 KB).
     */
    names(q: TaskListQuery): { id: string; name: string }[] {
      const { sql, params } = where(q);
      return stmt(
        `${sql.replace('{cols}', 'tasks.id AS id, tasks.name AS name')} ORDER BY ${orderOf(q)} LIMIT @limit OFFSET @offset`,
      ).all({ ...params, limit: q.limit, offset: q.offset }) as { id: string; name: string }[];
    },

    /**
     * The user's open tasks (assigned to them or waiting for their action) with a deadline up to
     * `through`, in three groups: deadline before `today` (late), on `today`, and after it. Each
     * group's first `perGroup` by deadline, and how many the group holds. One statement; the
     * assignee and action-required indexes pick the user's open tasks, so a workspace's other
     * tasks are never read. Deadlines are `YYYY-MM-DD` (the task schema holds them so), which
     * compare as days; the caller names the days on its own calendar. `unlistedAssigned` counts
     * the tasks beyond the first `perGroup` that are assigned to the user (the others only await
     * the user's action), so "N more" can lead to the list that holds them.
     */
    due(q: {
      userId: string;
      today: string;
      through: string;
      perGroup: number;
    }): Record<DueGroup, DueGroupRows> {
      const answer: Record<DueGroup, DueGroupRows> = {
        late: { rows: [], total: 0, unlistedAssigned: 0 },
        today: { rows: [], total: 0, unlistedAssigned: 0 },
        later: { rows: [], total: 0, unlistedAssigned: 0 },
      };
      const raw = stmt(DUE_SQL).raw(true).all(q) as unknown[][];
      const width = ROW_COLUMNS.length;
      for (const a of raw) {
        const group = answer[DUE_GROUPS[a[width] as number]!];
        group.total = a[width + 1] as number;
        // The group's assigned count, less each listed row assigned to the user.
        if (group.rows.length === 0) group.unlistedAssigned = a[width + 2] as number;
        group.unlistedAssigned -= a[width + 3] as number;
        group.rows.push(rowFromArray(a));
      }
      return answer;
    },

    /** How many tasks are cached in these projects (`idsInProjects` without reading the ids). */
    countInProjects(projectIds: readonly string[]): number {
      return stmt(`SELECT count(*) FROM tasks WHERE project_id IN (SELECT value FROM json_each(?))`)
        .pluck()
        .get(JSON.stringify(projectIds)) as number;
    },

    /** Ids of cached tasks in the given projects (removal candidates for a pull of them). */

    idsInProjects(projectIds: readonly string[]): string[] {
      return stmt(`SELECT id FROM tasks WHERE project_id IN (SELECT value FROM json_each(?))`)
        .pluck()
        .all(JSON.stringify(projectIds)) as string[];
    },

    fetchState(): Map<string, TaskFetchState> {
      const rows = stmt(
        `SELECT id, recent_activity_moment AS recentActivityMoment, messages_activity_moment AS messagesActivityMoment,
           detail_fetched_at AS detailFetchedAt FROM tasks`,
      ).all() as (TaskFetchState & { id: string })[];
      return new Map(rows.map((r) => [r.id, r]));
    },

    /**
     * The fetch state of the tasks whose activity moved since their messages were fetched (or
     * never were), chosen in SQLite (a pull with few changes gets few rows back), a page at a
     * time in id order: at most `limit` of them, those after `afterId` (all from the first with
     * ''). A first sync's 20,000 are read over several turns of the loop, not in one stretch.
     */
    staleFetchStates(afterId: string, limit: number): (TaskFetchState & { id: string })[] {
      return stmt(
        `SELECT id, recent_activity_moment AS recentActivityMoment, messages_activity_moment AS messagesActivityMoment,
           detail_fetched_at AS detailFetchedAt FROM tasks
         WHERE messages_activity_moment IS NOT recent_activity_moment AND id > ? ORDER BY id LIMIT ?`,
      ).all(afterId, limit) as (TaskFetchState & { id: string })[];
    },

    fetchStateOf(id: string): TaskFetchState | null {
      return (
        (stmt(
          `SELECT recent_activity_moment AS recentActivityMoment, messages_activity_moment AS messagesActivityMoment,
             detail_fetched_at AS detailFetchedAt FROM tasks WHERE id = ?`,
        ).get(id) as TaskFetchState | undefined) ?? null
      );
    },

    setDetail(id: string, crmAccountId: string | null, at: string): void {
      stmt('UPDATE tasks SET crm_account_id = ?, detail_fetched_at = ? WHERE id = ?').run(
        crmAccountId,
        at,
        id,
      );
    },

    /** The task's detail counts as never fetched: its next open fetches it (and its parts) again. */
    forgetDetailFetched(id: string): void {
      stmt('UPDATE tasks SET detail_fetched_at = NULL WHERE id = ?').run(id);
    },

    markMessagesFetched(id: string, activityMoment: string, at: string): void {
      stmt('UPDATE tasks SET messages_activity_moment = ?, messages_fetched_at = ? WHERE id = ?').run(
        activityMoment,
        at,
        id,
      );
    },

    /** The cached messages may be incomplete: the next pull fetches them again. */
    markMessagesStale(id: string): void {
      stmt('UPDATE tasks SET messages_activity_moment = NULL WHERE id = ?').run(id);
    },

    fetchedAt(id: string): { detailFetchedAt: string | null; messagesFetchedAt: string | null } | null {
      return (
        (stmt(
          'SELECT detail_fetched_at AS detailFetchedAt, messages_fetched_at AS messagesFetchedAt FROM tasks WHERE id = ?',
        ).get(id) as { detailFetchedAt: string | null; messagesFetchedAt: string | null } | undefined) ?? null
      );
    },

    idsLinkedToAccount(accountId: string): string[] {
      return stmt('SELECT id FROM tasks WHERE crm_account_id = ? ORDER BY moment_created')
        .pluck()
        .all(accountId) as string[];
    },

    /** Removes tasks with their messages, tag links and dependencies (the service drops a
     * task's dependencies with it; left here, the other end would still list them). */
    delete(ids: readonly string[]): number {
      deleteByIds(db, 'messages', 'task_id', ids);
      deleteByIds(db, 'task_tags', 'task_id', ids);
      deleteByIds(db, 'dependencies', 'predecessor_id', ids);
      deleteByIds(db, 'dependencies', 'successor_id', ids);
      return deleteByIds(db, 'tasks', 'id', ids);
    },

    counts(): Map<string, { taskCount: number; openTaskCount: number }> {
      const rows = stmt(
        `SELECT project_id AS projectId, count(*) AS taskCount, sum(moment_closed IS NULL) AS openTaskCount
         FROM tasks GROUP BY project_id`,
      ).all() as { projectId: string; taskCount: number; openTaskCount: number }[];
      return new Map(rows.map((r) => [r.projectId, r]));
    },
  };
}

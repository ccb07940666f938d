import type { Project, ProjectBase, ProjectSettings } from '../../shared/api/projects';
import { ACCESS_LEVELS, type ProjectUser } from '../../shared/api/members';
import type { Db } from './open';
import { descendantsSql, insertSql, updateSql } from './sql';

export interface ProjectRow {
  id: string;
  name: string;
  description: string;
  is_folder: number;
  is_workspace: number;
  is_public: number;
  parent_project_id: string | null;
  template_id: string | null;
  start_date: string | null;
  end_date: string | null;
  deadline: string | null;
  estimate: number | null;
  priority: number;
  progress: number | null;
  status_id: string | null;
  status_comments: string;
  system_status: number;
  color: number | null;
  health: number | null;
  owner_user_id: string | null;
  created_by_user_id: string | null;
  moment_created: string;
  custom_fields_data: string;
  settings: string;
}
type ProjectRowWithStatus = ProjectRow & { status_name: string | null };

const COLUMNS: ReadonlyArray<keyof ProjectRow> = [
  'id',
  'name',
  'description',
  'is_folder',
  'is_workspace',
  'is_public',
  'parent_project_id',
  'template_id',
  'start_date',
  'end_date',
  'deadline',
  'estimate',
  'priority',
  'progress',
  'status_id',
  'status_comments',
  'system_status',
  'color',
  'health',
  'owner_user_id',
  'created_by_user_id',
  'moment_created',
  'custom_fields_data',
  'settings',
];

export interface MemberRow {
  project_id: string;
  user_id: string;
  access: number;
  watch_all: number;
  inherited_from: string | null;
}

export interface HistoryRow {
  id: string;
  project_id: string;
  event_type: string;
  moment_created: string;
  user_id: string;
  new_value: string | null;
  old_value: string | null;
}

function toBase(r: ProjectRowWithStatus): ProjectBase {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    startDate: r.start_date,
    endDate: r.end_date,
    estimate: r.estimate,
    moment_created: r.moment_created,
    parentProjectId: r.parent_project_id,
    priority: r.priority,
    progress: r.progress,
    status: r.status_name ?? 'In Progress',
    statusComments: r.status_comments,
    systemStatus: r.system_status,
    isFolder: r.is_folder === 1,
    // Both profiles: recent clients of the live service read a folder from this.
    systemType: r.is_folder === 1 ? 'FOLDER' : 'PROJECT',
    color: r.color,
    health: r.health,
    ownerUserId: r.owner_user_id,
    deadline: r.deadline,
    statusId: r.status_id,
  };
}

export function projectStore(db: Db) {
  const select =
    'SELECT p.*, s.name AS status_name FROM projects p LEFT JOIN statuses s ON s.id = p.status_id';
  const byId = db.prepare<[string], ProjectRowWithStatus>(`${select} WHERE p.id = ?`);
  const list = db.prepare<{ archived: number; rootOnly: number }, ProjectRowWithStatus>(
    `${select} WHERE (CASE WHEN @archived = 1 THEN p.system_status <> 2 ELSE p.system_status = 2 END)
       AND (@rootOnly = 0 OR p.parent_project_id IS NULL) ORDER BY p.rowid`,
  );
  const insert = db.prepare(insertSql('projects', COLUMNS));
  const update = db.prepare(updateSql('projects', COLUMNS));
  const descendants = db.prepare<[string], string>(descendantsSql('projects', 'parent_project_id')).pluck();
  const ancestors = db.prepare<[string], ProjectRow>(
    `WITH RECURSIVE a(id, depth) AS (SELECT parent_project_id, 1 FROM projects WHERE id = ? UNION ALL SELECT p.parent_project_id, a.depth + 1 FROM projects p JOIN a ON p.id = a.id WHERE a.depth < 1000)
       SELECT p.* FROM a JOIN projects p ON p.id = a.id ORDER BY a.depth`,
  );
  const member = db.prepare<[string, string], MemberRow>(
    'SELECT * FROM project_members WHERE project_id = ? AND user_id = ?',
  );
  const members = db.prepare<[string], ProjectUser & { inherited_from: string | null; accessCode: number }>(
    `SELECT u.id, u.name, u.primary_email AS primaryEmail, m.access AS accessCode, m.watch_all AS watchAll, m.inherited_from
       FROM project_members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ? ORDER BY u.sort, u.id`,
  );
  const upsertMember = db.prepare<MemberRow>(
    `INSERT INTO project_members (project_id, user_id, access, watch_all, inherited_from)
     VALUES (@project_id, @user_id, @access, @watch_all, @inherited_from)
     ON CONFLICT(project_id, user_id) DO UPDATE SET access = excluded.access, inherited_from = excluded.inherited_from`,
  );
  const removeMember = db.prepare<[string, string]>(
    'DELETE FROM project_members WHERE project_id = ? AND user_id = ?',
  );
  const reassignSubprojects = db.prepare<{ parent: string; from: string; to: string | null }>(
    'UPDATE projects SET owner_user_id = @to WHERE parent_project_id = @parent AND owner_user_id = @from',
  );
  const insertHistory = db.prepare<HistoryRow>(
    `INSERT INTO project_history (id, project_id, event_type, moment_created, user_id, new_value, old_value)
     VALUES (@id, @project_id, @event_type, @moment_created, @user_id, @new_value, @old_value)`,
  );
  const history = db.prepare<[string], HistoryRow>(
    'SELECT * FROM project_history WHERE project_id = ? ORDER BY seq',
  );

  return {
    row: (id: string) => byId.get(id),
    base: (r: ProjectRowWithStatus) => toBase(r),
    withCustomFields: (r: ProjectRowWithStatus): Project => ({
      ...toBase(r),
      customFieldsData: JSON.parse(r.custom_fields_data) as Record<string, unknown>,
    }),
    settings: (r: ProjectRow) => JSON.parse(r.settings) as ProjectSettings,
    list: (archived: boolean, rootOnly: boolean) =>
      list.all({ archived: archived ? 1 : 0, rootOnly: rootOnly ? 1 : 0 }),
    insert: (row: ProjectRow) => insert.run(row),
    update: (row: ProjectRow) => update.run(row),
    descendants: (id: string) => descendants.all(id),
    /** Parent first, root last. */
    ancestors: (id: string) => ancestors.all(id),
    member: (projectId: string, userId: string) => member.get(projectId, userId),
    members: (projectId: string): ProjectUser[] =>
      members.all(projectId).map((m) => ({
        id: m.id,
        name: m.name,
        primaryEmail: m.primaryEmail,
        access: ACCESS_LEVELS[String(m.accessCode) as keyof typeof ACCESS_LEVELS] ?? String(m.accessCode),
        watchAll: Boolean(m.watchAll),
      })),
    memberRows: (projectId: string) => members.all(projectId),
    setMember: (row: MemberRow) => upsertMember.run(row),
    removeMember: (projectId: string, userId: string) => removeMember.run(projectId, userId),
    reassignSubprojects: (parent: string, from: string, to: string | null) =>
      reassignSubprojects.run({ parent, from, to }),
    addHistory: (row: HistoryRow) => insertHistory.run(row),
    history: (projectId: string) => history.all(projectId),
  };
}
export type ProjectStore = ReturnType<typeof projectStore>;

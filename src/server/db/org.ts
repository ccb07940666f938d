import type { CustomFieldDefinition } from '../../shared/api/custom-fields';
import type { Status, Tag, TaskType, User } from '../../shared/api/org';
import type { ProjectSettings } from '../../shared/api/projects';
import type { Db } from './open';

export interface StatusRow {
  id: string;
  name: string;
  system_status: number;
  is_closed: number;
}

export interface TemplateRow {
  id: string;
  name: string;
  settings: string;
}

/** Organization set-up: written only by seeds, read by every route. */
export function orgStore(db: Db) {
  const userById = db.prepare<[string], User>(
    'SELECT id, name, primary_email AS primaryEmail FROM users WHERE id = ?',
  );
  const users = db.prepare<[], User>(
    'SELECT id, name, primary_email AS primaryEmail FROM users ORDER BY sort, id',
  );
  const statusById = db.prepare<[string], StatusRow>('SELECT * FROM statuses WHERE id = ?');
  const statuses = db.prepare<[], StatusRow>('SELECT * FROM statuses ORDER BY sort, id');
  const statusByName = db.prepare<[string], StatusRow>(
    'SELECT * FROM statuses WHERE name = ? ORDER BY sort LIMIT 1',
  );
  const firstOpenStatus = db.prepare<[], StatusRow>(
    'SELECT * FROM statuses WHERE is_closed = 0 ORDER BY sort, id LIMIT 1',
  );
  const taskTypeById = db.prepare<[string], TaskType>('SELECT id, name FROM task_types WHERE id = ?');
  const taskTypes = db.prepare<[], TaskType>('SELECT id, name FROM task_types ORDER BY sort, id');
  const firstTaskType = db.prepare<[], TaskType>('SELECT id, name FROM task_types ORDER BY sort, id LIMIT 1');
  const tagById = db.prepare<[string], Tag>('SELECT id, name, color FROM tags WHERE id = ?');
  const tags = db.prepare<[], Tag>('SELECT id, name, color FROM tags ORDER BY name, id');
  const templateById = db.prepare<[string], TemplateRow>('SELECT * FROM project_templates WHERE id = ?');
  const templates = db.prepare<[], TemplateRow>('SELECT * FROM project_templates ORDER BY name, id');
  interface FieldRow {
    id: string;
    name: string;
    type: number;
    access: number;
    params: string;
    sortPosition: number;
  }
  const fieldSql = 'SELECT id, name, type, access, params, sort_position AS sortPosition FROM custom_fields';
  const fieldById = db.prepare<[string], FieldRow>(`${fieldSql} WHERE id = ?`);
  const fields = db.prepare<[], FieldRow>(`${fieldSql} ORDER BY sort_position, id`);
  const contactTypeById = db.prepare<[string], { id: string }>(
    'SELECT id FROM crm_contact_types WHERE id = ?',
  );
  const meta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );

  const toField = (r: FieldRow): CustomFieldDefinition => ({
    ...r,
    params: JSON.parse(r.params) as Record<string, unknown>,
  });
  const toStatus = (r: StatusRow): Status => ({
    id: r.id,
    name: r.name,
    systemStatus: r.system_status,
    isClosed: r.is_closed === 1,
  });

  return {
    user: (id: string) => userById.get(id),
    isUser: (id: string) => userById.get(id) !== undefined,
    users: () => users.all(),
    status: (id: string) => statusById.get(id),
    statusByName: (name: string) => statusByName.get(name),
    defaultTaskStatus: () => firstOpenStatus.get(),
    statuses: () => statuses.all().map(toStatus),
    taskType: (id: string) => taskTypeById.get(id),
    defaultTaskType: () => firstTaskType.get(),
    taskTypes: () => taskTypes.all(),
    tag: (id: string) => tagById.get(id),
    tags: () => tags.all(),
    template: (id: string) => templateById.get(id),
    templates: () => templates.all().map((t) => ({ id: t.id, name: t.name })),
    templateSettings: (t: TemplateRow) => JSON.parse(t.settings) as ProjectSettings,
    field: (id: string) => {
      const row = fieldById.get(id);
      return row && toField(row);
    },
    fields: () => fields.all().map(toField),
    isContactType: (id: string) => contactTypeById.get(id) !== undefined,
    meta: (key: string) => meta.get(key)?.value,
    setMeta: (key: string, value: string) => setMeta.run(key, value),
  };
}
export type OrgStore = ReturnType<typeof orgStore>;

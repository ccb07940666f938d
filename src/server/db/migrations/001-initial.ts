import type { Database } from 'better-sqlite3';

/**
 * The whole organization in one file: organization set-up (users, statuses, task types, tags,
 * templates, custom fields, contact types), the project tree with members and history, tasks
 * with messages, tags and CRM links, documents, events, dependencies, CRM records and uploads.
 * JSON columns hold values the service answers verbatim (custom-field maps, task users).
 */
export function up(db: Database): void {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      primary_email TEXT NOT NULL,
      sort INTEGER NOT NULL DEFAULT 0
    ) STRICT;

    CREATE TABLE statuses (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      system_status INTEGER NOT NULL,
      is_closed INTEGER NOT NULL CHECK (is_closed IN (0, 1)),
      sort INTEGER NOT NULL DEFAULT 0
    ) STRICT;

    CREATE TABLE task_types (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      system_type INTEGER NOT NULL,
      sort INTEGER NOT NULL DEFAULT 0
    ) STRICT;

    CREATE TABLE tags (id TEXT PRIMARY KEY, name TEXT NOT NULL, color INTEGER) STRICT;

    CREATE TABLE project_templates (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      settings TEXT NOT NULL
    ) STRICT;

    CREATE TABLE custom_fields (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      type INTEGER NOT NULL,
      access INTEGER NOT NULL,
      params TEXT NOT NULL,
      sort_position INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE crm_contact_types (id TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT;

    CREATE TABLE projects (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      is_folder INTEGER NOT NULL CHECK (is_folder IN (0, 1)),
      is_workspace INTEGER NOT NULL DEFAULT 0,
      is_public INTEGER NOT NULL DEFAULT 0,
      parent_project_id TEXT REFERENCES projects(id),
      template_id TEXT,
      start_date TEXT,
      end_date TEXT,
      deadline TEXT,
      estimate INTEGER,
      priority INTEGER NOT NULL DEFAULT 1,
      progress INTEGER,
      status_id TEXT REFERENCES statuses(id),
      status_comments TEXT NOT NULL DEFAULT '',
      system_status INTEGER NOT NULL DEFAULT 2,
      color INTEGER,
      health INTEGER,
      owner_user_id TEXT REFERENCES users(id),
      created_by_user_id TEXT REFERENCES users(id),
      moment_created TEXT NOT NULL,
      custom_fields_data TEXT NOT NULL DEFAULT '{}',
      settings TEXT NOT NULL
    ) STRICT;
    CREATE INDEX projects_parent ON projects(parent_project_id);

    CREATE TABLE project_members (
      project_id TEXT NOT NULL REFERENCES projects(id),
      user_id TEXT NOT NULL REFERENCES users(id),
      access INTEGER NOT NULL,
      watch_all INTEGER NOT NULL DEFAULT 0,
      -- NULL for a direct membership; 'parent', 'team' or 'company' when inherited
      inherited_from TEXT,
      PRIMARY KEY (project_id, user_id)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX project_members_user ON project_members(user_id);

    CREATE TABLE project_history (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      project_id TEXT NOT NULL REFERENCES projects(id),
      event_type TEXT NOT NULL,
      moment_created TEXT NOT NULL,
      user_id TEXT NOT NULL,
      new_value TEXT,
      old_value TEXT
    ) STRICT;
    CREATE INDEX project_history_project ON project_history(project_id, seq);

    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      short_id TEXT NOT NULL,
      project_id TEXT NOT NULL REFERENCES projects(id),
      parent_task_id TEXT REFERENCES tasks(id),
      name TEXT NOT NULL,
      created_by_user_id TEXT,
      assigned_to_user_id TEXT,
      action_required_user_id TEXT,
      status_id TEXT NOT NULL REFERENCES statuses(id),
      task_type_id TEXT NOT NULL REFERENCES task_types(id),
      priority INTEGER NOT NULL DEFAULT 1,
      start_date TEXT,
      end_date TEXT,
      deadline TEXT,
      schedule_date TEXT,
      schedule_status INTEGER NOT NULL DEFAULT 0,
      estimate INTEGER,
      progress INTEGER,
      story_points INTEGER,
      todo_list TEXT,
      crm_account_id TEXT,
      custom_fields_data TEXT NOT NULL DEFAULT '{}',
      form_submission TEXT,
      users TEXT NOT NULL DEFAULT '[]',
      moment_created TEXT NOT NULL,
      moment_closed TEXT,
      recent_activity_moment TEXT NOT NULL
    ) STRICT;
    CREATE INDEX tasks_project ON tasks(project_id);
    CREATE INDEX tasks_parent ON tasks(parent_task_id);
    CREATE INDEX tasks_assigned ON tasks(assigned_to_user_id);
    CREATE INDEX tasks_action_required ON tasks(action_required_user_id);

    CREATE TABLE task_tags (
      task_id TEXT NOT NULL REFERENCES tasks(id),
      tag_id TEXT NOT NULL REFERENCES tags(id),
      PRIMARY KEY (task_id, tag_id)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX task_tags_tag ON task_tags(tag_id);

    CREATE TABLE task_crm_contacts (
      task_id TEXT NOT NULL REFERENCES tasks(id),
      contact_id TEXT NOT NULL,
      PRIMARY KEY (task_id, contact_id)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX task_crm_contacts_contact ON task_crm_contacts(contact_id);

    CREATE TABLE messages (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      task_id TEXT NOT NULL REFERENCES tasks(id),
      date_created TEXT NOT NULL,
      communication_flow INTEGER NOT NULL,
      from_user_id TEXT NOT NULL,
      to_user_id TEXT,
      message TEXT NOT NULL,
      edit_by_user_id TEXT,
      edit_date TEXT,
      task_status_id TEXT NOT NULL,
      task_system_status_new INTEGER,
      attachments TEXT
    ) STRICT;
    CREATE INDEX messages_task ON messages(task_id, seq);

    CREATE TABLE documents (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL REFERENCES projects(id),
      name TEXT NOT NULL,
      created_by_user_id TEXT NOT NULL,
      moment_created TEXT NOT NULL,
      moment_updated TEXT NOT NULL,
      content TEXT NOT NULL
    ) STRICT;
    CREATE INDEX documents_project ON documents(project_id);

    CREATE TABLE events (
      id TEXT PRIMARY KEY,
      event_type TEXT NOT NULL,
      name TEXT NOT NULL,
      notes TEXT,
      start_date TEXT NOT NULL,
      end_date TEXT,
      user_id TEXT,
      project_id TEXT,
      assigned_to_user_id TEXT,
      created_by_user_id TEXT NOT NULL,
      moment_created TEXT NOT NULL
    ) STRICT;
    CREATE INDEX events_start ON events(start_date);
    CREATE INDEX events_project ON events(project_id);

    CREATE TABLE dependencies (
      id TEXT PRIMARY KEY,
      type INTEGER NOT NULL,
      predecessor_kind TEXT NOT NULL,
      predecessor_id TEXT NOT NULL,
      successor_kind TEXT NOT NULL,
      successor_id TEXT NOT NULL,
      created_by_user_id TEXT NOT NULL,
      moment_created TEXT NOT NULL
    ) STRICT;
    CREATE INDEX dependencies_predecessor ON dependencies(predecessor_kind, predecessor_id);
    CREATE INDEX dependencies_successor ON dependencies(successor_kind, successor_id);

    CREATE TABLE crm_accounts (
      id TEXT PRIMARY KEY,
      company_id TEXT NOT NULL,
      name TEXT NOT NULL,
      email TEXT NOT NULL DEFAULT '',
      phone TEXT NOT NULL DEFAULT '',
      website TEXT NOT NULL DEFAULT '',
      notes TEXT,
      owner_user_id TEXT,
      custom_fields_data TEXT NOT NULL DEFAULT '{}',
      is_deleted INTEGER NOT NULL DEFAULT 0,
      created_by_user_id TEXT NOT NULL,
      moment_created TEXT NOT NULL
    ) STRICT;

    CREATE TABLE crm_contacts (
      id TEXT PRIMARY KEY,
      company_id TEXT NOT NULL,
      contact_type TEXT,
      crm_account_id TEXT,
      owner_user_id TEXT,
      first_name TEXT NOT NULL,
      last_name TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '',
      phone TEXT NOT NULL DEFAULT '',
      notes TEXT,
      custom_fields_data TEXT NOT NULL DEFAULT '{}',
      user_id TEXT,
      is_deleted INTEGER NOT NULL DEFAULT 0,
      created_by_user_id TEXT NOT NULL,
      moment_created TEXT NOT NULL
    ) STRICT;
    CREATE INDEX crm_contacts_account ON crm_contacts(crm_account_id);

    CREATE TABLE uploads (
      file_id TEXT PRIMARY KEY,
      token TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      mime TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      uploaded_at TEXT,
      size INTEGER
    ) STRICT;
  `);
}

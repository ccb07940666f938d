import type { Migration } from './types';

/**
 * The cached resources. Columns follow the spec's fields (snake_case); JSON-valued fields are
 * TEXT holding JSON. `*_fetched_at` columns record the on-demand parts already fetched.
 */
export const migration001: Migration = {
  version: 1,
  name: 'resources',
  up(db) {
    db.exec(`
      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        parent_project_id TEXT,
        start_date TEXT,
        end_date TEXT,
        estimate INTEGER,
        moment_created TEXT NOT NULL,
        priority INTEGER NOT NULL,
        progress INTEGER,
        status TEXT NOT NULL,
        status_comments TEXT NOT NULL DEFAULT '',
        system_status INTEGER NOT NULL,
        custom_fields TEXT NOT NULL DEFAULT '{}',
        is_folder INTEGER,
        color INTEGER,
        health INTEGER,
        owner_user_id TEXT,
        deadline TEXT,
        status_id TEXT,
        settings TEXT,
        detail_fetched_at TEXT
      ) STRICT;
      CREATE INDEX projects_parent ON projects(parent_project_id);

      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        short_id TEXT NOT NULL,
        name TEXT NOT NULL,
        project_id TEXT NOT NULL,
        parent_task_id TEXT,
        status_id TEXT NOT NULL,
        status_name TEXT NOT NULL,
        system_status INTEGER NOT NULL,
        system_type INTEGER NOT NULL,
        schedule_status INTEGER NOT NULL,
        task_type_id TEXT NOT NULL,
        task_type_name TEXT NOT NULL,
        priority INTEGER NOT NULL,
        assigned_to_user_id TEXT,
        action_required_user_id TEXT,
        created_by_user_id TEXT,
        deadline TEXT,
        start_date TEXT,
        end_date TEXT,
        schedule_date TEXT,
        estimate INTEGER,
        progress INTEGER,
        moment_created TEXT NOT NULL,
        moment_closed TEXT,
        recent_activity_moment TEXT NOT NULL,
        users TEXT NOT NULL DEFAULT '[]',
        custom_fields TEXT NOT NULL DEFAULT '{}',
        form_submission TEXT,
        story_points INTEGER,
        reported_time TEXT,
        crm_account_id TEXT,
        detail_fetched_at TEXT,
        messages_fetched_at TEXT,
        -- recentActivityMoment of the task when its messages were last fetched
        messages_activity_moment TEXT
      ) STRICT;
      -- list scopes: the open/closed filter and the default newest-first order come from the
      -- index (rowid is its implicit last column, the tie-break), so a first window and its
      -- count read no more than they return
      CREATE INDEX tasks_project_list ON tasks(project_id, moment_closed, moment_created);
      CREATE INDEX tasks_parent ON tasks(parent_task_id);
      CREATE INDEX tasks_assigned ON tasks(assigned_to_user_id, moment_closed, moment_created);
      CREATE INDEX tasks_action_required ON tasks(action_required_user_id, moment_closed, moment_created);
      CREATE INDEX tasks_crm_account ON tasks(crm_account_id) WHERE crm_account_id IS NOT NULL;

      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL,
        date_created TEXT NOT NULL,
        communication_flow INTEGER NOT NULL,
        from_user_id TEXT NOT NULL,
        to_user_id TEXT,
        message TEXT NOT NULL,
        message_rtf TEXT,
        edit_by_user_id TEXT,
        edit_date TEXT,
        task_status_id TEXT,
        task_system_status_new INTEGER,
        time_report_id TEXT,
        attachments TEXT
      ) STRICT;
      CREATE INDEX messages_task ON messages(task_id, date_created);

      CREATE TABLE project_users (
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        primary_email TEXT NOT NULL,
        access TEXT NOT NULL,
        watch_all INTEGER NOT NULL,
        PRIMARY KEY (project_id, user_id)
      ) STRICT;

      CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        name TEXT NOT NULL,
        created_by_user_id TEXT NOT NULL,
        moment_created TEXT NOT NULL,
        moment_updated TEXT NOT NULL,
        content TEXT,
        -- momentUpdated of the document when its content was fetched
        content_moment TEXT
      ) STRICT;
      CREATE INDEX documents_project ON documents(project_id);

      CREATE TABLE project_history (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        event_type TEXT NOT NULL,
        moment_created TEXT NOT NULL,
        user_id TEXT NOT NULL,
        params TEXT NOT NULL
      ) STRICT;
      CREATE INDEX project_history_project ON project_history(project_id, moment_created);

      CREATE TABLE calendar_events (
        id TEXT PRIMARY KEY,
        event_type TEXT NOT NULL,
        name TEXT NOT NULL,
        notes TEXT,
        start_date TEXT NOT NULL,
        end_date TEXT,
        user_id TEXT,
        project_id TEXT,
        assigned_to_user_id TEXT,
        moment_created TEXT NOT NULL
      ) STRICT;
      CREATE INDEX calendar_events_start ON calendar_events(start_date);

      CREATE TABLE dependencies (
        id TEXT PRIMARY KEY,
        type INTEGER NOT NULL,
        predecessor_kind TEXT NOT NULL CHECK (predecessor_kind IN ('task', 'event', 'project')),
        predecessor_id TEXT NOT NULL,
        successor_kind TEXT NOT NULL CHECK (successor_kind IN ('task', 'event', 'project')),
        successor_id TEXT NOT NULL
      ) STRICT;
      CREATE INDEX dependencies_predecessor ON dependencies(predecessor_id);
      CREATE INDEX dependencies_successor ON dependencies(successor_id);

      CREATE TABLE crm_contacts (
        id TEXT PRIMARY KEY,
        company_id TEXT NOT NULL,
        contact_type TEXT,
        crm_account_id TEXT,
        contact_owner_user_id TEXT,
        first_name TEXT NOT NULL,
        last_name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT NOT NULL,
        notes TEXT,
        custom_fields TEXT NOT NULL DEFAULT '{}',
        user_id TEXT,
        is_deleted INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX crm_contacts_account ON crm_contacts(crm_account_id);

      CREATE TABLE crm_accounts (
        id TEXT PRIMARY KEY,
        company_id TEXT,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT NOT NULL,
        website TEXT NOT NULL,
        notes TEXT,
        account_owner_user_id TEXT,
        contact_ids TEXT NOT NULL DEFAULT '[]',
        custom_fields TEXT NOT NULL DEFAULT '{}',
        is_deleted INTEGER NOT NULL
      ) STRICT;

      -- tasks a contact is linked to, as the single-contact response lists them
      CREATE TABLE crm_contact_tasks (
        contact_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        short_id TEXT NOT NULL,
        title TEXT NOT NULL,
        task_status_id TEXT NOT NULL,
        task_type_id TEXT NOT NULL,
        PRIMARY KEY (contact_id, task_id)
      ) STRICT;
      CREATE INDEX crm_contact_tasks_task ON crm_contact_tasks(task_id);

      CREATE TABLE custom_fields (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        type INTEGER NOT NULL,
        access INTEGER NOT NULL,
        params TEXT NOT NULL DEFAULT '{}',
        sort_position INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        primary_email TEXT NOT NULL
      ) STRICT;

      CREATE TABLE statuses (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        system_status INTEGER NOT NULL,
        is_closed INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE task_types (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL
      ) STRICT;

      CREATE TABLE tags (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        color INTEGER
      ) STRICT;

      CREATE TABLE task_tags (
        tag_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        PRIMARY KEY (tag_id, task_id)
      ) STRICT;
      CREATE INDEX task_tags_task ON task_tags(task_id);

      -- sync bookkeeping: when a list or an on-demand part was last fetched
      CREATE TABLE sync_state (
        key TEXT PRIMARY KEY,
        fetched_at TEXT NOT NULL,
        value TEXT
      ) STRICT;
    `);
  },
};

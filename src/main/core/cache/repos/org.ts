import type { CustomFieldDefinition } from '../../../../shared/api/custom-fields';
import type { ProjectTemplate, Status, Tag, TaskType, User } from '../../../../shared/api/org';
import type { CacheDb } from '../db';
import { tableCodec, type FieldMap } from '../codec';
import { replaceScope, statementCache } from './statements';

/**
 * One organization-wide list (users, statuses, ...), replaced wholesale by each pull, except the
 * rows `keep` protects (those of list elements that could not be read).
 */
function orgList<T extends { id: string }>(db: CacheDb, table: string, fields: FieldMap<T>, order: string) {
  const codec = tableCodec<T>(db, table, ['id'], fields);
  const all = db.prepare(`SELECT ${codec.select} FROM ${table} ORDER BY ${order}, id`);
  return {
    codec,
    replace(list: readonly T[], keep?: (id: string) => boolean): string[] {
      return replaceScope(db, codec, 'id', '1', [], list, keep);
    },
    all(): T[] {
      return (all.all() as Record<string, unknown>[]).map((r) => codec.decode(r));
    },
  };
}

export type OrgRepo = ReturnType<typeof createOrgRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.org` (see `ResourceRepos`). */
  interface ResourceRepos {
    org: OrgRepo;
  }
}

export function createOrgRepo(db: CacheDb) {
  const stmt = statementCache(db);
  const tags = orgList<Tag>(
    db,
    'tags',
    { id: ['id', 'value'], name: ['name', 'value'], color: ['color', 'value'] },
    'name COLLATE NOCASE',
  );
  const seeTagStmt = db.prepare(
    `INSERT INTO tags (id, name, color) VALUES (?, '', NULL) ON CONFLICT (id) DO NOTHING`,
  );
  const addTaskTagStmt = db.prepare('INSERT OR IGNORE INTO task_tags (tag_id, task_id) VALUES (?, ?)');
  const removeTaskTagStmt = db.prepare('DELETE FROM task_tags WHERE tag_id = ? AND task_id = ?');
  const hasTaskTagStmt = db.prepare('SELECT 1 FROM task_tags WHERE tag_id = ? AND task_id = ?').pluck();
  return {
    users: orgList<User>(
      db,
      'users',
      { id: ['id', 'value'], name: ['name', 'value'], primaryEmail: ['primary_email', 'value'] },
      'name COLLATE NOCASE',
    ),
    statuses: orgList<Status>(
      db,
      'statuses',
      {
        id: ['id', 'value'],
        name: ['name', 'value'],
        systemStatus: ['system_status', 'value'],
        isClosed: ['is_closed', 'bool'],
      },
      'system_status, name COLLATE NOCASE',
    ),
    taskTypes: orgList<TaskType>(
      db,
      'task_types',
      { id: ['id', 'value'], name: ['name', 'value'] },
      'name COLLATE NOCASE',
    ),
    customFields: orgList<CustomFieldDefinition>(
      db,
      'custom_fields',
      {
        id: ['id', 'value'],
        name: ['name', 'value'],
        type: ['type', 'value'],
        access: ['access', 'value'],
        params: ['params', 'json'],
        sortPosition: ['sort_position', 'value'],
      },
      'sort_position',
    ),
    // A tag seen on a task of a service with no tag list has no name: it is shown by its id.
    tags: { ...tags, all: (): Tag[] => tags.all().map((t) => (t.name ? t : { ...t, name: t.id })) },
    projectTemplates: orgList<ProjectTemplate>(
      db,
      'project_templates',
      { id: ['id', 'value'], name: ['name', 'value'] },
      'name COLLATE NOCASE',
    ),
    /** Records a tag id seen on a task when the tag list is not offered; a known name is kept. */
    seeTag(id: string): void {
      seeTagStmt.run(id);
    },
    /** Makes the task's tags exactly `tagIds`. */
    setTaskTags(taskId: string, tagIds: readonly string[]): void {
      stmt('DELETE FROM task_tags WHERE task_id = ?').run(taskId);
      for (const id of tagIds) {
        seeTagStmt.run(id);
        addTaskTagStmt.run(id, taskId);
      }
    },
    /** Makes the tag's tasks exactly `taskIds` (from GET /tag/{id}/tasks). */
    setTagTasks(tagId: string, taskIds: readonly string[]): void {
      seeTagStmt.run(tagId);
      stmt('DELETE FROM task_tags WHERE tag_id = ?').run(tagId);
      for (const id of taskIds) addTaskTagStmt.run(tagId, id);
    },
    /** Whether the task carries the tag. */
    taskHasTag(taskId: string, tagId: string): boolean {
      return hasTaskTagStmt.get(tagId, taskId) !== undefined;
    },
    /** Links the tag to the task (kept when it is linked already); the tag itself is not recorded. */
    addTaskTag(taskId: string, tagId: string): void {
      addTaskTagStmt.run(tagId, taskId);
    },
    removeTaskTag(taskId: string, tagId: string): void {
      removeTaskTagStmt.run(tagId, taskId);
    },
    taskIdsOfTag(tagId: string): string[] {
      return stmt('SELECT task_id FROM task_tags WHERE tag_id = ?').pluck().all(tagId) as string[];
    },
    tagsOfTask(taskId: string): Tag[] {
      return stmt(
        `SELECT t.id, coalesce(nullif(t.name, ''), t.id) AS name, t.color FROM task_tags tt JOIN tags t ON t.id = tt.tag_id WHERE tt.task_id = ? ORDER BY t.name COLLATE NOCASE, t.id`,
      ).all(taskId) as Tag[];
    },
  };
}

import type { Project, ProjectSettings } from '../../../../shared/api/projects';
import type { ProjectNode, ProjectView } from '../../../../shared/ipc/projects';
import type { CacheDb } from '../db';
import { tableCodec } from '../codec';
import { deleteByIds, statementCache } from './statements';

export const ARCHIVED_SYSTEM_STATUS = 5;

/** A project as stored: the list shape; `settings` only from the single-project response. */
type ProjectRecord = Omit<Project, 'settings'>;

export type ProjectsRepo = ReturnType<typeof createProjectsRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.projects` (see `ResourceRepos`). */
  interface ResourceRepos {
    projects: ProjectsRepo;
  }
}

export function createProjectsRepo(db: CacheDb) {
  const codec = tableCodec<ProjectRecord>(db, 'projects', ['id'], {
    id: ['id', 'value'],
    name: ['name', 'value'],
    description: ['description', 'value'],
    startDate: ['start_date', 'value'],
    endDate: ['end_date', 'value'],
    estimate: ['estimate', 'value'],
    moment_created: ['moment_created', 'value'],
    parentProjectId: ['parent_project_id', 'value'],
    priority: ['priority', 'value'],
    progress: ['progress', 'value'],
    status: ['status', 'value'],
    statusComments: ['status_comments', 'value'],
    systemStatus: ['system_status', 'value'],
    customFieldsData: ['custom_fields', 'json'],
    isFolder: ['is_folder', 'bool'],
    color: ['color', 'value'],
    health: ['health', 'value'],
    ownerUserId: ['owner_user_id', 'value'],
    deadline: ['deadline', 'value'],
    statusId: ['status_id', 'value'],
  });
  const stmt = statementCache(db);
  const getStmt = db.prepare(`SELECT ${codec.select}, settings FROM projects WHERE id = ?`);
  const ownedChildrenStmt = db
    .prepare('SELECT id FROM projects WHERE parent_project_id = ? AND owner_user_id = ?')
    .pluck();
  const setOwnerStmt = db.prepare('UPDATE projects SET owner_user_id = ? WHERE id = ?');

  return {
    codec,

    upsertMany(projects: readonly ProjectRecord[]): void {
      for (const p of projects) codec.upsert({ ...p, parentProjectId: p.parentProjectId || null });
    },

    setSettings(id: string, settings: ProjectSettings | null, at: string): void {
      stmt('UPDATE projects SET settings = ?, detail_fetched_at = ? WHERE id = ?').run(
        JSON.stringify(settings),
        at,
        id,
      );
    },

    get(id: string): ProjectView | null {
      const row = getStmt.get(id) as Record<string, unknown> | undefined;
      if (!row) return null;
      const settings = row.settings === null ? null : (JSON.parse(row.settings as string) as ProjectSettings);
      delete row.settings;
      const view = codec.decode(row) as unknown as Record<string, unknown>;
      return { ...view, settings } as ProjectView;
    },

    detailFetchedAt(id: string): string | null {
      return (
        (stmt('SELECT detail_fetched_at FROM projects WHERE id = ?').pluck().get(id) as string | null) ?? null
      );
    },

    all(): ProjectView[] {
      const rows = stmt(
        `SELECT ${codec.select}, settings FROM projects ORDER BY name COLLATE NOCASE, id`,
      ).all() as Record<string, unknown>[];
      return rows.map((row) => {
        const settings =
          row.settings === null ? null : (JSON.parse(row.settings as string) as ProjectSettings);
        delete row.settings;
        const view = codec.decode(row) as unknown as Record<string, unknown>;
        return { ...view, settings } as ProjectView;
      });
    },

    ids(): string[] {
      return stmt('SELECT id FROM projects').pluck().all() as string[];
    },

    /** Each project's id and parent: the tree's shape, nothing else read. */
    links(): { id: string; parentProjectId: string | null }[] {
      return stmt('SELECT id, parent_project_id AS parentProjectId FROM projects').all() as {
        id: string;
        parentProjectId: string | null;
      }[];
    },

    /** Ids of the projects and folders right below this one that the user owns. */
    childIdsOwnedBy(parentId: string, userId: string): string[] {
      return ownedChildrenStmt.all(parentId, userId) as string[];
    },

    setOwner(id: string, userId: string | null): void {
      setOwnerStmt.run(userId, id);
    },

    /** The project and every project or folder below it. */
    subtreeIds(id: string): string[] {
      return stmt(
        `WITH RECURSIVE sub(id) AS (SELECT ? UNION ALL SELECT p.id FROM projects p JOIN sub ON p.parent_project_id = sub.id)
         SELECT id FROM sub`,
      )
        .pluck()
        .all(id) as string[];
    },

    /** Ancestors from the root down to the parent. */
    path(id: string): { id: string; name: string }[] {
      const rows = stmt(
        `WITH RECURSIVE up(id, parent, name, depth) AS (
           SELECT id, parent_project_id, name, 0 FROM projects WHERE id = ?
           UNION ALL SELECT p.id, p.parent_project_id, p.name, up.depth + 1 FROM projects p JOIN up ON p.id = up.parent)
         SELECT id, name FROM up WHERE depth > 0 ORDER BY depth DESC`,
      ).all(id) as { id: string; name: string }[];
      return rows;
    },

    /**
     * The tree in depth-first order, children by name. A project whose parent is not cached
     * (e.g. not visible to this user) is shown as a root.
     */
    tree(
      includeArchived: boolean,
      counts: Map<string, { taskCount: number; openTaskCount: number }>,
    ): ProjectNode[] {
      const rows = stmt(
        `SELECT id, name, parent_project_id AS parentProjectId, coalesce(is_folder, 0) AS isFolder, status,
           system_status AS systemStatus, priority, progress, color FROM projects ORDER BY name COLLATE NOCASE, id`,
      ).all() as (Omit<ProjectNode, 'depth' | 'archived' | 'taskCount' | 'openTaskCount' | 'isFolder'> & {
        isFolder: number;
      })[];
      const known = new Set(rows.map((r) => r.id));
      const children = new Map<string | null, typeof rows>();
      for (const r of rows) {
        if (!includeArchived && r.systemStatus === ARCHIVED_SYSTEM_STATUS) continue;
        const parent = r.parentProjectId && known.has(r.parentProjectId) ? r.parentProjectId : null;
        let list = children.get(parent);
        if (!list) children.set(parent, (list = []));
        list.push(r);
      }
      const out: ProjectNode[] = [];
      const walk = (parent: string | null, depth: number): void => {
        for (const r of children.get(parent) ?? []) {
          const c = counts.get(r.id);
          out.push({
            ...r,
            isFolder: r.isFolder === 1,
            depth,
            archived: r.systemStatus === ARCHIVED_SYSTEM_STATUS,
            taskCount: c?.taskCount ?? 0,
            openTaskCount: c?.openTaskCount ?? 0,
          });
          walk(r.id, depth + 1);
        }
      };
      walk(null, 0);
      return out;
    },

    delete(ids: readonly string[]): number {
      return deleteByIds(db, 'projects', 'id', ids);
    },
  };
}

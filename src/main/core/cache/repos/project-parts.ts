import type { ProjectUser } from '../../../../shared/api/members';
import type { DocumentListItem } from '../../../../shared/api/documents';
import type { ProjectHistoryEvent } from '../../../../shared/api/history';
import type { DocumentView } from '../../../../shared/ipc/projects';
import type { CacheDb } from '../db';
import { tableCodec } from '../codec';
import { replaceScope, scopeIds, statementCache } from './statements';

/** Rows whose project is one of a JSON array of ids. */
const IN_PROJECTS = 'project_id IN (SELECT value FROM json_each(?))';

/** Members, history and documents: the parts of a project fetched per project. */
export type ProjectPartsRepo = ReturnType<typeof createProjectPartsRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.projectParts` (see `ResourceRepos`). */
  interface ResourceRepos {
    projectParts: ProjectPartsRepo;
  }
}

type Member = ProjectUser & { projectId: string };
type HistoryRecord = ProjectHistoryEvent & { projectId: string };

export function createProjectPartsRepo(db: CacheDb) {
  const stmt = statementCache(db);
  const members = tableCodec<Member>(db, 'project_users', ['project_id', 'user_id'], {
    projectId: ['project_id', 'value'],
    id: ['user_id', 'value'],
    name: ['name', 'value'],
    primaryEmail: ['primary_email', 'value'],
    access: ['access', 'value'],
    watchAll: ['watch_all', 'bool'],
  });
  const history = tableCodec<HistoryRecord>(db, 'project_history', ['id'], {
    id: ['id', 'value'],
    projectId: ['project_id', 'value'],
    eventType: ['event_type', 'value'],
    momentCreated: ['moment_created', 'value'],
    userId: ['user_id', 'value'],
    params: ['params', 'json'],
  });
  const documents = tableCodec<DocumentListItem>(db, 'documents', ['id'], {
    id: ['id', 'value'],
    projectId: ['project_id', 'value'],
    name: ['name', 'value'],
    createdByUserId: ['created_by_user_id', 'value'],
    momentCreated: ['moment_created', 'value'],
    momentUpdated: ['moment_updated', 'value'],
  });

  const memberRowStmt = db.prepare('SELECT * FROM project_users WHERE project_id = ? AND user_id = ?');
  const putMemberRowStmt = db.prepare(
    `INSERT OR REPLACE INTO project_users (project_id, user_id, name, primary_email, access, watch_all)
     VALUES (@project_id, @user_id, @name, @primary_email, @access, @watch_all)`,
  );
  const deleteMemberStmt = db.prepare('DELETE FROM project_users WHERE project_id = ? AND user_id = ?');

  const strip = <T>(rows: Record<string, unknown>[], codec: { decode(r: Record<string, unknown>): T }): T[] =>
    rows.map((r) => {
      delete r.projectId;
      return codec.decode(r);
    });

  return {
    members,
    history,
    documents,

    replaceMembers(projectId: string, list: readonly ProjectUser[]): void {
      stmt('DELETE FROM project_users WHERE project_id = ?').run(projectId);
      for (const m of list) members.upsert({ ...m, projectId });
    },
    membersOf(projectId: string): ProjectUser[] {
      return strip(
        stmt(
          `SELECT ${members.select} FROM project_users WHERE project_id = ? ORDER BY name COLLATE NOCASE`,
        ).all(projectId) as Record<string, unknown>[],
        members,
      ) as unknown as ProjectUser[];
    },

    /**
     * The member's row as stored (column names), or undefined when the user is no member: what
     * a member change keeps to undo itself. Kept in the outbox as it is, so entries stored by an
     * earlier version restore the same way.
     */
    memberRow(projectId: string, userId: string): Record<string, unknown> | undefined {
      return memberRowStmt.get(projectId, userId) as Record<string, unknown> | undefined;
    },
    /** Stores a member row in the `memberRow` shape (a local member change, or its rollback). */
    putMemberRow(row: Record<string, unknown>): void {
      putMemberRowStmt.run(row);
    },
    deleteMember(projectId: string, userId: string): void {
      deleteMemberStmt.run(projectId, userId);
    },

    replaceHistory(projectId: string, list: readonly ProjectHistoryEvent[]): void {
      replaceScope(
        db,
        history,
        'id',
        'project_id = ?',
        [projectId],
        list.map((h) => ({ ...h, projectId })),
      );
    },
    historyOf(projectId: string): ProjectHistoryEvent[] {
      return strip(
        stmt(
          `SELECT ${history.select} FROM project_history WHERE project_id = ? ORDER BY moment_created DESC, id`,
        ).all(projectId) as Record<string, unknown>[],
        history,
      ) as unknown as ProjectHistoryEvent[];
    },

    /** Ids of the cached documents of the given projects. */
    documentIdsIn(projectIds: readonly string[]): string[] {
      return scopeIds(db, 'documents', 'id', IN_PROJECTS, [JSON.stringify(projectIds)]);
    },
    /**
     * Makes the cached documents of the given projects exactly `list` (a subfolders=true answer
     * covers a whole subtree). Returns the removed ids.
     */
    replaceDocuments(
      projectIds: readonly string[],
      list: readonly DocumentListItem[],
      keep?: (id: string) => boolean,
    ): string[] {
      return replaceScope(db, documents, 'id', IN_PROJECTS, [JSON.stringify(projectIds)], list, keep);
    },
    /** The cached documents of one project, or of several (a project and its subfolders). */
    documentsOf(projectIds: string | readonly string[]): DocumentListItem[] {
      const ids = typeof projectIds === 'string' ? [projectIds] : projectIds;
      return (
        stmt(
          `SELECT ${documents.select} FROM documents WHERE ${IN_PROJECTS} ORDER BY name COLLATE NOCASE, id`,
        ).all(JSON.stringify(ids)) as Record<string, unknown>[]
      ).map((r) => documents.decode(r));
    },
    document(id: string): (DocumentView & { contentMoment: string | null }) | null {
      const row = stmt(
        `SELECT ${documents.select}, content, content_moment AS contentMoment FROM documents WHERE id = ?`,
      ).get(id) as (DocumentView & { contentMoment: string | null }) | undefined;
      return row ?? null;
    },
    /** Up to `limit` documents whose content is missing or older than their last update. */
    documentsToIndex(limit: number): string[] {
      return stmt(
        'SELECT id FROM documents WHERE content_moment IS NOT moment_updated ORDER BY moment_updated DESC LIMIT ?',
      )
        .pluck()
        .all(limit) as string[];
    },
    deleteDocument(id: string): void {
      stmt('DELETE FROM documents WHERE id = ?').run(id);
    },
    /** Stores a fetched document with its content. */
    putDocument(doc: DocumentListItem & { content: string }): void {
      documents.upsert(doc);
      stmt('UPDATE documents SET content = ?, content_moment = ? WHERE id = ?').run(
        doc.content,
        doc.momentUpdated,
        doc.id,
      );
    },
  };
}

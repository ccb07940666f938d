import type { Document, DocumentListItem } from '../../shared/api/documents';
import type { Db } from './open';

export interface DocumentRow {
  id: string;
  project_id: string;
  name: string;
  created_by_user_id: string;
  moment_created: string;
  moment_updated: string;
  content: string;
}

const LIST_COLUMNS = `id, name, project_id AS projectId, created_by_user_id AS createdByUserId,
  moment_created AS momentCreated, moment_updated AS momentUpdated`;

export function documentStore(db: Db) {
  const byProject = db.prepare<[string], DocumentListItem>(
    `SELECT ${LIST_COLUMNS} FROM documents WHERE project_id = ? ORDER BY rowid`,
  );
  const byTree = db.prepare<[string], DocumentListItem>(
    `WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT p.id FROM projects p JOIN tree ON p.parent_project_id = tree.id)
     SELECT ${LIST_COLUMNS} FROM documents WHERE project_id IN (SELECT id FROM tree) ORDER BY rowid`,
  );
  const byId = db.prepare<[string], Document>(`SELECT ${LIST_COLUMNS}, content FROM documents WHERE id = ?`);
  const insert = db.prepare<DocumentRow>(
    `INSERT INTO documents (id, project_id, name, created_by_user_id, moment_created, moment_updated, content)
     VALUES (@id, @project_id, @name, @created_by_user_id, @moment_created, @moment_updated, @content)`,
  );
  return {
    list: (projectId: string, subfolders: boolean) => (subfolders ? byTree : byProject).all(projectId),
    get: (id: string) => byId.get(id),
    insert: (row: DocumentRow) => insert.run(row),
  };
}

import type { SearchHit } from '../../../../shared/ipc/search';
import type { CacheDb } from '../db';
import { statementCache } from './statements';

type Kind = SearchHit['kind'];

/** Per kind: its FTS table, the source table, and the columns a hit reports. */
const SOURCES: Record<Kind, { sql: string }> = {
  task: {
    sql: `SELECT 'task' AS kind, s.id, s.name AS title, snippet(tasks_fts, -1, '[', ']', '…', 12) AS snippet,
            s.id AS taskId, s.project_id AS projectId, bm25(tasks_fts) AS rank
          FROM tasks_fts JOIN tasks s ON s.rowid = tasks_fts.rowid WHERE tasks_fts MATCH @q`,
  },
  project: {
    // A project or folder: its name weighs more than words of its description.
    sql: `SELECT 'project' AS kind, s.id, s.name AS title, snippet(projects_fts, -1, '[', ']', '…', 12) AS snippet,
            NULL AS taskId, s.id AS projectId, bm25(projects_fts, 4.0, 1.0) AS rank
          FROM projects_fts JOIN projects s ON s.rowid = projects_fts.rowid WHERE projects_fts MATCH @q`,
  },
  message: {
    sql: `SELECT 'message' AS kind, s.id, coalesce(t.name, '') AS title, snippet(messages_fts, -1, '[', ']', '…', 12) AS snippet,
            s.task_id AS taskId, t.project_id AS projectId, bm25(messages_fts) AS rank
          FROM messages_fts JOIN messages s ON s.rowid = messages_fts.rowid LEFT JOIN tasks t ON t.id = s.task_id
          WHERE messages_fts MATCH @q`,
  },
  document: {
    sql: `SELECT 'document' AS kind, s.id, s.name AS title, snippet(documents_fts, -1, '[', ']', '…', 12) AS snippet,
            NULL AS taskId, s.project_id AS projectId, bm25(documents_fts) AS rank
          FROM documents_fts JOIN documents s ON s.rowid = documents_fts.rowid WHERE documents_fts MATCH @q`,
  },
  contact: {
    sql: `SELECT 'contact' AS kind, s.id, trim(s.first_name || ' ' || s.last_name) AS title,
            snippet(crm_contacts_fts, -1, '[', ']', '…', 12) AS snippet, NULL AS taskId, NULL AS projectId,
            bm25(crm_contacts_fts) AS rank
          FROM crm_contacts_fts JOIN crm_contacts s ON s.rowid = crm_contacts_fts.rowid
          WHERE crm_contacts_fts MATCH @q AND s.is_deleted = 0`,
  },
  account: {
    sql: `SELECT 'account' AS kind, s.id, s.name AS title, snippet(crm_accounts_fts, -1, '[', ']', '…', 12) AS snippet,
            NULL AS taskId, NULL AS projectId, bm25(crm_accounts_fts) AS rank
          FROM crm_accounts_fts JOIN crm_accounts s ON s.rowid = crm_accounts_fts.rowid
          WHERE crm_accounts_fts MATCH @q AND s.is_deleted = 0`,
  },
};

/**
 * Turns what a user typed into an FTS5 query: each word becomes a quoted prefix term, so
 * punctuation and FTS operators in the input are matched literally and never a syntax error.
 */
export function toFtsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu);
  if (!words) return null;
  return words.map((w) => `"${w}"*`).join(' ');
}

/** The query over the given kinds, best first; parameters `@q` (an FTS query) and `@limit`. */
export function searchSql(kinds: readonly Kind[]): string {
  return `SELECT * FROM (${kinds.map((k) => SOURCES[k].sql).join(' UNION ALL ')}) ORDER BY rank LIMIT @limit`;
}

export type SearchRepo = ReturnType<typeof createSearchRepo>;

export function createSearchRepo(db: CacheDb) {
  const stmt = statementCache(db);
  return {
    /** Best hits first across the requested kinds. */
    query(text: string, kinds: readonly Kind[], limit: number): SearchHit[] {
      const q = toFtsQuery(text);
      if (!q) return [];
      const rows = stmt(searchSql(kinds)).all({
        q,
        limit,
      }) as (SearchHit & {
        rank: number;
      })[];
      return rows.map(({ rank: _rank, ...hit }) => hit);
    },
  };
}

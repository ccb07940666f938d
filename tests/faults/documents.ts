// Documents changed on the service during a run, as another user would change them in the
// service's own app. The API has no document write (the spec lists only the two reads; the
// service's seed writes them), so the harness writes the service's database directly, through
// the service's own document store where it has a write (insert) and prepared statements for the
// edits and deletes it has none for. The clients only read documents: the pull brings the lists
// (every root's subtree), a view's open brings the content (on demand, again once the list
// shows a newer `momentUpdated`).
import type { Db } from '../../src/server/db/open';
import { documentStore } from '../../src/server/db/documents';
import { formatLocalTimestamp } from '../../src/shared/api/common';

/** How many documents a run may create: their ids are fixed, so a seed's opens are too. */
export const DOCUMENTS_PER_RUN = 8;

/** The ids of the documents a run may create, in the order it creates them. */
export const documentIds = (run: string): string[] =>
  Array.from({ length: DOCUMENTS_PER_RUN }, (_, n) => `${run}-doc${n}`);

export interface DocumentWriter {
  /** A new document (the next id) in the root project or a project below it; none once all exist. */
  insert(db: Db): string | undefined;
  /**
   * One change on the service's database: a new document in the root project or one of its
   * subprojects, an edit (name, content and `momentUpdated`), or a delete. Answers what it did
   * (for the run's log), or undefined when the database is closed (the service is restarting).
   */
  step(db: Db): string | undefined;
}

export function documentWriter(options: {
  run: string;
  random: () => number;
  /** The root project: new documents go into it or a project directly below it. */
  projectId: string;
  userId: string;
}): DocumentWriter {
  const { run, random, projectId, userId } = options;
  const ids = documentIds(run);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let created = 0;
  let edits = 0;
  let lastMs = 0;
  // Strictly increasing: an edit must show as a newer `momentUpdated`, or a client holding the
  // content of the same millisecond would rightly not fetch it again.
  const moment = () => {
    lastMs = Math.max(Date.now(), lastMs + 1);
    return formatLocalTimestamp(new Date(lastMs));
  };
  function insert(db: Db): string | undefined {
    if (created >= ids.length) return undefined;
    const projects = db
      .prepare('SELECT id FROM projects WHERE id = ? OR parent_project_id = ? ORDER BY id')
      .pluck()
      .all(projectId, projectId) as string[];
    const id = ids[created++]!;
    const at = moment();
    const project = pick(projects);
    documentStore(db).insert({
      id,
      project_id: project,
      name: `${id} v0`,
      created_by_user_id: userId,
      moment_created: at,
      moment_updated: at,
      content: `${id} content 0`,
    });
    return `insert ${id} in ${project}`;
  }
  return {
    insert,
    step(db) {
      if (!db.open) return undefined;
      const live = db
        .prepare('SELECT id FROM documents WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id')
        .pluck()
        .all(JSON.stringify(ids)) as string[];
      const roll = random();
      if (created < ids.length && (roll < 0.45 || !live.length)) return insert(db);
      if (!live.length) return 'nothing to change';
      const id = pick(live);
      if (roll < 0.85) {
        const n = ++edits;
        db.prepare('UPDATE documents SET name = ?, content = ?, moment_updated = ? WHERE id = ?').run(
          `${id} v${n}`,
          `${id} content ${n}`,
          moment(),
          id,
        );
        return `edit ${id} v${n}`;
      }
      db.prepare('DELETE FROM documents WHERE id = ?').run(id);
      return `delete ${id}`;
    },
  };
}

import type { Dependency, DependencyKind } from '../../shared/api/dependencies';
import type { Db } from './open';

export interface DependencyRow {
  id: string;
  type: number;
  predecessor_kind: DependencyKind;
  predecessor_id: string;
  successor_kind: DependencyKind;
  successor_id: string;
  created_by_user_id: string;
  moment_created: string;
}

export function dependencyStore(db: Db) {
  const byId = db.prepare<[string], DependencyRow>('SELECT * FROM dependencies WHERE id = ?');
  const successors = db.prepare<[string, string], DependencyRow>(
    'SELECT * FROM dependencies WHERE predecessor_kind = ? AND predecessor_id = ? ORDER BY rowid',
  );
  const predecessors = db.prepare<[string, string], DependencyRow>(
    'SELECT * FROM dependencies WHERE successor_kind = ? AND successor_id = ? ORDER BY rowid',
  );
  const same = db.prepare<DependencyRow, { id: string }>(
    `SELECT id FROM dependencies WHERE predecessor_kind = @predecessor_kind AND predecessor_id = @predecessor_id
       AND successor_kind = @successor_kind AND successor_id = @successor_id`,
  );
  const insert = db.prepare<DependencyRow>(
    `INSERT INTO dependencies (id, type, predecessor_kind, predecessor_id, successor_kind, successor_id, created_by_user_id, moment_created)
     VALUES (@id, @type, @predecessor_kind, @predecessor_id, @successor_kind, @successor_id, @created_by_user_id, @moment_created)`,
  );
  const remove = db.prepare<[string]>('DELETE FROM dependencies WHERE id = ?');
  return {
    row: (id: string) => byId.get(id),
    /** `{successors, predecessors}` of one item, each element naming only the other side. */
    of: (kind: DependencyKind, id: string) => ({
      successors: successors.all(kind, id).map((r): Dependency => ({
        id: r.id,
        type: r.type,
        [`successor${r.successor_kind}Id`]: r.successor_id,
      })),
      predecessors: predecessors.all(kind, id).map((r): Dependency => ({
        id: r.id,
        type: r.type,
        [`predecessor${r.predecessor_kind}Id`]: r.predecessor_id,
      })),
    }),
    exists: (row: DependencyRow) => same.get(row) !== undefined,
    insert: (row: DependencyRow) => insert.run(row),
    delete: (id: string) => remove.run(id),
  };
}

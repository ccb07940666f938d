import type { Dependency, DependenciesResponse } from '../../../../shared/api/dependencies';
import type { DependencyView } from '../../../../shared/ipc/tasks';
import type { CacheDb } from '../db';
import { statementCache, storedRows } from './statements';

export type DependencyKind = 'task' | 'event' | 'project';
type Kind = DependencyKind;
const KINDS: readonly [Kind, string][] = [
  ['task', 'Task'],
  ['event', 'Event'],
  ['project', 'Project'],
];

/** One end of a dependency: the item it names. */
export type DependencyEnd = { kind: Kind; id: string };
type End = DependencyEnd;
const TABLES: Record<Kind, string> = { task: 'tasks', event: 'calendar_events', project: 'projects' };

/** A cached dependency as stored: what a rollback puts back. */
export interface DependencyRow {
  id: string;
  type: number;
  predecessorKind: Kind;
  predecessorId: string;
  successorKind: Kind;
  successorId: string;
}

/** The one predecessor or successor end a dependency names. */
function endOf(dep: Dependency, role: 'predecessor' | 'successor'): End | null {
  for (const [kind, suffix] of KINDS) {
    const id = dep[`${role}${suffix}Id`];
    if (typeof id === 'string' && id) return { kind, id };
  }
  return null;
}

/**
 * What GET /{kind}/{id}/dependencies answered for item `id`, as rows with both ends: the answer
 * names only the other end of each (the item itself is the missing one). A dependency without
 * its other end is left out.
 */
export function dependencyRowsOf(kind: Kind, id: string, response: DependenciesResponse): DependencyRow[] {
  const self = { kind, id };
  const row = (dep: Dependency, pred: End | null, succ: End | null): DependencyRow[] =>
    pred && succ
      ? [
          {
            id: dep.id,
            type: dep.type,
            predecessorKind: pred.kind,
            predecessorId: pred.id,
            successorKind: succ.kind,
            successorId: succ.id,
          },
        ]
      : [];
  return [
    ...response.predecessors.flatMap((dep) =>
      row(dep, endOf(dep, 'predecessor'), endOf(dep, 'successor') ?? self),
    ),
    ...response.successors.flatMap((dep) =>
      row(dep, endOf(dep, 'predecessor') ?? self, endOf(dep, 'successor')),
    ),
  ];
}

export type DependenciesRepo = ReturnType<typeof createDependenciesRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.dependencies` (see `ResourceRepos`). */
  interface ResourceRepos {
    dependencies: DependenciesRepo;
  }
}

export function createDependenciesRepo(db: CacheDb) {
  const stmt = statementCache(db);
  const insert = db.prepare(
    `INSERT INTO dependencies (id, type, predecessor_kind, predecessor_id, successor_kind, successor_id)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET type = excluded.type,
     predecessor_kind = excluded.predecessor_kind, predecessor_id = excluded.predecessor_id,
     successor_kind = excluded.successor_kind, successor_id = excluded.successor_id`,
  );
  const rows = storedRows(db, 'dependencies', [
    'id',
    'type',
    'predecessor_kind',
    'predecessor_id',
    'successor_kind',
    'successor_id',
  ]);
  const put = (d: DependencyRow): void => {
    insert.run(d.id, d.type, d.predecessorKind, d.predecessorId, d.successorKind, d.successorId);
  };
  return {
    /**
     * Stores what GET /{kind}/{id}/dependencies answered for item `id`: its predecessors list
     * names only the other end, so the item itself fills the missing end. Dependencies `keep`
     * protects (a local create or delete waiting in the outbox) are neither removed nor re-added;
     * those with an end `dropEnd` names (e.g. an item deleted here) are not added, nor those
     * `leaveOut` names (the service's copy of a local create whose answer has not folded).
     */
    replaceFor(
      kind: Kind,
      id: string,
      response: DependenciesResponse,
      options: {
        keep?: (dependencyId: string) => boolean;
        dropEnd?: (end: End) => boolean;
        leaveOut?: (dependencyId: string) => boolean;
      } = {},
    ): void {
      const { keep = () => false, dropEnd = () => false, leaveOut = () => false } = options;
      const existing = stmt('SELECT id FROM dependencies WHERE predecessor_id = ? OR successor_id = ?')
        .pluck()
        .all(id, id) as string[];
      const remove = stmt('DELETE FROM dependencies WHERE id = ?');
      for (const depId of existing) if (!keep(depId)) remove.run(depId);
      for (const d of dependencyRowsOf(kind, id, response)) {
        const pred = { kind: d.predecessorKind, id: d.predecessorId };
        const succ = { kind: d.successorKind, id: d.successorId };
        if (!keep(d.id) && !leaveOut(d.id) && !dropEnd(pred) && !dropEnd(succ))
          insert.run(d.id, d.type, pred.kind, pred.id, succ.kind, succ.id);
      }
    },
    /** True when the cache holds the item at this end. */
    holdsEnd(end: End): boolean {
      return stmt(`SELECT 1 FROM ${TABLES[end.kind]} WHERE id = ?`).get(end.id) !== undefined;
    },
    /** The stored dependencies either end of which is one of `ids`. */
    touching(ids: readonly string[]): DependencyRow[] {
      if (!ids.length) return [];
      return stmt(
        `SELECT id, type, predecessor_kind AS predecessorKind, predecessor_id AS predecessorId,
           successor_kind AS successorKind, successor_id AS successorId
         FROM dependencies WHERE predecessor_id IN (SELECT value FROM json_each(?))
           OR successor_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      ).all(JSON.stringify(ids), JSON.stringify(ids)) as DependencyRow[];
    },
    /** Stores one dependency (a local create), replacing one of the same id. */
    put,
    /** Puts rows back (a refused delete's rollback). */
    restore(rows: readonly DependencyRow[]): void {
      for (const d of rows) put(d);
    },
    /** A dependency as stored, its restore and its delete (a delete's undo; see `storedRows`). */
    ...rows,
    /** Dependencies touching an item, with the names of cached ends. */
    listFor(id: string): DependencyView[] {
      const rows = stmt(
        `SELECT d.id, d.type, d.predecessor_kind AS pk, d.predecessor_id AS pid, d.successor_kind AS sk, d.successor_id AS sid,
           coalesce((SELECT name FROM tasks WHERE id = d.predecessor_id), (SELECT name FROM calendar_events WHERE id = d.predecessor_id),
                    (SELECT name FROM projects WHERE id = d.predecessor_id)) AS pname,
           coalesce((SELECT name FROM tasks WHERE id = d.successor_id), (SELECT name FROM calendar_events WHERE id = d.successor_id),
                    (SELECT name FROM projects WHERE id = d.successor_id)) AS sname
         FROM dependencies d WHERE d.predecessor_id = ? OR d.successor_id = ? ORDER BY d.id`,
      ).all(id, id) as {
        id: string;
        type: number;
        pk: Kind;
        pid: string;
        sk: Kind;
        sid: string;
        pname: string | null;
        sname: string | null;
      }[];
      return rows.map((r) => ({
        id: r.id,
        type: r.type,
        predecessor: { kind: r.pk, id: r.pid, name: r.pname },
        successor: { kind: r.sk, id: r.sid, name: r.sname },
      }));
    },
  };
}

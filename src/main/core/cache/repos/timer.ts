import type { CacheDb } from '../db';

export type TimerRepo = ReturnType<typeof createTimerRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.timer` (see `ResourceRepos`). */
  interface ResourceRepos {
    timer: TimerRepo;
  }
}

/** The running timer as stored: one at most per account (migration 013). */
export interface StoredTimer {
  taskId: string;
  /** Milliseconds since 1970 on this computer's clock. */
  startedAt: number;
  note: string;
  isBillable: boolean;
}

/** The account's running timer, kept in its cache file so it survives a restart and a crash. */
export function createTimerRepo(db: CacheDb) {
  const getStmt = db.prepare(
    'SELECT task_id AS taskId, started_at AS startedAt, note, is_billable AS isBillable FROM timer WHERE slot = 1',
  );
  const putStmt = db.prepare(
    `INSERT INTO timer (slot, task_id, started_at, note, is_billable) VALUES (1, @taskId, @startedAt, @note, @isBillable)
     ON CONFLICT (slot) DO UPDATE SET task_id = excluded.task_id, started_at = excluded.started_at,
       note = excluded.note, is_billable = excluded.is_billable`,
  );
  const clearStmt = db.prepare('DELETE FROM timer WHERE slot = 1 AND started_at = ?');
  return {
    get(): StoredTimer | null {
      const row = getStmt.get() as (Omit<StoredTimer, 'isBillable'> & { isBillable: number }) | undefined;
      return row ? { ...row, isBillable: row.isBillable === 1 } : null;
    },
    /** Keeps `timer` as the running one (replacing any). */
    put(timer: StoredTimer): void {
      putStmt.run({ ...timer, isBillable: timer.isBillable ? 1 : 0 });
    },
    /** Forgets the run that started at `startedAt`; false when that run is not the running one. */
    clear(startedAt: number): boolean {
      return clearStmt.run(startedAt).changes > 0;
    },
  };
}

import type { TimeReport } from '../../../../shared/api/time-reports';
import type { CacheDb } from '../db';
import { tableCodec } from '../codec';
import { replaceScope, statementCache } from './statements';

export type TimeReportsRepo = ReturnType<typeof createTimeReportsRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.timeReports` (see `ResourceRepos`). */
  interface ResourceRepos {
    timeReports: TimeReportsRepo;
  }
}

/** Report dates, both ends included. */
export interface ReportRange {
  from: string;
  to: string;
}

/** Cached time reports; `message` is kept as the service sends it (HTML-escaped). */
export function createTimeReportsRepo(db: CacheDb) {
  const stmt = statementCache(db);
  const codec = tableCodec<TimeReport>(db, 'time_reports', ['id'], {
    id: ['id', 'value'],
    taskId: ['task_id', 'value'],
    projectId: ['project_id', 'value'],
    userId: ['user_id', 'value'],
    reportDate: ['report_date', 'value'],
    reported: ['reported', 'value'],
    message: ['message', 'value'],
    isBillable: ['is_billable', 'bool'],
    momentCreated: ['moment_created', 'value'],
  });
  const ORDER = 'ORDER BY report_date, moment_created, id';
  const userScope = 'user_id = ? AND report_date BETWEEN ? AND ?';
  const read = (sql: string, ...params: unknown[]): TimeReport[] =>
    (stmt(sql).all(...params) as Record<string, unknown>[]).map((r) => codec.decode(r));
  return {
    codec,
    upsert(report: TimeReport): void {
      codec.upsert(report);
    },
    get(id: string): TimeReport | undefined {
      return read(`SELECT ${codec.select} FROM time_reports WHERE id = ?`, id)[0];
    },
    delete(id: string): void {
      stmt('DELETE FROM time_reports WHERE id = ?').run(id);
    },
    /** Makes a user's cached reports dated in the range exactly `reports` (`keep`: pending creates). */
    replaceUserRange(
      userId: string,
      range: ReportRange,
      reports: readonly TimeReport[],
      keep?: (id: string) => boolean,
    ) {
      return replaceScope(db, codec, 'id', userScope, [userId, range.from, range.to], reports, keep);
    },
    /** Makes a task's cached reports exactly `reports`. */
    replaceTask(taskId: string, reports: readonly TimeReport[], keep?: (id: string) => boolean) {
      return replaceScope(db, codec, 'id', 'task_id = ?', [taskId], reports, keep);
    },
    byUser(userId: string, range: ReportRange): TimeReport[] {
      return read(
        `SELECT ${codec.select} FROM time_reports WHERE ${userScope} ${ORDER}`,
        userId,
        range.from,
        range.to,
      );
    },
    byTask(taskId: string): TimeReport[] {
      return read(`SELECT ${codec.select} FROM time_reports WHERE task_id = ? ${ORDER}`, taskId);
    },
  };
}

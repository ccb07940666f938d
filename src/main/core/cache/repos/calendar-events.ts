import type { CalendarEvent } from '../../../../shared/api/events';
import type { CacheDb } from '../db';
import { tableCodec } from '../codec';
import { replaceScope, scopeIds, statementCache, storedRows } from './statements';

export type CalendarEventsRepo = ReturnType<typeof createCalendarEventsRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.events` (see `ResourceRepos`). */
  interface ResourceRepos {
    events: CalendarEventsRepo;
  }
}

export interface EventRange {
  from: string;
  to: string;
  types?: readonly string[] | undefined;
  projectId?: string | undefined;
}

export function createCalendarEventsRepo(db: CacheDb) {
  const stmt = statementCache(db);
  const codec = tableCodec<CalendarEvent>(db, 'calendar_events', ['id'], {
    id: ['id', 'value'],
    eventType: ['event_type', 'value'],
    name: ['name', 'value'],
    notes: ['notes', 'value'],
    startDate: ['start_date', 'value'],
    endDate: ['end_date', 'value'],
    userId: ['user_id', 'value'],
    projectId: ['project_id', 'value'],
    assignedToUserId: ['assigned_to_user_id', 'value'],
    momentCreated: ['moment_created', 'value'],
  });
  /** An event overlaps [from, to] when it starts by `to` and ends (or, single-day, starts) from `from`. */
  const overlap = 'start_date <= ? AND coalesce(end_date, start_date) >= ?';
  const rows = storedRows(db, 'calendar_events', [
    'id',
    'event_type',
    'name',
    'notes',
    'start_date',
    'end_date',
    'user_id',
    'project_id',
    'assigned_to_user_id',
    'moment_created',
  ]);
  const assignedInProjectStmt = db
    .prepare('SELECT id FROM calendar_events WHERE project_id = ? AND assigned_to_user_id = ?')
    .pluck();
  const setAssigneeStmt = db.prepare('UPDATE calendar_events SET assigned_to_user_id = ? WHERE id = ?');
  return {
    codec,
    /** Ids of the cached events overlapping the window. */
    idsInWindow(from: string, to: string): string[] {
      return scopeIds(db, 'calendar_events', 'id', overlap, [to, from]);
    },
    /** Makes the cached events overlapping the window exactly `events`. */
    replaceWindow(
      from: string,
      to: string,
      events: readonly CalendarEvent[],
      keep?: (id: string) => boolean,
    ): string[] {
      return replaceScope(db, codec, 'id', overlap, [to, from], events, keep);
    },
    upsert(event: CalendarEvent): void {
      codec.upsert(event);
    },
    /** An event as stored, its restore and its delete (a delete's undo; see `storedRows`). */
    ...rows,
    /** Ids of the project's events assigned to the user. */
    idsAssignedInProject(projectId: string, userId: string): string[] {
      return assignedInProjectStmt.all(projectId, userId) as string[];
    },
    setAssignee(id: string, userId: string | null): void {
      setAssigneeStmt.run(userId, id);
    },
    list(range: EventRange): CalendarEvent[] {
      let sql = `SELECT ${codec.select} FROM calendar_events WHERE ${overlap}`;
      const params: unknown[] = [range.to, range.from];
      if (range.types) {
        sql += ' AND event_type IN (SELECT value FROM json_each(?))';
        params.push(JSON.stringify(range.types));
      }
      if (range.projectId) {
        sql += ' AND project_id = ?';
        params.push(range.projectId);
      }
      return (stmt(`${sql} ORDER BY start_date, id`).all(...params) as Record<string, unknown>[]).map((r) => {
        if (r.endDate === null) delete r.endDate;
        return r as CalendarEvent;
      });
    },
  };
}

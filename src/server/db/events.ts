import type { CalendarEvent } from '../../shared/api/events';
import type { Db } from './open';

export interface EventRow {
  id: string;
  event_type: string;
  name: string;
  notes: string | null;
  start_date: string;
  end_date: string | null;
  user_id: string | null;
  project_id: string | null;
  assigned_to_user_id: string | null;
  created_by_user_id: string;
  moment_created: string;
}

/** `endDate` is absent, not null, on single-day events. */
function toEvent(r: EventRow): CalendarEvent {
  const out: CalendarEvent = {
    id: r.id,
    eventType: r.event_type,
    name: r.name,
    notes: r.notes,
    startDate: r.start_date,
    userId: r.user_id,
    projectId: r.project_id,
    assignedToUserId: r.assigned_to_user_id,
    momentCreated: r.moment_created,
  };
  if (r.end_date !== null) out.endDate = r.end_date;
  return out;
}

export function eventStore(db: Db) {
  const byId = db.prepare<[string], EventRow>('SELECT * FROM events WHERE id = ?');
  const inRange = db.prepare<{ start: string; end: string }, EventRow>(
    `SELECT * FROM events WHERE start_date <= @end AND COALESCE(end_date, start_date) >= @start
     ORDER BY start_date, rowid`,
  );
  const insert = db.prepare<EventRow>(
    `INSERT INTO events (id, event_type, name, notes, start_date, end_date, user_id, project_id,
       assigned_to_user_id, created_by_user_id, moment_created)
     VALUES (@id, @event_type, @name, @notes, @start_date, @end_date, @user_id, @project_id,
       @assigned_to_user_id, @created_by_user_id, @moment_created)`,
  );
  const remove = db.prepare<{ id: string }>('DELETE FROM events WHERE id = @id');
  const removeDeps = db.prepare<{ id: string }>(
    "DELETE FROM dependencies WHERE (predecessor_kind = 'Event' AND predecessor_id = @id) OR (successor_kind = 'Event' AND successor_id = @id)",
  );
  const reassign = db.prepare<{ project: string; from: string; to: string | null }>(
    'UPDATE events SET assigned_to_user_id = @to WHERE project_id = @project AND assigned_to_user_id = @from',
  );
  return {
    row: (id: string) => byId.get(id),
    get: (id: string) => {
      const row = byId.get(id);
      return row && toEvent(row);
    },
    list: (start: string, end: string, types: readonly string[] | undefined) =>
      inRange
        .all({ start, end })
        .filter((r) => !types || types.includes(r.event_type))
        .map(toEvent),
    insert: (row: EventRow) => insert.run(row),
    toEvent,
    delete: (id: string) => {
      removeDeps.run({ id });
      remove.run({ id });
    },
    reassignInProject: (project: string, from: string, to: string | null) =>
      reassign.run({ project, from, to }),
  };
}

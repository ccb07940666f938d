import type { Cache } from '../cache/cache';
import { HandlerError } from '../errors';
import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';
import { withReplaced, writer } from './write';
import { EventCreateInput } from '../../../shared/ipc/calendar-write';

type CalendarWrite =
  'events.create' | 'events.delete' | 'events.edit' | 'dependencies.create' | 'dependencies.delete';

/** Calendar event and dependency writes, queued through the outbox. */
export function calendarWriteHandlers({
  outbox,
  cache,
}: {
  outbox: AccountOutbox;
  cache: Cache;
}): HandlerMap<CalendarWrite> {
  const { id, queue, create } = writer(outbox);
  const createEvent = (input: EventCreateInput) =>
    create('event.create', (tempId) => ({
      tempId,
      input: input.projectId === undefined ? input : { ...input, projectId: id(input.projectId) },
    }));
  return {
    'events.create': createEvent,
    // It answers the event as a create's input (`replaced`): once the delete was sent, its undo
    // makes the event again (under a new id, without the links the delete took).
    'events.delete': ({ eventId }) => {
      const real = id(eventId);
      const row = cache.events.storedRow(real);
      return withReplaced(queue('event.delete', { eventId: real }), row ? eventInputOf(row) : undefined);
    },
    // Create first, then the delete chained behind it. The old event is checked before
    // anything is queued, so the delete cannot be refused after the create went in. It answers
    // the old event as a create's input (`replaced`): its undo, once sent, is the edit the other
    // way (the old event made again, the new one deleted).
    'events.edit': ({ eventId, input }) => {
      const old = id(eventId);
      const row = cache.events.storedRow(old);
      if (!row) throw new HandlerError('not-found', `No event ${eventId} in this workspace`, 'eventId');
      const created = createEvent(input);
      queue('event.delete', { eventId: old, replacedBy: created.id });
      return withReplaced(created, eventInputOf(row));
    },
    'dependencies.create': (input) =>
      create('dependency.create', (tempId) => ({
        tempId,
        input: {
          ...input,
          predecessor: { ...input.predecessor, id: id(input.predecessor.id) },
          successor: { ...input.successor, id: id(input.successor.id) },
        },
      })),
    'dependencies.delete': ({ dependencyId }) =>
      queue('dependency.delete', { dependencyId: id(dependencyId) }),
  };
}

/** A stored event row as the input that makes it again; undefined when it would not be valid. */
function eventInputOf(row: Record<string, unknown>): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {
    eventType: row.event_type,
    name: row.name,
    startDate: row.start_date,
    endDate: row.end_date,
    userId: row.user_id,
    projectId: row.project_id,
    notes: row.notes,
    assignedToUserId: row.assigned_to_user_id,
  };
  const input = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));
  return EventCreateInput.safeParse(input).success ? input : undefined;
}

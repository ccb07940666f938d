import type { Cache } from '../cache/cache';
import { HandlerError } from '../errors';
import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';
import { writer } from './write';
import type { EventCreateInput } from '../../../shared/ipc/calendar-write';

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
    'events.delete': ({ eventId }) => queue('event.delete', { eventId: id(eventId) }),
    // Create first, then the delete chained behind it. The old event is checked before
    // anything is queued, so the delete cannot be refused after the create went in.
    'events.edit': ({ eventId, input }) => {
      const old = id(eventId);
      if (!cache.events.storedRow(old))
        throw new HandlerError('not-found', `No event ${eventId} in this workspace`, 'eventId');
      const created = createEvent(input);
      queue('event.delete', { eventId: old, replacedBy: created.id });
      return created;
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

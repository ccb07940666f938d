import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';
import { writer } from './write';

type CalendarWrite = 'events.create' | 'events.delete' | 'dependencies.create' | 'dependencies.delete';

/** Calendar event and dependency writes, queued through the outbox. */
export function calendarWriteHandlers({ outbox }: { outbox: AccountOutbox }): HandlerMap<CalendarWrite> {
  const { id, queue, create } = writer(outbox);
  return {
    'events.create': (input) =>
      create('event.create', (tempId) => ({
        tempId,
        input: input.projectId === undefined ? input : { ...input, projectId: id(input.projectId) },
      })),
    'events.delete': ({ eventId }) => queue('event.delete', { eventId: id(eventId) }),
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

import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';

type CalendarWrite = 'events.create' | 'events.delete' | 'dependencies.create' | 'dependencies.delete';

/** Calendar event and dependency writes, queued through the outbox. */
export function calendarWriteHandlers({ outbox }: { outbox: AccountOutbox }): HandlerMap<CalendarWrite> {
  const id = (value: string): string => outbox.realIdOf(value);
  const result = ({ entryId }: { entryId: number | undefined }) => ({ entryId: entryId ?? null });
  const created = (kind: string, input: object) => {
    const tempId = outbox.newTempId();
    const { entryId } = outbox.write(kind, { tempId, input });
    return { id: tempId, entryId: entryId ?? null };
  };
  return {
    'events.create': (input) =>
      created(
        'event.create',
        input.projectId === undefined ? input : { ...input, projectId: id(input.projectId) },
      ),
    'events.delete': ({ eventId }) => result(outbox.write('event.delete', { eventId: id(eventId) })),
    'dependencies.create': (input) =>
      created('dependency.create', {
        ...input,
        predecessor: { ...input.predecessor, id: id(input.predecessor.id) },
        successor: { ...input.successor, id: id(input.successor.id) },
      }),
    'dependencies.delete': ({ dependencyId }) =>
      result(outbox.write('dependency.delete', { dependencyId: id(dependencyId) })),
  };
}

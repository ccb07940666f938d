import { z } from 'zod';
import { channel, type ResourceSpec } from './channel';
import { Id } from './read-common';
import { DependencyView } from './tasks';
import { DateString } from '../api/common';
import { CalendarEvent, EVENT_TYPES } from '../api/events';

/** The resources this domain is the home of (see `RESOURCES` in `../entities.ts`). */
export const calendarResources = {
  event: { noun: 'an event', cacheEntities: ['events'], outbox: true },
  dependency: { noun: 'a dependency', cacheEntities: ['dependencies'], outbox: true },
} as const satisfies Record<string, ResourceSpec>;

export const calendarReadChannels = {
  /** Events overlapping [from, to] (inclusive dates), optionally of some types or one project. */
  'events.list': channel(
    () =>
      z
        .object({
          from: DateString,
          to: DateString,
          types: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).optional(),
          projectId: Id.optional(),
        })
        .strict(),
    () => z.array(CalendarEvent),
  ),
  /** The event's predecessors and successors (fetched when opened, then cached). */
  'dependencies.ofEvent': channel(
    () => z.object({ eventId: Id }).strict(),
    () => z.array(DependencyView),
  ),
};

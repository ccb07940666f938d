import { z } from 'zod';
import { DateString, END_BEFORE_START_MESSAGE, Id } from '../api/common';
import { EVENT_TYPES, SINGLE_DAY_EVENT_TYPES } from '../api/events';
import { channel } from './channel';
import { CreateResult, WriteResult } from './tasks-write';
import { lazySchema } from '../lazy-schema';

/** Write channels of calendar events and dependencies. */
export const EventCreateInput = lazySchema(() =>
  z
    .object({
      eventType: z.enum(EVENT_TYPES),
      name: z.string().trim().min(1, 'must not be empty').max(1000),
      startDate: DateString,
      /** Required unless the type is single-day (project-milestone). */
      endDate: DateString.optional(),
      /** For personal events. */
      userId: Id.optional(),
      /** For project events. */
      projectId: Id.optional(),
      notes: z.string().max(200_000).optional(),
      assignedToUserId: Id.optional(),
    })
    .strict()
    .superRefine((v, ctx) => {
      const single = SINGLE_DAY_EVENT_TYPES.includes(v.eventType);
      if (!single && v.endDate === undefined)
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: `is required for ${v.eventType}` });
      if (v.endDate !== undefined && v.endDate < v.startDate)
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: END_BEFORE_START_MESSAGE });
    }),
);
export type EventCreateInput = z.infer<typeof EventCreateInput>;

export const DependencyEnd = lazySchema(() =>
  z.object({ kind: z.enum(['task', 'event', 'project']), id: Id }).strict(),
);
export const DependencyCreateInput = lazySchema(() =>
  z
    .object({
      /** 5 finish-to-start, 6 start-to-start, 7 finish-to-finish. */
      type: z.union([z.literal(5), z.literal(6), z.literal(7)], { message: 'must be 5, 6 or 7' }),
      predecessor: DependencyEnd,
      successor: DependencyEnd,
    })
    .strict()
    .refine((d) => d.predecessor.id !== d.successor.id, {
      message: 'an item cannot depend on itself',
      path: ['successor', 'id'],
    }),
);
export type DependencyCreateInput = z.infer<typeof DependencyCreateInput>;

export const calendarWriteChannels = {
  'events.create': channel(
    () => EventCreateInput,
    () => CreateResult,
  ),
  'events.delete': channel(
    () => z.object({ eventId: Id }).strict(),
    () => WriteResult,
  ),
  /**
   * Edits an event. The service has no event update: a create of the edited event, then a
   * delete of the old one once the create is acknowledged. The answer is the new event's id.
   * The old event's links (dependencies) go with it, as on any delete.
   */
  'events.edit': channel(
    () => z.object({ eventId: Id, input: EventCreateInput }).strict(),
    () => CreateResult,
  ),
  'dependencies.create': channel(
    () => DependencyCreateInput,
    () => CreateResult,
  ),
  'dependencies.delete': channel(
    () => z.object({ dependencyId: Id }).strict(),
    () => WriteResult,
  ),
};

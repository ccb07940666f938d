import { z } from 'zod';
import {
  DateString,
  END_BEFORE_START_MESSAGE,
  Id,
  LocalTimestamp,
  endBeforeStart,
  endNotBeforeStart,
  orDefault,
  withAliases,
} from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

export const EVENT_TYPES = [
  'project-milestone',
  'project-event',
  'company-event',
  'company-holiday',
  'personal-vacation',
  'personal-sick',
  'personal-travel',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Types that are one day long and carry no endDate. */
export const SINGLE_DAY_EVENT_TYPES: readonly EventType[] = ['project-milestone'];
export const PROJECT_EVENT_TYPES: readonly EventType[] = ['project-milestone', 'project-event'];
export const PERSONAL_EVENT_TYPES: readonly EventType[] = [
  'personal-vacation',
  'personal-sick',
  'personal-travel',
];

const maybe = () => orDefault(z.string().nullable(), () => null);

/** A calendar event; the fields a view can do without read as null when the answer leaves them out. */
export const CalendarEvent = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    eventType: z.string(),
    name: z.string(),
    notes: maybe(),
    startDate: DateString,
    /** Absent on one-day types. */
    endDate: DateString.optional(),
    userId: maybe(),
    projectId: maybe(),
    assignedToUserId: maybe(),
    momentCreated: LocalTimestamp,
  }),
);
export type CalendarEvent = z.infer<typeof CalendarEvent>;
export const CalendarEventsResponse = lazySchema(() => z.array(CalendarEvent));

const EventTypeValue = lazySchema(() =>
  z.enum(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(', ')}` }),
);

/** GET /events */
export const EventsQuery = lazySchema(() =>
  z
    .object({
      startDate: DateString,
      endDate: DateString,
      eventTypes: z
        .string()
        .optional()
        .transform((v, ctx) => {
          if (v === undefined || v === '') return undefined;
          const list = v.split(',');
          for (const t of list) {
            if (!EventTypeValue.safeParse(t).success) {
              ctx.addIssue({ code: 'custom', message: `unknown event type "${t.slice(0, 40)}"` });
              return z.NEVER;
            }
          }
          return list as EventType[];
        }),
    })
    .refine(endNotBeforeStart, endBeforeStart()),
);

/** POST /events; which of endDate, userId, projectId is required depends on the type. */
export const CreateEventBody = lazySchema(() =>
  withAliases(
    z
      .object({
        createdByUserId: Id,
        eventType: EventTypeValue,
        name: z.string().trim().min(1, 'must not be empty').max(1000),
        startDate: DateString,
        endDate: DateString.nullish(),
        userId: Id.nullish(),
        projectId: Id.nullish(),
        notes: z.string().max(200_000).nullish(),
        assignedToUserId: Id.nullish(),
      })
      .superRefine((v, ctx) => {
        const single = SINGLE_DAY_EVENT_TYPES.includes(v.eventType);
        if (!single && v.endDate == null)
          ctx.addIssue({ code: 'custom', path: ['endDate'], message: `is required for ${v.eventType}` });
        if (!single && v.endDate != null && v.endDate < v.startDate)
          ctx.addIssue({ code: 'custom', path: ['endDate'], message: END_BEFORE_START_MESSAGE });
        if (PERSONAL_EVENT_TYPES.includes(v.eventType) && v.userId == null)
          ctx.addIssue({ code: 'custom', path: ['userId'], message: `is required for ${v.eventType}` });
        if (PROJECT_EVENT_TYPES.includes(v.eventType) && v.projectId == null)
          ctx.addIssue({ code: 'custom', path: ['projectId'], message: `is required for ${v.eventType}` });
      }),
    { 'start-date': 'startDate', 'end-date': 'endDate' },
  ),
);
export type CreateEventBody = z.input<typeof CreateEventBody>;

/** Extension: DELETE /event/{id} may name the acting user. */
export const DeleteEventBody = lazySchema(() => z.object({ userId: Id.optional() }));

/** The service's endpoints of calendar events (an event has no update: an edit is a create and a delete). */
export const eventEndpoints = endpoints({
  events: endpoint({
    method: 'GET',
    path: '/events',
    read: 'list',
    query: EventsQuery,
    response: CalendarEventsResponse,
  }),
  event: endpoint({ method: 'GET', path: '/event/{id}', read: 'item', response: CalendarEvent }),
  createEvent: endpoint({
    method: 'POST',
    path: '/events',
    read: 'item',
    body: CreateEventBody,
    response: CalendarEvent,
  }),
  deleteEvent: endpoint({ method: 'DELETE', path: '/event/{id}', read: 'none' }),
});

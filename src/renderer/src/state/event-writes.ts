// Creating, editing and deleting calendar events, on the one write path (`runWrite`). The
// per-type rules (a milestone is one day; a personal event needs a user; a project event a
// project) are checked first with the service's own schema, so the form names the field.
import { CreateEventBody } from '@shared/api/events';
import type { ChannelInput } from '@shared/ipc/contract';
import { inTypeWords } from '../lib/calendar';
import { quoted } from '../lib/undo';
import { runWrite } from './writes';

type EventInput = ChannelInput<'events.create'>;

/** The form's draft: the channel's fields, where an optional one left empty may be null. */
export type NewEvent = {
  [K in keyof EventInput]: undefined extends EventInput[K] ? EventInput[K] | null : EventInput[K];
};

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
  /** A refusal is answered, not toasted: the form shows it next to the field. */
  create(draft: NewEvent) {
    return runWrite('events.create', present(draft), {
      undoLabel: `Created the event ${quoted(draft.name)}`,
    });
  },
  /**
   * Replaces an event with the draft: the service has no event update, so the core creates the
   * edited event and then deletes the old one (its links to other items go with it). A refusal
   * is answered, as for a create.
   */
  edit(eventId: string, draft: NewEvent) {
    return runWrite(
      'events.edit',
      { eventId, input: present(draft) },
      { undoLabel: `Changed the event ${quoted(draft.name)}`, undoToast: true },
    );
  },
  /**
   * The delete waits a few seconds in the outbox: its toast's Undo withdraws it then; after
   * that, Undo makes the event again (without its links to other items).
   */
  remove(eventId: string, name: string) {
    return runWrite(
      'events.delete',
      { eventId },
      {
        failure: `Could not delete '${name}'`,
        undoLabel: `Deleted the event ${quoted(name)}`,
        undoToast: true,
      },
    );
  },
};

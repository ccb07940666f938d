import type { EntryHolder, OutboxEntryView } from '../../../shared/ipc/outbox';
import { editableFields } from '../outbox/correction';
import type { OutboxEntry } from '../outbox/types';
import type { AccountOutbox, FetchReloaded } from '../outbox/account-outbox';
import type { HandlerMap } from './types';

type OutboxChannels =
  | 'outbox.status'
  | 'outbox.pending'
  | 'outbox.failed'
  | 'outbox.retry'
  | 'outbox.edit'
  | 'outbox.correct'
  | 'outbox.discard'
  | 'outbox.stuck'
  | 'outbox.tryAgain'
  | 'outbox.reload'
  | 'conflicts.list'
  | 'conflicts.resolve';

/**
 * The changes waiting in the outbox, the rejected ones, and the conflict journal. `fetchItem`
 * brings in the service's version of what a reload settled.
 */
export function outboxHandlers({
  outbox: w,
  fetchItem,
}: {
  outbox: AccountOutbox;
  fetchItem: FetchReloaded;
}): HandlerMap<OutboxChannels> {
  /** Views of `entries`, each with what holds it back (one query for them all). */
  const views = (entries: OutboxEntry[]): OutboxEntryView[] => {
    const holders = w.outbox.holders();
    return entries.map((e) => {
      const holder = holders.get(e.id);
      const state: EntryHolder['state'] | null =
        holder?.state === 'failed' || holder?.state === 'stuck'
          ? holder.state
          : holder?.errorType === 'held'
            ? 'held'
            : null;
      const heldBy = holder && state ? { id: holder.id, label: w.outbox.describe(holder), state } : null;
      return { ...view(e), heldBy };
    });
  };
  const view = (e: OutboxEntry): Omit<OutboxEntryView, 'heldBy'> => ({
    id: e.id,
    kind: e.kind,
    label: w.outbox.describe(e),
    entityKey: e.entityKey,
    state: e.state === 'done' ? 'pending' : e.state,
    attempts: e.attempts,
    nextAttemptAt: e.nextAttemptAt,
    createdAt: e.createdAt,
    errorType: e.errorType,
    errorMessage: e.errorMessage,
    payload: e.payload,
    fields: editableFields(e.payload),
  });
  return {
    'outbox.status': () => w.outbox.status(),
    'outbox.pending': () =>
      views(w.outbox.entries().filter((e) => e.state === 'pending' || e.state === 'in_flight')),
    'outbox.failed': () => views(w.outbox.entries('failed')),
    'outbox.retry': ({ id }) => w.retry(id),
    'outbox.edit': ({ id, payload }) => w.edit(id, payload),
    'outbox.correct': ({ id, fields }) => w.correct(id, fields),
    'outbox.discard': ({ id }) => w.discard(id),
    'outbox.stuck': () => views(w.outbox.entries('stuck')),
    'outbox.tryAgain': ({ id }) => w.tryAgain(id),
    'outbox.reload': ({ id }) => w.reload(id, fetchItem),
    'conflicts.list': () =>
      w.outbox.listConflicts().map((c) => ({
        id: c.id,
        entity: c.entity,
        entityId: c.entityId,
        field: c.field,
        localValue: c.localValue,
        remoteValue: c.remoteValue,
        detectedAt: c.detectedAt,
        remoteBy: c.remoteBy,
        remoteAt: c.remoteAt,
        itemName: w.itemName(c.entity, c.entityId),
      })),
    'conflicts.resolve': ({ id, choice }) => w.resolveConflict(id, choice),
  };
}

import { z } from 'zod';
import type { Dependency } from '../../../../shared/api/dependencies';
import type { CalendarEvent } from '../../../../shared/api/events';
import { DependencyCreateInput, EventCreateInput } from '../../../../shared/ipc/calendar-write';
import { dependencyRowsOf, type DependencyEnd, type DependencyRow } from '../../cache/repos/dependencies';
import { OutboxError } from '../outbox';
import type { OutboxEntry } from '../types';
import {
  clockOf,
  createdAmongOf,
  DependencyRowSnapshot,
  gone,
  mappedIds,
  stampedCreate,
  stampOf,
  TempId,
  tempKeys,
  type Kind,
  type KindDeps,
  listedLookUp,
} from './support';
import { eventEndpoints } from '../../../../shared/api/events';
import { dependencyEndpoints } from '../../../../shared/api/dependencies';

export const EventCreatePayload = z.object({ tempId: TempId, input: EventCreateInput });
export const EventDeletePayload = z.object({
  eventId: z.string(),
  /**
   * An edit (the service has no event update): the event that replaces this one, created by the
   * entry just before. The delete shares its chain, so it is sent only once the create is
   * acknowledged; a refused create holds it back, and discarding that create discards it too
   * (its payload names the create's local id), so the old event is never lost.
   */
  replacedBy: z.string().optional(),
});
export const DependencyCreatePayload = z.object({ tempId: TempId, input: DependencyCreateInput });
const EndKind = z.enum(['task', 'event', 'project']);
export const DependencyDeletePayload = z.object({
  dependencyId: z.string(),
  /**
   * Its ends, learnt when it is applied: the entry is ordered with their changes, so a later
   * create of the same link waits for it (the service refuses a second identical dependency).
   */
  ends: z.array(z.object({ kind: EndKind, id: z.string() })).optional(),
});
const Row = z.record(z.string(), z.unknown()).nullable();

declare module './support' {
  interface KindModules {
    calendar: ReturnType<typeof calendarKinds>;
  }
}

/**
 * What an event delete takes from the cache: the event and the dependencies it takes along (as
 * the service does). Entries stored before deletes took dependencies along hold the row alone.
 */
const EventSnapshot = z.union([
  z.object({ event: Row, dependencies: z.array(DependencyRowSnapshot) }),
  Row.transform((event) => ({ event, dependencies: [] })),
]);

const SUFFIX = { task: 'Task', event: 'Event', project: 'Project' } as const;

export function calendarKinds(deps: KindDeps) {
  const { cache } = deps;
  const isMapped = mappedIds(cache);

  /**
   * Rule 6's test of an event create: the event of a list that the payload's `input` made (same
   * type, name, start and project, created after the send; the earliest not taken by another
   * create, nor by `taken`). The look-up and the pull both ask it.
   */
  const eventCreated = stampedCreate<CalendarEvent, z.infer<typeof EventCreatePayload>>(deps, {
    parse: (p) => EventCreatePayload.parse(p),
    momentOf: (e) => e.momentCreated,
    matches: (e, { input }) =>
      e.eventType === input.eventType &&
      e.name === input.name &&
      e.startDate === input.startDate &&
      (e.projectId ?? undefined) === input.projectId,
  });

  const createEvent: Kind<z.infer<typeof EventCreatePayload>, CalendarEvent, 'event.create'> = {
    name: 'event.create',
    parse: (p) => EventCreatePayload.parse(p),
    keysOf: (p) => [`event:${p.tempId}`, ...tempKeys('project', p.input.projectId)],
    createdIdOf: (p) => p.tempId,
    describe: (p) => `Create event "${p.input.name}"`,
    apply: (ctx, { tempId, input }) => {
      if (input.projectId && !cache.projects.get(input.projectId)) {
        throw new OutboxError('not-found', `Project ${input.projectId} is not in the cache`, 'projectId');
      }
      cache.events.upsert({
        id: tempId,
        eventType: input.eventType,
        name: input.name,
        notes: input.notes ?? null,
        startDate: input.startDate,
        ...(input.endDate ? { endDate: input.endDate } : {}),
        userId: input.userId ?? null,
        projectId: input.projectId ?? null,
        assignedToUserId: input.assignedToUserId ?? null,
        momentCreated: stampOf(ctx.now, clockOf(deps)),
      });
    },
    send: (client, { input }) =>
      client.call(eventEndpoints.createEvent, { body: { ...input, createdByUserId: deps.userId } }),
    fold: (_ctx, { tempId }, result) => {
      cache.events.upsert({ ...result, id: tempId });
      return { realId: result.id };
    },
    lookUp: async (client, p, entry) => {
      const { input } = p;
      const listed = await client.call(eventEndpoints.events, {
        query: {
          startDate: input.startDate,
          endDate: input.endDate ?? input.startDate,
          eventTypes: [input.eventType],
        },
      });
      const found = eventCreated.find(listed, p, entry);
      return found ? { found: true, result: found } : { found: false };
    },
    rollback: (_ctx, { tempId }) => {
      cache.events.delete(tempId);
    },
  };

  const removeEvent: Kind<z.infer<typeof EventDeletePayload>, void, 'event.delete'> = {
    name: 'event.delete',
    deletes: true,
    parse: (p) => EventDeletePayload.parse(p),
    keysOf: (p) => [`event:${p.eventId}`, ...(p.replacedBy ? [`event:${p.replacedBy}`] : [])],
    describe: (p) => (p.replacedBy ? 'Delete the event replaced by its edit' : 'Delete event'),
    apply: (_ctx, { eventId, replacedBy }) => {
      const before = cache.events.storedRow(eventId);
      if (!before) throw new OutboxError('not-found', `Event ${eventId} is not in the cache`, 'eventId');
      const undo: z.infer<typeof EventSnapshot> = {
        event: before,
        dependencies: cache.dependencies.touching([eventId]),
      };
      for (const dep of undo.dependencies) cache.dependencies.delete(dep.id);
      cache.events.delete(eventId);
      // A delete of its own waits a few seconds, so its Undo can withdraw it before anything is
      // sent (an edit's delete already waits for the create before it).
      return { undo, ...(replacedBy ? {} : { holdForUndo: true }) };
    },
    // Already gone (another user, or a delete the service applied before): the delete holds.
    send: async (client, { eventId }) => {
      await gone(() => client.call(eventEndpoints.deleteEvent, { id: eventId }));
    },
    fold: () => undefined,
    lookUp: async (client, { eventId }) =>
      (await gone(() => client.call(eventEndpoints.event, { id: eventId })))
        ? { found: true, result: undefined }
        : { found: false },
    rollback: (_ctx, _p, undo) => {
      const { event, dependencies } = EventSnapshot.parse(undo ?? null);
      if (event) cache.events.restoreRow(event);
      cache.dependencies.restore(dependencies);
    },
  };

  /**
   * Rule 6's test of a dependency create: the dependency of `rows` that the payload's `input`
   * made (same ends and type, not taken by another create nor by `taken`; no stamp to compare,
   * so the send time is not read). The service refuses a second identical dependency, so its
   * ends are exact. The look-up and the lists sync stores
   * (`copiesOfUnfolded`) both ask it.
   */
  function dependencyCreatedAmong<U extends DependencyRow>(
    rows: readonly U[],
    { input }: z.infer<typeof DependencyCreatePayload>,
    _entry: Pick<OutboxEntry, 'sentAt'>,
    taken: (id: string) => boolean = () => false,
  ): U | undefined {
    return rows.find(
      (d) =>
        d.predecessorKind === input.predecessor.kind &&
        d.predecessorId === input.predecessor.id &&
        d.successorKind === input.successor.kind &&
        d.successorId === input.successor.id &&
        d.type === input.type &&
        !isMapped(d.id) &&
        !taken(d.id),
    );
  }

  /** A dependency create's row, as the view shows it until the service's is read. */
  const putRow = (id: string, input: z.infer<typeof DependencyCreatePayload>['input']): void =>
    cache.dependencies.put({
      id,
      type: input.type,
      predecessorKind: input.predecessor.kind,
      predecessorId: input.predecessor.id,
      successorKind: input.successor.kind,
      successorId: input.successor.id,
    });

  const createDependency: Kind<z.infer<typeof DependencyCreatePayload>, Dependency, 'dependency.create'> = {
    name: 'dependency.create',
    parse: (p) => DependencyCreatePayload.parse(p),
    // Ordered with every change of both ends, whether their ids are local or real: a later
    // delete of either waits for it (rule 2), or the service would refuse it ("no task").
    keysOf: ({ tempId, input }) => [
      `dependency:${tempId}`,
      `${input.predecessor.kind}:${input.predecessor.id}`,
      `${input.successor.kind}:${input.successor.id}`,
    ],
    createdIdOf: (p) => p.tempId,
    describe: () => 'Create dependency',
    apply: (_ctx, { tempId, input }) => putRow(tempId, input),
    send: (client, { input }) =>
      client.call(dependencyEndpoints.createDependency, {
        body: {
          type: input.type,
          createdByUserId: deps.userId,
          [`predecessor${SUFFIX[input.predecessor.kind]}Id`]: input.predecessor.id,
          [`successor${SUFFIX[input.successor.kind]}Id`]: input.successor.id,
        },
      }),
    // The cache lists what the service now holds: the local row, which the remap gives the real
    // id. A row may be missing though nothing here removed it for good: a crash between the
    // outbox file's commit and the cache file's (`cache/db.ts`) keeps the entry and loses its
    // row, and no pull lists dependencies to bring it. It is put back unless an open entry
    // deletes the dependency or one of its ends (which took it along).
    fold: (ctx, { tempId, input }, result) => {
      const ends = [input.predecessor, input.successor].map((end) => `${end.kind}:${end.id}`);
      if (
        !cache.dependencies.storedRow(tempId) &&
        !cache.dependencies.storedRow(result.id) &&
        ![`dependency:${tempId}`, ...ends].some((key) => ctx.deletedByOther(key))
      )
        putRow(tempId, input);
      return { realId: result.id };
    },
    lookUp: async (client, p, entry) => {
      const { kind, id } = p.input.predecessor;
      const listed = dependencyRowsOf(
        kind,
        id,
        await client.call(dependencyEndpoints.dependencies, { kind, id }),
      );
      const found = dependencyCreatedAmong(listed, p, entry);
      return found ? { found: true, result: { id: found.id, type: found.type } } : { found: false };
    },
    rollback: (_ctx, { tempId }) => {
      cache.dependencies.delete(tempId);
    },
  };

  const removeDependency: Kind<z.infer<typeof DependencyDeletePayload>, void, 'dependency.delete'> = {
    name: 'dependency.delete',
    deletes: true,
    parse: (p) => DependencyDeletePayload.parse(p),
    keysOf: (p) => [`dependency:${p.dependencyId}`, ...(p.ends ?? []).map((end) => `${end.kind}:${end.id}`)],
    describe: () => 'Delete dependency',
    apply: (_ctx, { dependencyId }) => {
      const before = cache.dependencies.storedRow(dependencyId);
      if (!before)
        throw new OutboxError('not-found', `Dependency ${dependencyId} is not in the cache`, 'dependencyId');
      cache.dependencies.delete(dependencyId);
      const ends = (['predecessor', 'successor'] as const).map((end) => ({
        kind: EndKind.parse(before[`${end}_kind`]),
        id: String(before[`${end}_id`]),
      }));
      return { undo: before, payload: { dependencyId, ends } };
    },
    // Already gone (a delete of one of its ends took it along): the delete holds.
    send: async (client, { dependencyId }) => {
      await gone(() => client.call(dependencyEndpoints.deleteDependency, { id: dependencyId }));
    },
    // The service no longer lists it, so neither does the cache: apply removed the row it knew,
    // but a read of an end while the create's outcome was unknown (its answer lost) may have
    // stored the service's copy beside it, under the id the look-up then gave this entry.
    fold: (_ctx, { dependencyId }) => {
      cache.dependencies.delete(dependencyId);
    },
    lookUp: async (client, p, entry) => {
      const undo = Row.parse(entry.undo ?? null);
      if (!undo) return { found: false };
      const kind = undo.predecessor_kind as 'task' | 'event' | 'project';
      let listed = false;
      // A predecessor that is gone (deleted since, by this client or another) took it along.
      const predecessorGone = await gone(async () => {
        const { successors } = await client.call(dependencyEndpoints.dependencies, {
          kind,
          id: String(undo.predecessor_id),
        });
        listed = successors.some((d) => d.id === p.dependencyId);
      });
      return !predecessorGone && listed ? { found: false } : { found: true, result: undefined };
    },
    rollback: (_ctx, _p, undo) => {
      const row = Row.parse(undo ?? null);
      if (row) cache.dependencies.restoreRow(row);
    },
  };

  return {
    kinds: [createEvent, removeEvent, createDependency, removeDependency],
    lookUps: [
      listedLookUp('event', 'event.create', eventCreated.createdAmong),
      listedLookUp(
        'dependency',
        'dependency.create',
        createdAmongOf<DependencyRow, z.infer<typeof DependencyCreatePayload>>(
          (p) => DependencyCreatePayload.parse(p),
          dependencyCreatedAmong,
        ),
      ),
    ],
  };
}

/**
 * The ends of the dependency a dependency entry creates or deletes (none for other kinds):
 * what a reload fetches, as a pull never fetches dependencies. Ids as the entry holds them;
 * an unreadable entry names none.
 */
export function dependencyEndsOf(entry: Pick<OutboxEntry, 'kind' | 'payload' | 'undo'>): DependencyEnd[] {
  if (entry.kind === 'dependency.create') {
    const parsed = DependencyCreatePayload.safeParse(entry.payload);
    return parsed.success ? [parsed.data.input.predecessor, parsed.data.input.successor] : [];
  }
  if (entry.kind !== 'dependency.delete') return [];
  const row = Row.safeParse(entry.undo ?? null).data;
  if (!row) return [];
  return (['predecessor', 'successor'] as const).map((end) => ({
    kind: String(row[`${end}_kind`]) as DependencyEnd['kind'],
    id: String(row[`${end}_id`]),
  }));
}

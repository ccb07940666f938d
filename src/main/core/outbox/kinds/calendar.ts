import { z } from 'zod';
import type { CalendarEvent, Dependency } from '../../../../shared/api/index';
import { DependencyCreateInput, EventCreateInput } from '../../../../shared/ipc/calendar-write';
import { dependencyRowsOf, type DependencyEnd, type DependencyRow } from '../../cache/repos/dependencies';
import { OutboxError } from '../outbox';
import type { OutboxEntry } from '../types';
import {
  clockOf,
  DependencyRowSnapshot,
  earliestCreated,
  lookUpClock,
  type CreatedAmong,
  gone,
  mappedIds,
  stampOf,
  TempId,
  tempKeys,
  type Kind,
  type KindDeps,
} from './support';

export const EventCreatePayload = z.object({ tempId: TempId, input: EventCreateInput });
export const EventDeletePayload = z.object({ eventId: z.string() });
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
  const db = cache.db;
  const isMapped = mappedIds(cache);
  const eventRow = db.prepare('SELECT * FROM calendar_events WHERE id = ?');
  const putEventRow = db.prepare(
    `INSERT OR REPLACE INTO calendar_events (id, event_type, name, notes, start_date, end_date, user_id, project_id,
       assigned_to_user_id, moment_created)
     VALUES (@id, @event_type, @name, @notes, @start_date, @end_date, @user_id, @project_id, @assigned_to_user_id, @moment_created)`,
  );
  const deleteEvent = db.prepare('DELETE FROM calendar_events WHERE id = ?');
  const depRow = db.prepare('SELECT * FROM dependencies WHERE id = ?');
  const putDepRow = db.prepare(
    `INSERT OR REPLACE INTO dependencies (id, type, predecessor_kind, predecessor_id, successor_kind, successor_id)
     VALUES (@id, @type, @predecessor_kind, @predecessor_id, @successor_kind, @successor_id)`,
  );
  const deleteDep = db.prepare('DELETE FROM dependencies WHERE id = ?');

  /**
   * Rule 6's test of an event create: the event of `events` that `input` made, sent at
   * `entry.sentAt` (same type, name, start and project, created after the send; the earliest not
   * taken by another create, nor by `taken`). The look-up and the pull both ask it.
   */
  function eventCreatedAmong(
    events: readonly CalendarEvent[],
    input: EventCreateInput,
    entry: Pick<OutboxEntry, 'sentAt'>,
    taken: (id: string) => boolean = () => false,
  ): CalendarEvent | undefined {
    return earliestCreated(
      events,
      {
        sentAt: entry.sentAt,
        momentOf: (e) => e.momentCreated,
        isMapped: (id) => isMapped(id) || taken(id),
        clock: lookUpClock(deps),
      },
      (e) =>
        e.eventType === input.eventType &&
        e.name === input.name &&
        e.startDate === input.startDate &&
        (e.projectId ?? undefined) === input.projectId,
    );
  }

  const createEvent: Kind<z.infer<typeof EventCreatePayload>, CalendarEvent> = {
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
    send: (client, { input }) => client.createEvent({ ...input, createdByUserId: deps.userId }),
    fold: (_ctx, { tempId }, result) => {
      cache.events.upsert({ ...result, id: tempId });
      return { realId: result.id };
    },
    lookUp: async (client, { input }, entry) => {
      const listed = await client.events({
        startDate: input.startDate,
        endDate: input.endDate ?? input.startDate,
        eventTypes: [input.eventType],
      });
      const found = eventCreatedAmong(listed, input, entry);
      return found ? { found: true, result: found } : { found: false };
    },
    rollback: (_ctx, { tempId }) => {
      deleteEvent.run(tempId);
    },
  };

  const removeEvent: Kind<z.infer<typeof EventDeletePayload>, void> = {
    name: 'event.delete',
    deletes: true,
    parse: (p) => EventDeletePayload.parse(p),
    keysOf: (p) => [`event:${p.eventId}`],
    describe: () => 'Delete event',
    apply: (_ctx, { eventId }) => {
      const before = eventRow.get(eventId) as Record<string, unknown> | undefined;
      if (!before) throw new OutboxError('not-found', `Event ${eventId} is not in the cache`, 'eventId');
      const undo: z.infer<typeof EventSnapshot> = {
        event: before,
        dependencies: cache.dependencies.touching([eventId]),
      };
      for (const dep of undo.dependencies) deleteDep.run(dep.id);
      deleteEvent.run(eventId);
      return { undo };
    },
    // Already gone (another user, or a delete the service applied before): the delete holds.
    send: async (client, { eventId }) => {
      await gone(() => client.deleteEvent(eventId));
    },
    fold: () => undefined,
    lookUp: async (client, { eventId }) =>
      (await gone(() => client.event(eventId))) ? { found: true, result: undefined } : { found: false },
    rollback: (_ctx, _p, undo) => {
      const { event, dependencies } = EventSnapshot.parse(undo ?? null);
      if (event) putEventRow.run(event);
      cache.dependencies.restore(dependencies);
    },
  };

  /**
   * Rule 6's test of a dependency create: the dependency of `rows` that `input` made (same ends
   * and type, not taken by another create nor by `taken`). The service refuses a second
   * identical dependency, so its ends are exact. The look-up and the lists sync stores
   * (`copiesOfUnfolded`) both ask it.
   */
  function dependencyCreatedAmong(
    rows: readonly DependencyRow[],
    input: DependencyCreateInput,
    taken: (id: string) => boolean = () => false,
  ): DependencyRow | undefined {
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

  const createDependency: Kind<z.infer<typeof DependencyCreatePayload>, Dependency> = {
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
    apply: (_ctx, { tempId, input }) => {
      putDepRow.run({
        id: tempId,
        type: input.type,
        predecessor_kind: input.predecessor.kind,
        predecessor_id: input.predecessor.id,
        successor_kind: input.successor.kind,
        successor_id: input.successor.id,
      });
    },
    send: (client, { input }) =>
      client.createDependency({
        type: input.type,
        createdByUserId: deps.userId,
        [`predecessor${SUFFIX[input.predecessor.kind]}Id`]: input.predecessor.id,
        [`successor${SUFFIX[input.successor.kind]}Id`]: input.successor.id,
      }),
    fold: (_ctx, _p, result) => ({ realId: result.id }),
    lookUp: async (client, { input }) => {
      const { kind, id } = input.predecessor;
      const found = dependencyCreatedAmong(
        dependencyRowsOf(kind, id, await client.dependencies(kind, id)),
        input,
      );
      return found ? { found: true, result: { id: found.id, type: found.type } } : { found: false };
    },
    rollback: (_ctx, { tempId }) => {
      deleteDep.run(tempId);
    },
  };

  const removeDependency: Kind<z.infer<typeof DependencyDeletePayload>, void> = {
    name: 'dependency.delete',
    deletes: true,
    parse: (p) => DependencyDeletePayload.parse(p),
    keysOf: (p) => [`dependency:${p.dependencyId}`, ...(p.ends ?? []).map((end) => `${end.kind}:${end.id}`)],
    describe: () => 'Delete dependency',
    apply: (_ctx, { dependencyId }) => {
      const before = depRow.get(dependencyId) as Record<string, unknown> | undefined;
      if (!before)
        throw new OutboxError('not-found', `Dependency ${dependencyId} is not in the cache`, 'dependencyId');
      deleteDep.run(dependencyId);
      const ends = (['predecessor', 'successor'] as const).map((end) => ({
        kind: EndKind.parse(before[`${end}_kind`]),
        id: String(before[`${end}_id`]),
      }));
      return { undo: before, payload: { dependencyId, ends } };
    },
    // Already gone (a delete of one of its ends took it along): the delete holds.
    send: async (client, { dependencyId }) => {
      await gone(() => client.deleteDependency(dependencyId));
    },
    fold: () => undefined,
    lookUp: async (client, p, entry) => {
      const undo = Row.parse(entry.undo ?? null);
      if (!undo) return { found: false };
      const kind = undo.predecessor_kind as 'task' | 'event' | 'project';
      let listed = false;
      // A predecessor that is gone (deleted since, by this client or another) took it along.
      const predecessorGone = await gone(async () => {
        const { successors } = await client.dependencies(kind, String(undo.predecessor_id));
        listed = successors.some((d) => d.id === p.dependencyId);
      });
      return !predecessorGone && listed ? { found: false } : { found: true, result: undefined };
    },
    rollback: (_ctx, _p, undo) => {
      const row = Row.parse(undo ?? null);
      if (row) putDepRow.run(row);
    },
  };

  return {
    kinds: [createEvent, removeEvent, createDependency, removeDependency],
    /** The look-up test of `event.create` over a list, for `copiesOfUnfolded`. */
    createdAmong: ((events, payload, entry, taken) =>
      eventCreatedAmong(
        events,
        EventCreatePayload.parse(payload).input,
        entry,
        taken,
      )) satisfies CreatedAmong<CalendarEvent>,
    /**
     * The ends of the dependency a dependency entry creates or deletes (none for other kinds):
     * what a reload fetches, as a pull never fetches dependencies. Ids as the entry holds them;
     * an unreadable entry names none.
     */
    dependencyEnds(entry: Pick<OutboxEntry, 'kind' | 'payload' | 'undo'>): DependencyEnd[] {
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
    },
    /** The look-up test of `dependency.create` over a list, for `copiesOfUnfolded`. */
    dependencyCreatedAmong: ((rows, payload, _entry, taken) =>
      dependencyCreatedAmong(
        rows,
        DependencyCreatePayload.parse(payload).input,
        taken,
      )) satisfies CreatedAmong<DependencyRow>,
  };
}

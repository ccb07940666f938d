import { shiftMonths, withoutCopies, type PullContext } from '../sync/pull';
import { checkedKeep, idSet } from '../sync/removal';
import type { EntityDescriptor } from './types';
import type { CalendarEvent } from '../../../shared/api/index';
import type { DependencyRow } from '../cache/repos/dependencies';

declare module '../sync/pending' {
  /** As its lists answer it: what a create's look-up finds the created item among. */
  interface ListedItems {
    event: CalendarEvent;
    /** A dependency with both its ends. */
    dependency: DependencyRow;
  }
}

/** The events of the window around today (removals checked, rule 9). */
async function pullEvents(ctx: PullContext): Promise<void> {
  const { deps, gate, window } = ctx;
  const { cache, client, pending, log } = deps;
  const now = deps.clock();
  const from = shiftMonths(now, -window.monthsBack);
  const to = shiftMonths(now, window.monthsAhead);
  const fetchEvents = () => gate((s) => client.events({ startDate: from, endDate: to }, s));
  await ctx.isolated('/events', async () => {
    const list = await fetchEvents();
    const keepEvents = await checkedKeep(
      cache.events.idsInWindow(from, to),
      list,
      ctx.keep('event'),
      async () => idSet(await fetchEvents()),
      log,
      'event window',
    );
    // The service's copy of an event created here whose answer has not folded is left out, and
    // one stored earlier goes (not kept: it was listed): the local row stands for it.
    cache.transaction(() =>
      cache.events.replaceWindow(from, to, withoutCopies(pending, 'event', list), keepEvents),
    );
    ctx.changed(['events']);
  });
}

export const event: EntityDescriptor<'event'> = {
  views: ['events'],
  idsOf: 'events',
  tables: [{ name: 'calendar_events', localId: 'id', refs: ['project_id'] }],
  pull: [{ phase: 'tasks', run: pullEvents }],
  // No one-event fetch: an event comes with a whole pull.
  dependencies: (onDemand, id) => onDemand.eventDependencies(id),
};

export const dependency: EntityDescriptor<'dependency'> = {
  views: ['dependencies'],
  tables: [{ name: 'dependencies', localId: 'id', refs: ['predecessor_id', 'successor_id'] }],
  // Read with its ends (a task's detail, a project's or an event's dependencies), never listed.
  pull: [],
};

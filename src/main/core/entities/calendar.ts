import { stamp } from '../sync/context';
import { markOffered } from '../sync/not-offered';
import { fetchUnlessGone, storeDependencies, type OnDemandRead } from '../sync/on-demand';
import { ackMark } from '../sync/pending';
import { shiftMonths, withoutCopies, type PullContext } from '../sync/pull';
import { checkedKeep, idSet, keepingUnreadable } from '../sync/removal';
import { heldAnswers, recordAnswers } from '../sync/held-lists';
import type { EntityDescriptor } from './types';
import type { CalendarEvent } from '../../../shared/api/events';
import type { DependencyRow } from '../cache/repos/dependencies';
import { eventEndpoints } from '../../../shared/api/events';
import { dependencyEndpoints } from '../../../shared/api/dependencies';

declare module '../sync/pending' {
  /** As its lists answer it: what a create's look-up finds the created item among. */
  interface ListedItems {
    event: CalendarEvent;
    /** A dependency with both its ends. */
    dependency: DependencyRow;
  }
}

/**
 * The events of the window around today (removals checked, rule 9); the same answer as last
 * stored for the same window, its table not written since, is neither parsed nor stored again.
 */
async function pullEvents(ctx: PullContext): Promise<void> {
  const { deps, gate, window } = ctx;
  const { cache, client, pending, log } = deps;
  const now = deps.clock();
  const from = shiftMonths(now, -window.monthsBack);
  const to = shiftMonths(now, window.monthsAhead);
  const key = '/events';
  const fetchEvents = () =>
    gate((s) => client.callUnread(eventEndpoints.events, { query: { startDate: from, endDate: to } }, s));
  await ctx.isolated('/events', async () => {
    const fetched = await fetchEvents();
    // One record for the list, whatever the window: the same answer for another window (the
    // next day's) is not held, as the window's stored events may not be the answer's.
    const answer = { ...fetched, fingerprint: `${from}..${to} ${fetched.fingerprint}` };
    if (heldAnswers(deps, [{ key, answer }])) return;
    const { items: list, skipped } = answer.read();
    const keepEvents = await checkedKeep(
      cache.events.idsInWindow(from, to),
      list,
      keepingUnreadable(ctx.keep('event'), skipped),
      async () => idSet((await fetchEvents()).read().items),
      log,
      'event window',
    );
    // The service's copy of an event created here whose answer has not folded is left out, and
    // one stored earlier goes (not kept: it was listed): the local row stands for it.
    cache.transaction(() => {
      const events = withoutCopies(pending, 'event', list);
      cache.events.replaceWindow(from, to, events, keepEvents);
      // Recorded as held when the window is now the answer: every event, none kept beside.
      const asSent =
        !skipped.length &&
        events.length === list.length &&
        cache.events.idsInWindow(from, to).length === list.length;
      const ids = list.map((e) => e.id);
      recordAnswers(deps, 'calendar_events', [{ key, fingerprint: answer.fingerprint, ids }], asSent);
    });
    ctx.changed(['events']);
  });
}

/**
 * An event's or a project's dependencies, read on their own (a task's come with its detail, a
 * project's also with the project). When the item is gone, its dependencies go; the item itself
 * is left to its own fetch or the pull.
 */
function dependenciesOf(kind: 'event' | 'project', id: string): OnDemandRead {
  return (deps, gate) => {
    const { cache, client } = deps;
    return fetchUnlessGone(
      cache,
      async () => {
        const mark = ackMark(deps.pending);
        const response = await gate((s) => client.call(dependencyEndpoints.dependencies, { kind, id }, s));
        cache.transaction(() => storeDependencies(deps, kind, id, response, mark));
        deps.emitChange({ entities: ['dependencies'] });
      },
      () => {
        storeDependencies(deps, kind, id, { predecessors: [], successors: [] });
        // A project still listed whose dependencies answer 404: not offered by this service.
        if (kind === 'project' && cache.projects.get(id))
          markOffered(cache, id, 'dependencies', false, stamp(deps.clock()));
      },
    );
  };
}

/** The on-demand reads of dependencies: `sync.onDemand.run(dependencyReads.ofEvent(id))`. */
export const dependencyReads = {
  ofEvent: (eventId: string) => dependenciesOf('event', eventId),
  ofProject: (projectId: string) => dependenciesOf('project', projectId),
};

export const event: EntityDescriptor<'event'> = {
  views: ['events'],
  idsOf: 'events',
  tables: [{ name: 'calendar_events', localId: 'id', refs: ['project_id'] }],
  pull: [{ phase: 'tasks', run: pullEvents }],
  // No one-event fetch: an event comes with a whole pull.
  dependencies: dependencyReads.ofEvent,
};

export const dependency: EntityDescriptor<'dependency'> = {
  views: ['dependencies'],
  tables: [{ name: 'dependencies', localId: 'id', refs: ['predecessor_id', 'successor_id'] }],
  // Read with its ends (a task's detail, a project's or an event's dependencies), never listed.
  pull: [],
};

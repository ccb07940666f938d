import { noPending, type PendingEntity, type PendingFields } from './pending';
import type { SyncOptions } from './sync';

/**
 * For tests: what a sync under test takes unless the test says otherwise (no local changes, the
 * acting user `me`, a fixed clock, nothing logged or emitted, one try per request). A test spreads
 * it and gives its own cache, client and pull parts (the handlers' `PULL_PARTS`, a layer above
 * this one), then whatever it looks at.
 */
export const SYNC_TEST_DEFAULTS = {
  pending: noPending,
  userId: 'me',
  clock: () => new Date(2026, 0, 15, 9),
  log: () => {},
  emitChange: () => {},
  retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
} satisfies Omit<SyncOptions, 'cache' | 'client' | 'pullParts'>;

/**
 * For tests of a list stored a slice at a time: a pending-changes port whose first check of
 * `entity` takes longer than a slice (so the loop is given back after that check's chunk) and
 * then runs `between` on the loop, before the next slice: where a test reads the cache and makes
 * a local change (`claimed` holds the fields that read as pending). It records what the pull
 * reports as the service's values (`noted`), the sizes of the outbox's structural checks asked
 * per chunk (`structuralAsked`) and how many were asked one by one (`askedOneByOne()`).
 */
export function slicedPendingPort(
  entity: PendingEntity,
  between: () => void,
  onCheck?: (id: string) => void,
) {
  const claimed = new Map<string, string[]>();
  const noted: [string, Record<string, unknown>][] = [];
  const structuralAsked: number[] = [];
  let askedOneByOne = 0;
  let scheduled = false;
  let ran = false;
  const pending: PendingFields = {
    pendingFieldsFor: (asked, id) => {
      if (asked !== entity) return new Set();
      // Each check is slow until the change has run: every slice then spends the turn's budget
      // and gives the loop back, so the change runs after the first slice and within a slice or
      // two, whatever the machine's speed (one slow check alone left the rest of the list to fit
      // in the next turn's budget on a fast machine, before the change).
      if (!ran) {
        const until = performance.now() + 12;
        while (performance.now() < until);
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            ran = true;
            between();
          });
        }
      }
      onCheck?.(id);
      return new Set(claimed.get(id) ?? []);
    },
    isPendingStructural: (asked) => {
      if (asked === entity) askedOneByOne++;
      return false;
    },
    pendingStructuralAmong: (asked, ids) => {
      if (asked === entity) structuralAsked.push(ids.length);
      return new Set();
    },
    noteServerValues: (_entity, id, values) => noted.push([id, values]),
  };
  return { pending, claimed, noted, structuralAsked, askedOneByOne: () => askedOneByOne };
}

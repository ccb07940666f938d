import { noPending } from './pending';
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

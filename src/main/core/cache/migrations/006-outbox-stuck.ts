import { outboxStuckState } from '../outbox-schema';
import type { Migration } from './types';

/** Outbox entries that need the user's attention: acknowledged, their answer never folded. */
export const migration006: Migration = {
  version: 6,
  name: 'outbox-stuck',
  up(db) {
    outboxStuckState(db);
  },
};

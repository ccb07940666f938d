import { outboxTables } from '../outbox-schema';
import type { Migration } from './types';

/** The outbox's tables live in the cache file so a change and its entry commit together (rule 1). */
export const migration003: Migration = {
  version: 3,
  name: 'outbox',
  up(db) {
    outboxTables(db);
  },
};

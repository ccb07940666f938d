import { outboxConflictSource } from '../../outbox/schema';
import type { Migration } from './types';

/** The conflict journal says who changed a field on the service and when, where known. */
export const migration007: Migration = {
  version: 7,
  name: 'outbox-conflict-source',
  up(db) {
    outboxConflictSource(db);
  },
};

import type { Migration } from '../migrations/types';

/**
 * Outbox file migration 3. Who changed a journaled field on the service and when, where the
 * service says so (a task's `recentActivityMoment`; no service names the user of a task change):
 * the conflict is told as "also changed by Ada 5 minutes ago". Added columns, no rebuild; null
 * for older rows. Frozen as shipped.
 */
export const outboxMigration003: Migration = {
  version: 3,
  name: 'outbox-conflict-source',
  up(db) {
    db.exec(`
    ALTER TABLE outbox_conflicts ADD COLUMN remote_by TEXT;
    ALTER TABLE outbox_conflicts ADD COLUMN remote_at TEXT;
  `);
  },
};

import type { Db } from '../db/open';
import { seedDemo } from './demo';
import { seedOrganization } from './org';

export type SeedKind = 'demo' | 'empty';
export { SEED_IDS } from './org';

/**
 * Seeds a fresh database: `empty` writes only the organization set-up (users, statuses, task
 * types, tags, templates, custom fields, the Workspace); `demo` adds a believable workspace.
 * A database that already has users is left alone.
 */
export function seedDatabase(db: Db, kind: SeedKind, now: Date): boolean {
  if (db.prepare('SELECT 1 FROM users LIMIT 1').get()) return false;
  if (kind === 'demo') seedDemo(db, now);
  else seedOrganization(db, now);
  return true;
}

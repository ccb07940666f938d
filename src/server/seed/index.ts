import type { Db } from '../db/open';
import { seedDemo } from './demo';
import { generateWorkspace } from './generate';
import { seedOrganization } from './org';

/**
 * What a fresh database is seeded with: `empty` the organization set-up only (users, statuses,
 * task types, tags, templates, custom fields, the Workspace); `demo` a believable workspace;
 * `generated` a large one of the given size (the benchmarks' generator, fixed seed).
 */
export type SeedKind = 'demo' | 'empty';
export interface GeneratedSeed {
  kind: 'generated';
  tasks: number;
  /** Every tenth is a folder holding the projects after it. */
  projects: number;
  /** Default 3. */
  messagesPerTask?: number;
}
export type SeedSpec = SeedKind | GeneratedSeed;
export { SEED_IDS } from './org';

/** A generated workspace's project count when none is given: about a hundred tasks a project. */
export function defaultProjectCount(tasks: number): number {
  return Math.max(2, Math.ceil(tasks / 100));
}

/** Seeds a fresh database; a database that already has users is left alone. */
export function seedDatabase(db: Db, seed: SeedSpec, now: Date): boolean {
  if (db.prepare('SELECT 1 FROM users LIMIT 1').get()) return false;
  if (seed === 'demo') seedDemo(db, now);
  else if (seed === 'empty') seedOrganization(db, now);
  else {
    generateWorkspace(db, {
      projects: seed.projects,
      tasks: seed.tasks,
      messagesPerTask: seed.messagesPerTask ?? 3,
      seed: 1,
      now,
    });
  }
  return true;
}

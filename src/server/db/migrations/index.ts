import type { Database } from 'better-sqlite3';
import { up as initial } from './001-initial';

/** Numbered migrations, in order; migration N brings `user_version` from N-1 to N. */
export const migrations: ReadonlyArray<(db: Database) => void> = [initial];

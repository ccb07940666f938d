import type { Database } from 'better-sqlite3';

/** One schema step. `up` runs inside a transaction the runner opens; it must not await. */
export interface Migration {
  /** Equals its position in the list, starting at 1; recorded in `user_version`. */
  version: number;
  name: string;
  up(db: Database): void;
}

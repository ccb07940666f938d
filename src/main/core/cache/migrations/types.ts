/** A cache schema step: the same shape (and runner) as the service's migrations. */
export type { Migration } from '../../../../server/db/migrate';

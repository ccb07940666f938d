import type { Db } from './types';

/** Tables whose primary key is an item id that may be local (created offline). */
const ID_COLUMNS: readonly [table: string, column: string][] = [
  ['tasks', 'id'],
  ['projects', 'id'],
  ['calendar_events', 'id'],
  ['crm_contacts', 'id'],
  ['crm_accounts', 'id'],
  ['dependencies', 'id'],
  ['time_reports', 'id'],
];

/** Columns that refer to such an item. */
const REF_COLUMNS: readonly [table: string, column: string][] = [
  ['tasks', 'project_id'],
  ['tasks', 'parent_task_id'],
  ['tasks', 'crm_account_id'],
  ['messages', 'task_id'],
  ['task_tags', 'task_id'],
  ['crm_contact_tasks', 'task_id'],
  ['crm_contact_tasks', 'contact_id'],
  ['dependencies', 'predecessor_id'],
  ['dependencies', 'successor_id'],
  ['projects', 'parent_project_id'],
  ['project_users', 'project_id'],
  ['documents', 'project_id'],
  ['project_history', 'project_id'],
  ['calendar_events', 'project_id'],
  ['crm_contacts', 'crm_account_id'],
  ['time_reports', 'task_id'],
  ['time_reports', 'project_id'],
];

/** JSON columns holding arrays of such ids. */
const JSON_COLUMNS: readonly [table: string, column: string][] = [['crm_accounts', 'contact_ids']];

/**
 * Rule 5, the cache's half: puts the real id of an acknowledged create everywhere the local id
 * stood. A pull may have brought the real item in already; the local row (which carries any
 * pending local change) replaces it. Runs inside the acknowledging transaction.
 */
export function cacheRemapper(db: Db): (tempId: string, realId: string) => void {
  const steps = [
    ...ID_COLUMNS.flatMap(([table, column]) => [
      db.prepare(
        `DELETE FROM ${table} WHERE ${column} = @real AND EXISTS (SELECT 1 FROM ${table} WHERE ${column} = @temp)`,
      ),
      db.prepare(`UPDATE ${table} SET ${column} = @real WHERE ${column} = @temp`),
    ]),
    ...REF_COLUMNS.flatMap(([table, column]) => [
      db.prepare(`UPDATE OR REPLACE ${table} SET ${column} = @real WHERE ${column} = @temp`),
    ]),
    ...JSON_COLUMNS.map(([table, column]) =>
      db.prepare(
        `UPDATE ${table} SET ${column} = replace(${column}, json_quote(@temp), json_quote(@real))
         WHERE instr(${column}, json_quote(@temp)) > 0`,
      ),
    ),
  ];
  return (temp, real) => {
    for (const step of steps) step.run({ temp, real });
  };
}

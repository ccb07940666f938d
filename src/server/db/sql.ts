/**
 * The INSERT, UPDATE and upsert of a store's whole row, built from the one list of its columns
 * (named parameters `@column`, keyed by `id`), so a column added to the list is written by each.
 * Table and column names come from the stores' own constants, never from a request.
 */

export function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
}

/** Sets every column but `id` of the row whose `id` is `@id`. */
export function updateSql(table: string, columns: readonly string[]): string {
  return `UPDATE ${table} SET ${columns
    .filter((c) => c !== 'id')
    .map((c) => `${c} = @${c}`)
    .join(', ')} WHERE id = @id`;
}

/** Inserts the row, or sets every column but `id` of the row already stored under its `id`. */
export function upsertSql(table: string, columns: readonly string[]): string {
  return `${insertSql(table, columns)}
    ON CONFLICT(id) DO UPDATE SET ${columns
      .filter((c) => c !== 'id')
      .map((c) => `${c} = excluded.${c}`)
      .join(', ')}`;
}

/** Ids of every row below one in a tree kept by a parent column (children, theirs, ...), by `?`. */
export function descendantsSql(table: string, parentColumn: string): string {
  return `WITH RECURSIVE d(id) AS (SELECT id FROM ${table} WHERE ${parentColumn} = ? UNION ALL SELECT x.id FROM ${table} x JOIN d ON x.${parentColumn} = d.id) SELECT id FROM d`;
}

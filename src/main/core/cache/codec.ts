import type { CacheDb } from './db';

/** How a field is stored: as is, or as JSON text, or a boolean as 0/1. */
export type FieldKind = 'value' | 'json' | 'bool';

export type FieldMap<T> = { readonly [K in keyof T]-?: readonly [column: string, kind: FieldKind] };

/**
 * Maps one record type to one table: builds the upsert, the SELECT list that names columns by
 * their field, and the conversions both ways. One codec serves every repository, so no
 * repository hand-writes column lists twice.
 */
export interface TableCodec<T> {
  readonly table: string;
  /** `col AS "field", ...` for a SELECT whose rows `decode` turns into records. */
  readonly select: string;
  encode(record: T): Record<string, unknown>;
  decode(row: Record<string, unknown>): T;
  /** Inserts or updates by primary key; columns not in the codec keep their value. */
  upsert(record: T): void;
}

export function tableCodec<T>(
  db: CacheDb,
  table: string,
  key: readonly string[],
  fields: FieldMap<T>,
): TableCodec<T> {
  const entries = Object.entries(fields) as [string, readonly [string, FieldKind]][];
  const columns = entries.map(([, [column]]) => column);
  const converted = entries.filter(([, [, kind]]) => kind !== 'value');
  const valueColumns = columns.filter((c) => !key.includes(c));
  const updates = valueColumns.map((c) => `${c} = excluded.${c}`);
  const upsertSql =
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => '@' + c).join(', ')}) ` +
    `ON CONFLICT (${key.join(', ')}) DO ` +
    (updates.length
      ? // Rows the service sent unchanged are not written again (no page writes, no triggers).
        `UPDATE SET ${updates.join(', ')} WHERE (${valueColumns.join(', ')}) IS NOT (${valueColumns
          .map((c) => `excluded.${c}`)
          .join(', ')})`
      : 'NOTHING');
  const upsertStmt = db.prepare(upsertSql);

  const encode = (record: T): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [field, [column, kind]] of entries) {
      const value = (record as Record<string, unknown>)[field];
      out[column] =
        value === undefined || value === null
          ? null
          : kind === 'json'
            ? JSON.stringify(value)
            : kind === 'bool'
              ? Number(Boolean(value))
              : value;
    }
    return out;
  };
  const decode = (row: Record<string, unknown>): T => {
    for (const [field, [, kind]] of converted) {
      const value = row[field];
      if (value === null || value === undefined) continue;
      row[field] = kind === 'json' ? JSON.parse(value as string) : value === 1;
    }
    return row as T;
  };
  return {
    table,
    select: entries.map(([field, [column]]) => `${column} AS "${field}"`).join(', '),
    encode,
    decode,
    upsert(record) {
      upsertStmt.run(encode(record));
    },
  };
}

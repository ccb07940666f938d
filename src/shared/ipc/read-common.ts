import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/**
 * Pieces shared by the read-side channels: a row window (so a view paints its first rows
 * without reading a whole list) and the `{id, name}` reference views use for related items.
 */
export const WindowInput = lazySchema(() =>
  z.object({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(50_000).default(200),
  }),
);

/** A window of a list: `rows` from `offset`, and `total`, the length of the whole list. */
export function windowOf<T extends z.ZodType>(row: T) {
  return z.object({ rows: z.array(row), total: z.number().int().min(0) });
}

export const Id = lazySchema(() => z.string().min(1));

import { jsonEncodedOr } from '../../shared/api/common';
import { checkCustomFieldValue, SetCustomFieldsBody } from '../../shared/api/custom-fields';
import type { ServiceContext } from '../context';
import { badRequest } from '../http/errors';
import type { Router } from '../http/router';

/**
 * The body of PUT /task/{id}/custom-fields and /project/{id}/custom-fields: an object, or that
 * object JSON-encoded into a string (a PHP client of the live service sends it so).
 */
export const SetCustomFieldsRequest = jsonEncodedOr(SetCustomFieldsBody);

export interface CustomFieldChange {
  id: string;
  oldValue: unknown;
  newValue: unknown;
}

/**
 * Applies `{id, value}` items to a stored custom-field map (JSON text): each id must name a
 * field definition and each value must fit the field's type; null removes the value.
 * `where(i)` names the offending request field. Throws before anything is written.
 */
export function applyCustomFields(
  ctx: ServiceContext,
  current: string,
  items: ReadonlyArray<{ id: string; value: unknown }>,
  where: (index: number, id: string) => string,
): { json: string; changed: CustomFieldChange[] } {
  const data = JSON.parse(current) as Record<string, unknown>;
  const changed: CustomFieldChange[] = [];
  items.forEach((item, index) => {
    const def = ctx.org.field(item.id);
    if (!def) throw badRequest(where(index, item.id), `no custom field with id ${JSON.stringify(item.id)}`);
    const problem = checkCustomFieldValue(def, item.value, ctx.org.isUser);
    if (problem) throw badRequest(where(index, item.id), `${def.name} ${problem}`);
    const oldValue = data[item.id] ?? null;
    if (item.value === null) delete data[item.id];
    else data[item.id] = item.value;
    changed.push({ id: item.id, oldValue, newValue: item.value });
  });
  return { json: JSON.stringify(data), changed };
}

/** Sets a whole `customFieldsData` object (CRM records), checked the same way. */
export function applyCustomFieldsMap(
  ctx: ServiceContext,
  current: string,
  map: Record<string, unknown>,
): string {
  const items = Object.entries(map).map(([id, value]) => ({ id, value }));
  return applyCustomFields(ctx, current, items, (_i, id) => `customFieldsData.${id}`).json;
}

export function customFieldRoutes(r: Router, ctx: ServiceContext): void {
  r.get('/custom-fields', { handle: () => ({ json: ctx.org.fields() }) });
}

// Which custom fields an item's editor lists (a task's or a project's), in which order.

/**
 * The fields an item's editor lists: those set on the item first (with the definition read
 * beside the value, else the organization's), then every other field of the organization, unset.
 * Fields whose definition is nowhere to be found are left out: no editor fits an unknown type.
 */
export function fieldsToEdit<D extends { id: string }>(
  set: readonly { fieldId: string; definition: D | null }[],
  known: readonly D[],
): D[] {
  const defs = set
    .map((field) => field.definition ?? known.find((def) => def.id === field.fieldId))
    .filter((def): def is D => def !== undefined);
  const listed = new Set(set.map((field) => field.fieldId));
  for (const def of known) if (!listed.has(def.id)) defs.push(def);
  return defs;
}

/**
 * `fields` in the order they were last shown in (`shown`, ids), new ones after in their own
 * order. Setting a value moves a field into the "set first" part of `fieldsToEdit`; an editor
 * that is open keeps each field where the user saw it instead, so nothing jumps while they type
 * or Tab through the list.
 */
export function keepOrder<D extends { id: string }>(fields: readonly D[], shown: readonly string[]): D[] {
  const at = new Map(shown.map((id, index) => [id, index]));
  const known = fields.filter((field) => at.has(field.id));
  known.sort((a, b) => (at.get(a.id) ?? 0) - (at.get(b.id) ?? 0));
  return [...known, ...fields.filter((field) => !at.has(field.id))];
}

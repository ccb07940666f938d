/**
 * "Take theirs" of a record's custom fields: every field either side has, set to the service's
 * value (null removes one only this client had).
 */
export function customFieldValues(theirs: unknown, mine: unknown): { id: string; value: unknown }[] {
  const t = (theirs ?? {}) as Record<string, unknown>;
  const m = (mine ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(t), ...Object.keys(m)])].map((k) => ({ id: k, value: t[k] ?? null }));
}

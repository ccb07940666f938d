// Small view preferences (tree expansion, column widths, last project) kept per renderer in
// localStorage, parsed on the way in so a damaged value falls back to the default.
import type { z } from 'zod';

export function loadPref<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const text = localStorage.getItem(`workdesk.${key}`);
    if (text === null) return fallback;
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export function savePref(key: string, value: unknown): void {
  try {
    localStorage.setItem(`workdesk.${key}`, JSON.stringify(value));
  } catch {
    // Unavailable storage only loses the preference, never data.
  }
}

// Progress typed as text, for a task or a project: empty resets it, else a whole percentage.

export const PROGRESS_RULE = 'must be a whole number from 0 to 100';

/** The value the text stands for (null when empty), or the rule it breaks. */
export function parseProgress(text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  const value = Number(trimmed);
  return Number.isInteger(value) && value >= 0 && value <= 100 ? { value } : { error: PROGRESS_RULE };
}

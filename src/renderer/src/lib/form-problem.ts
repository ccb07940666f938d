// A form's refusal shown next to the field it names, until the user edits that field.

/**
 * What a form shows when the core refuses its save: the field (or the form's first), why, and
 * the value the field held then (editing the field clears the problem: see `standingProblem`).
 */
export interface FormProblem {
  field: string;
  message: string;
  value: unknown;
}

/** The problem while its field still holds the value it was found with; none once edited. */
export function standingProblem(problem: FormProblem | undefined, fields: object): FormProblem | undefined {
  if (!problem) return undefined;
  return (fields as Record<string, unknown>)[problem.field] === problem.value ? problem : undefined;
}

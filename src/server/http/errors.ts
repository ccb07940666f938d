import type { z } from 'zod';

/** A refusal the service answers as `{"errorMessage": message}` with a 4xx status. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** 400: the named field is missing, malformed or names something that does not exist. */
export function badRequest(field: string, message: string): ApiError {
  return new ApiError(400, `${field}: ${message}`);
}

/** 404: the path names something that does not exist. */
export function notFound(what: string, id: string): ApiError {
  return new ApiError(404, `${what} ${JSON.stringify(id.slice(0, 100))} not found`);
}

/** 403: the request is well formed but a rule of the service refuses it. */
export function refused(message: string): ApiError {
  return new ApiError(403, message);
}

/**
 * One sentence naming the first offending field of a zod failure; a field absent from `input`
 * is reported as required whatever the schema's own message says (except for rule checks).
 */
export function zodMessage(error: z.ZodError, root: string, input?: unknown): string {
  const issue = error.issues[0];
  if (!issue) return `${root}: invalid`;
  const field = issue.path.length ? issue.path.map(String).join('.') : root;
  // Rule checks (custom issues) keep their own sentence even when they point at an absent field.
  const missing = issue.code !== 'custom' && issue.path.length > 0 && isAbsent(input, issue.path);
  return missing ? `${field}: is required` : `${field}: ${issue.message}`;
}

function isAbsent(input: unknown, path: readonly PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value === undefined;
}

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

/** One sentence naming the first offending field of a zod failure. */
export function zodMessage(error: z.ZodError, root: string): string {
  const issue = error.issues[0];
  if (!issue) return `${root}: invalid`;
  const field = issue.path.length ? issue.path.map(String).join('.') : root;
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  return missing ? `${field}: is required` : `${field}: ${issue.message}`;
}

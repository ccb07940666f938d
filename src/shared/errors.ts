import type { z } from 'zod';
import type { IpcError } from './ipc/channel';

/** Turns a zod failure into one sentence that names the first offending field. */
export function describeZodError(error: z.ZodError, root = 'argument'): { field: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { field: root, message: `${root} is invalid` };
  const field = issue.path.length ? issue.path.map(String).join('.') : root;
  return { field, message: `${field}: ${issue.message}` };
}

export function invalidArgument(error: z.ZodError): IpcError {
  const { field, message } = describeZodError(error);
  return { type: 'invalid-argument', message, field };
}

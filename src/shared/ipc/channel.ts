import type { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/** One IPC channel: a `domain.verb` name, the schema of its single argument and of its result. */
export interface ChannelSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I;
  readonly output: O;
}

/**
 * A channel from the functions that build its schemas: each is built when the channel is first
 * used (`lazy-schema.ts`), not when the contract loads.
 */
export function channel<I extends z.ZodType, O extends z.ZodType>(
  input: () => I,
  output: () => O,
): ChannelSpec<I, O> {
  return { input: lazySchema(input), output: lazySchema(output) };
}

/**
 * A resource as the IPC domain that is its home declares it (`resources` of its entry in
 * `CHANNEL_DOMAINS`); gathered into `RESOURCES` (`src/shared/entities.ts`, which says what each
 * field means).
 */
export interface ResourceSpec {
  readonly noun: string;
  readonly cacheEntities: readonly string[];
  readonly outbox: boolean;
}

/** One IPC domain: its channels, and the resources it is the home of (by their names). */
export interface ChannelDomain {
  readonly channels: Record<string, ChannelSpec>;
  readonly resources?: Record<string, ResourceSpec>;
}

/**
 * The error half of every IPC result; `field` names the offending argument field when there is
 * one, or, for an `offline` answer about one item the core does not hold, the argument naming it.
 */
export interface IpcError {
  type: IpcErrorType;
  message: string;
  field?: string;
}

export type IpcErrorType =
  | 'invalid-argument'
  | 'unknown-channel'
  | 'not-found'
  | 'conflict'
  | 'offline'
  | 'unauthorized'
  | 'rejected'
  | 'internal';

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

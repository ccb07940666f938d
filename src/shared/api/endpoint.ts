import type { z } from 'zod';

/**
 * An endpoint of the service, declared as data beside its resource's schemas
 * (`taskEndpoints` in `tasks.ts`, …): its method, its path template, the schemas of its query,
 * body and answer, and how the client reads the answer. The core's client
 * (`src/main/core/api/client.ts`) sends any of them with `client.call(endpoint, input, options)`,
 * typed from the declaration: a path parameter left out or misspelt, or a body of the wrong
 * shape, does not compile. Nothing here sends anything: shared code stays free of I/O.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How the client reads an endpoint's answer:
 * - `item`: one JSON value matching `response`; a mismatch names the field;
 * - `list`: a JSON array (`response` is the array's schema); an element that does not match is
 *   skipped and reported, the others read;
 * - `fingerprintedList`: as `list`, read element by element as the bytes arrive, each with its
 *   fingerprint, so a pull skips the elements it holds already (a project's tasks);
 * - `itemOrOk`: the new item (our service), or null for `OK` or an empty body (the live service);
 * - `none`: a write whose answer is not read (`OK`, empty or any JSON is success);
 * - `bytes`: the body streamed to the caller (an attachment's file).
 */
export type AnswerRead = 'item' | 'list' | 'fingerprintedList' | 'itemOrOk' | 'none' | 'bytes';

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | ParamNames<Rest>
  : never;
/** The parameters a path template names: `'/project/{id}/user/{userId}'` → `{ id; userId }`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

/** Marks path parameters narrower than a string (`{kind}`: `'task' | 'event' | 'project'`). */
export interface ParamTypes<T> {
  readonly '~params'?: T;
}
// Marked free of side effects (as `endpoint` and `endpoints` are) so that a bundle importing a
// resource's schemas without its endpoints (the renderer's) leaves the declarations out.
export const paramTypes = /* @__NO_SIDE_EFFECTS__ */ <T>(): ParamTypes<T> => ({});

/** What an endpoint's declaration holds; `endpoints()` gives each its name. */
export interface Endpoint<
  P extends string = string,
  R extends AnswerRead = AnswerRead,
  S extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  X = unknown,
  O extends boolean = boolean,
> {
  /** Its key in its resource's record (`task`, `updateTask`): for logs and test doubles. */
  readonly name: string;
  readonly method: Method;
  /** Template: `{name}` stands for a parameter, sent URI-encoded. */
  readonly path: P;
  /**
   * Other paths that may answer it where the first answers 404, tried in order; the client
   * remembers which one answered (a project's history: `/projects/…` or `/project/…`).
   */
  readonly fallbackPaths: readonly string[];
  readonly read: R;
  /** The answer's schema (for `list` and `fingerprintedList`, the array's). */
  readonly response: S;
  /** The request body's schema (the client sends the body as given; the service checks it). */
  readonly body: B;
  /** The query's schema: only its keys are sent; a list value is sent comma-separated. */
  readonly query: Q;
  /**
   * True for reads the spec does not list: a 404 or 405 means "not offered here" and is
   * answered as null (a service without a tag list).
   */
  readonly offered: O;
  readonly params?: ParamTypes<X>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest endpoint, for constraints only
export type AnyEndpoint = Endpoint<string, AnswerRead, any, any, any, unknown, boolean>;

/** Declares one endpoint (see `Endpoint`); unnamed until its resource's `endpoints()` names it. */
/* @__NO_SIDE_EFFECTS__ */
export function endpoint<
  const P extends string,
  const R extends AnswerRead,
  S extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  X = unknown,
  O extends boolean = false,
>(def: {
  method: Method;
  path: P;
  read: R;
  response?: S;
  body?: B;
  query?: Q;
  params?: ParamTypes<X>;
  offered?: O;
  fallbackPaths?: readonly string[];
}): Endpoint<P, R, S, B, Q, X, O> {
  return {
    name: '',
    method: def.method,
    path: def.path,
    fallbackPaths: def.fallbackPaths ?? [],
    read: def.read,
    response: def.response as S,
    body: def.body as B,
    query: def.query as Q,
    offered: (def.offered ?? false) as O,
  };
}

/** A resource's endpoints, each named by its key. */
// Typed loosely on purpose: a constraint naming `Endpoint` would lend its types to the
// declarations inside (an endpoint without a body would be read as taking any body).
/* @__NO_SIDE_EFFECTS__ */
export function endpoints<const T extends Record<string, { readonly path: string }>>(
  defs: T,
): { readonly [K in keyof T]: T[K] } {
  return Object.fromEntries(
    Object.entries(defs).map(([name, def]) => [name, Object.freeze({ ...def, name })]),
  ) as unknown as { readonly [K in keyof T]: T[K] };
}

/** The path parameters of an endpoint: those its template names, or its marked types. */
export type ParamsOf<E extends AnyEndpoint> = E extends {
  path: infer P extends string;
  params?: ParamTypes<infer X>;
}
  ? unknown extends X
    ? PathParams<P>
    : X
  : never;

/** A query value as a caller gives it: the schema's input, or a list where the schema reads one. */
export type QueryInput<Q extends z.ZodObject> = {
  [K in keyof z.input<Q>]: z.input<Q>[K] | (K extends keyof z.output<Q> ? ListOf<z.output<Q>[K]> : never);
};
type ListOf<V> = V extends readonly (infer E)[] ? readonly E[] : never;

/** What a caller gives `call`: the path's parameters, and the query and body the endpoint takes. */
export type EndpointInput<E extends AnyEndpoint> = ParamsOf<E> &
  (E['query'] extends z.ZodObject ? { query?: QueryInput<E['query']> } : unknown) &
  (E['body'] extends z.ZodType ? { body: z.input<E['body']> } : unknown);

/** The item type of an endpoint's answer (one element for the list reads). */
export type EndpointItem<E extends AnyEndpoint> = E['response'] extends z.ZodType
  ? E['read'] extends 'list' | 'fingerprintedList'
    ? z.output<E['response']> extends readonly (infer T)[]
      ? T
      : never
    : z.output<E['response']>
  : never;

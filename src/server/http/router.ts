import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { OK_BODY } from '../../shared/api/common';
import type { Db } from '../db/open';
import type { ServiceProfile } from '../profiles';
import { checkActingUser } from './auth';
import { ApiError, zodMessage } from './errors';

/** Every path of the service starts with the version. */
export const API_PREFIX = '/2.0';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a handler answers: a value sent as JSON, JSON text built by SQLite, or `OK`. */
export type Answer =
  | { json: unknown; status?: number }
  | { jsonText: string }
  | { file: string; mime: string }
  /** `OK` for a create the spec answers without a body; the new id travels in headers (extension). */
  | { createdId: string; location: string }
  | typeof OK_BODY;

export interface Input<Q, B> {
  params: Record<string, string>;
  query: Q;
  body: B;
  request: FastifyRequest;
}

export interface RouteSpec<Q extends z.ZodType, B extends z.ZodType> {
  query?: Q;
  body?: B;
  handle: (input: Input<z.output<Q>, z.output<B>>) => Answer;
}

function parse<T extends z.ZodType>(schema: T | undefined, value: unknown, root: string): z.output<T> {
  if (!schema) return undefined as z.output<T>;
  let result = schema.safeParse(value ?? {}, { reportInput: true });
  // The live service takes an explicit null for an optional field as the field left out; where
  // the schema itself gives null a meaning (a reset), it is accepted on the first parse.
  const nulled = result.success ? [] : nullFields(result.error, value);
  if (nulled.length > 0) {
    const rest = { ...(value as Record<string, unknown>) };
    for (const key of nulled) delete rest[key];
    result = schema.safeParse(rest, { reportInput: true });
  }
  if (!result.success) throw new ApiError(400, zodMessage(result.error, root));
  return result.data;
}

/** Top-level fields of an object body that failed only for being null. */
function nullFields(error: z.ZodError, value: unknown): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const body = value as Record<string, unknown>;
  const keys = error.issues.map((issue) =>
    issue.path.length === 1 && typeof issue.path[0] === 'string' && body[issue.path[0]] === null
      ? issue.path[0]
      : undefined,
  );
  return keys.every((key) => key !== undefined) ? keys : [];
}

/** Query parameters, completed on GET by the fields of a JSON object body. */
function readParameters(request: FastifyRequest): unknown {
  const body = request.body;
  if (request.method !== 'GET' || !body || typeof body !== 'object' || Array.isArray(body))
    return request.query;
  return { ...(body as Record<string, unknown>), ...(request.query as Record<string, unknown>) };
}

/**
 * The body of a write whose answer the spec does not show: the JSON string `"OK"`, as the live
 * service sends it (clients tested against it call `.json()` on these answers).
 */
export const OK_JSON = JSON.stringify(OK_BODY);

export function sendAnswer(reply: FastifyReply, answer: Answer): void {
  if (answer === OK_BODY) {
    reply.code(200).type('application/json; charset=utf-8').send(OK_JSON);
  } else if ('createdId' in answer) {
    reply
      .code(200)
      .header('x-created-id', answer.createdId)
      .header('location', API_PREFIX + answer.location)
      .type('application/json; charset=utf-8')
      .send(OK_JSON);
  } else if ('file' in answer) {
    reply.code(200).type(answer.mime).send(createReadStream(answer.file));
  } else if ('jsonText' in answer) {
    reply.code(200).type('application/json; charset=utf-8').send(answer.jsonText);
  } else {
    reply
      .code(answer.status ?? 200)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(answer.json));
  }
}

/**
 * Registers routes of the service. Each request is validated (query, then body) and then
 * handled inside ONE SQLite transaction, so a refused request changes nothing. The router also
 * remembers every path pattern, so an unknown method on a known path answers 405. The service's
 * profile decides which routes exist and shapes every answer, in this one place.
 */
export class Router {
  private readonly patterns: { regex: RegExp; method: Method }[] = [];

  /** Runs a handler in one transaction (made once: better-sqlite3 wraps a function per call). */
  private readonly inTransaction: (fn: () => Answer) => Answer;

  constructor(
    private readonly app: FastifyInstance,
    db: Db,
    private readonly prefix: string,
    private readonly profile: ServiceProfile,
  ) {
    this.inTransaction = db.transaction((fn: () => Answer) => fn());
  }

  get<Q extends z.ZodType, B extends z.ZodType>(url: string, spec: RouteSpec<Q, B>): void {
    this.add('GET', url, spec);
  }
  post<Q extends z.ZodType, B extends z.ZodType>(url: string, spec: RouteSpec<Q, B>): void {
    this.add('POST', url, spec);
  }
  put<Q extends z.ZodType, B extends z.ZodType>(url: string, spec: RouteSpec<Q, B>): void {
    this.add('PUT', url, spec);
  }
  delete<Q extends z.ZodType, B extends z.ZodType>(url: string, spec: RouteSpec<Q, B>): void {
    this.add('DELETE', url, spec);
  }

  /** Records a pattern registered elsewhere (e.g. the upload route) for 405 answers. */
  remember(method: Method, url: string): void {
    const source = (this.prefix + url)
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    this.patterns.push({ regex: new RegExp(`^${source}/?$`), method });
  }

  /** Whether the profile has this route (a route registered outside the router asks first). */
  offers(method: Method, url: string): boolean {
    return this.profile.offers(method, url);
  }

  /** Methods that exist for a concrete path (after slash normalization), for 405 answers. */
  allowedMethods(path: string): Method[] {
    const clean = path.replace(/\/{2,}/g, '/');
    return [...new Set(this.patterns.filter((p) => p.regex.test(clean)).map((p) => p.method))];
  }

  private add<Q extends z.ZodType, B extends z.ZodType>(
    method: Method,
    url: string,
    spec: RouteSpec<Q, B>,
  ): void {
    if (!this.profile.offers(method, url)) return;
    this.remember(method, url);
    const inTransaction = this.inTransaction;
    const profile = this.profile;
    this.app.route({
      method,
      url: this.prefix + url,
      handler(request, reply) {
        const query = parse(spec.query, readParameters(request), 'query');
        const body = parse(spec.body, request.body, 'body');
        checkActingUser(method, url, request, body);
        const params = request.params as Record<string, string>;
        const answer = inTransaction(() => spec.handle({ params, query, body, request }));
        sendAnswer(reply, profile.shape(method, url, answer));
      },
    });
  }
}

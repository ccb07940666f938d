import type { z } from 'zod';
import type { AnyEndpoint, EndpointInput, EndpointItem } from '../../../shared/api/endpoint';
import { RejectedError } from './errors';
import {
  createHttp,
  type ConnectionSettings,
  type FingerprintedListAnswer,
  type KnownElements,
  type ListAnswer,
  type ListSliceReader,
  type UnreadableItem,
  type UploadBody,
} from './http';

export type {
  ConnectionSettings,
  FingerprintedListAnswer,
  KnownElements,
  ListAnswer,
  ListSliceReader,
  UnreadableItem,
} from './http';

/** One list read as it went: how many items the answer held and which could not be read. */
export interface ListRead {
  method: string;
  path: string;
  total: number;
  skipped: UnreadableItem[];
}

/** A streamed answer (an attachment's bytes), with its length and type when the service sends them. */
export interface StreamedAnswer {
  body: ReadableStream<Uint8Array>;
  size: number | null;
  mime: string | null;
}

/** What `call` answers for an endpoint, from how the endpoint says its answer is read. */
export type EndpointAnswer<E extends AnyEndpoint> =
  | (E['read'] extends 'item'
      ? EndpointItem<E>
      : E['read'] extends 'list'
        ? EndpointItem<E>[]
        : E['read'] extends 'fingerprintedList'
          ? FingerprintedListAnswer<EndpointItem<E>>
          : E['read'] extends 'itemOrOk'
            ? EndpointItem<E> | null
            : E['read'] extends 'bytes'
              ? StreamedAnswer
              : void)
  | (E['offered'] extends true ? null : never);

/**
 * A list endpoint's answer (see `callUnread`): it came whole and was fingerprinted, and is read
 * only if the caller asks, so a list the caller holds as stored is never parsed.
 */
export interface UnreadListAnswer<T> {
  /** SHA-1 of the answer's text: the same answer, the same fingerprint. */
  fingerprint: string;
  /** Parses and checks its elements, told as a list read as `call` tells it. */
  read(): ListAnswer<T>;
  /**
   * As `read`, the elements a slice at a time, the loop given back when the turn is spent.
   * `untold`: the read is not told; the caller tells it with `tell`, with the other answers of
   * the same path that make one list (the project list's open and archived answers: told apart,
   * the second read's none skipped would clear the first's skipped items).
   */
  readInSlices(options?: { untold?: boolean }): Promise<ListAnswer<T>>;
  /** Tells a read of this answer's path as `read` does (the parts of one list, read untold). */
  tell(read: { total: number; skipped: readonly UnreadableItem[] }): void;
  /** Tells the read as one of `total` items, none skipped: the caller holds the answer as stored. */
  held(total: number): void;
}

/** An endpoint whose answer is a JSON array read as a whole (`read: 'list'`). */
export type ListEndpoint = AnyEndpoint & { read: 'list' };

/**
 * Per-call options: the caller's AbortSignal; for a list read with fingerprints, the elements
 * the caller holds (`known`, answered as ids only) and `each`, handed the others a slice at a
 * time as the answer arrives.
 */
export type CallOptions<E extends AnyEndpoint> = {
  signal?: AbortSignal | undefined;
} & (E['read'] extends 'fingerprintedList'
  ? { known?: KnownElements | undefined; each?: ListSliceReader<EndpointItem<E>> | undefined }
  : unknown);

/**
 * `call`'s arguments after the endpoint: the input (left out when it needs nothing), then the
 * options or the AbortSignal alone.
 */
export type CallArgs<E extends AnyEndpoint> =
  object extends EndpointInput<E>
    ? [input?: EndpointInput<E>, options?: CallOptions<E> | AbortSignal]
    : [input: EndpointInput<E>, options?: CallOptions<E> | AbortSignal];

type QueryValue = string | number | boolean | undefined;

/** An endpoint's path with its parameters put in, URI-encoded. */
function pathOf(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

/** The query an endpoint sends: only its schema's keys; a list comma-separated. */
function queryOf(
  endpoint: AnyEndpoint,
  given: Record<string, unknown> | undefined,
): Record<string, QueryValue> | undefined {
  if (!endpoint.query || !given) return undefined;
  const query: Record<string, QueryValue> = {};
  for (const key of Object.keys((endpoint.query as z.ZodObject).shape)) {
    const value = given[key];
    query[key] = Array.isArray(value) ? value.join(',') : (value as QueryValue);
  }
  return query;
}

/**
 * The client of the Work Management Service 2.0: `call(endpoint, input, options)` sends any
 * endpoint declared beside its resource's schemas (`src/shared/api/<resource>.ts`), reads the
 * answer as the endpoint says and checks it with the endpoint's schema. Failures are the classes
 * in `./errors`; timeouts, the token header and the service clock are `./http`'s.
 */
export function createServiceClient(settings: ConnectionSettings) {
  const http = createHttp(settings);
  const listReads = new Set<(read: ListRead) => void>();
  const tellListRead = (read: ListRead): void => {
    for (const listener of listReads) listener(read);
  };

  /**
   * Paths of endpoints with fallbacks, the one that answered last first: learnt from the first
   * 404 (a project's history, `/projects/{id}/history` in the spec, `/project/{id}/history` as one
   * client of the live service calls it).
   */
  const learntPaths = new Map<AnyEndpoint, readonly string[]>();
  async function withFallbackPaths<T>(
    endpoint: AnyEndpoint,
    send: (template: string) => Promise<T>,
  ): Promise<T> {
    const templates = learntPaths.get(endpoint) ?? [endpoint.path, ...endpoint.fallbackPaths];
    for (const [i, template] of templates.entries()) {
      try {
        const answer = await send(template);
        if (i > 0) learntPaths.set(endpoint, [template, ...templates.filter((t) => t !== template)]);
        return answer;
      } catch (err) {
        if (!(err instanceof RejectedError && err.status === 404) || i === templates.length - 1) throw err;
      }
    }
    throw new Error(`${endpoint.name}: no path`);
  }

  /** One exchange at `path`, its answer read as the endpoint says. */
  async function exchange(
    endpoint: AnyEndpoint,
    path: string,
    query: Record<string, QueryValue> | undefined,
    body: unknown,
    options: {
      signal?: AbortSignal | undefined;
      known?: KnownElements | undefined;
      each?: ListSliceReader<unknown> | undefined;
      /** A list's answer is answered unread (`UnreadListAnswer`). */
      unread?: boolean;
    },
  ): Promise<unknown> {
    const { method } = endpoint;
    const { signal } = options;
    const response = endpoint.response as z.ZodType;
    switch (endpoint.read) {
      case 'item':
        return http.json(method, path, response, { body, signal, query });
      case 'itemOrOk':
        return http.itemOrOk(method, path, response, { body, signal, query });
      case 'none':
        return http.write(method, path, { body, signal, query });
      case 'bytes':
        return http.download(path, signal);
      case 'list': {
        const element = (response as z.ZodArray).element as z.ZodType;
        if (options.unread) {
          const answer = await http.unreadList(method, path, element, { signal, query });
          const tell = (read: { total: number; skipped: readonly UnreadableItem[] }) =>
            tellListRead({ method, path, total: read.total, skipped: [...read.skipped] });
          const told = (read: ListAnswer<unknown>) => {
            tell({ total: read.items.length + read.skipped.length, skipped: read.skipped });
            return read;
          };
          return {
            fingerprint: answer.fingerprint,
            read: () => told(answer.read()),
            readInSlices: async (options) => {
              const read = await answer.readInSlices();
              return options?.untold ? read : told(read);
            },
            tell,
            held: (total: number) => tellListRead({ method, path, total, skipped: [] }),
          } satisfies UnreadListAnswer<unknown>;
        }
        const { items, skipped } = await http.list(method, path, element, { signal, query });
        tellListRead({ method, path, total: items.length + skipped.length, skipped });
        return items;
      }
      case 'fingerprintedList': {
        const element = (response as z.ZodArray).element as z.ZodType;
        const answer = await http.fingerprintedList(method, path, element, {
          signal,
          query,
          ...(options.known ? { known: options.known } : {}),
          ...(options.each ? { each: options.each } : {}),
        });
        tellListRead({ method, path, total: answer.total, skipped: answer.skipped });
        return answer;
      }
    }
  }

  /** `call`'s work: `unread` answers a list unread. */
  async function sendCall(endpoint: AnyEndpoint, args: unknown[], unread: boolean): Promise<unknown> {
    const input = (args[0] ?? {}) as Record<string, unknown>;
    const given = args[1];
    const options = {
      ...((given instanceof AbortSignal ? { signal: given } : (given ?? {})) as Parameters<
        typeof exchange
      >[4]),
      unread,
    };
    const query = queryOf(endpoint, input.query as Record<string, unknown> | undefined);
    const send = (template: string) =>
      exchange(endpoint, pathOf(template, input), query, input.body, options);
    try {
      return await (endpoint.fallbackPaths.length ? withFallbackPaths(endpoint, send) : send(endpoint.path));
    } catch (err) {
      if (endpoint.offered && err instanceof RejectedError && (err.status === 404 || err.status === 405))
        return null;
      throw err;
    }
  }

  /** Sends `endpoint` with its path parameters, query and body, and reads its answer. */
  async function call<E extends AnyEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<EndpointAnswer<E>> {
    return (await sendCall(endpoint, args, false)) as EndpointAnswer<E>;
  }

  /**
   * As `call` for a list endpoint, the answer fingerprinted and left unread (`UnreadListAnswer`);
   * null where `call` answers null (a list the service does not offer).
   */
  async function callUnread<E extends ListEndpoint>(
    endpoint: E,
    ...args: CallArgs<E>
  ): Promise<UnreadListAnswer<EndpointItem<E>> | (E['offered'] extends true ? null : never)> {
    return (await sendCall(endpoint, args, true)) as UnreadListAnswer<EndpointItem<E>>;
  }

  return {
    get requestCount(): number {
      return http.requestCount;
    },
    /** Told of every list read: its size and the items that could not be read. */
    onListRead(listener: (read: ListRead) => void): () => void {
      listReads.add(listener);
      return () => listReads.delete(listener);
    },
    call,
    callUnread,
    /**
     * PUT raw bytes to an upload address the service gave (absolute, no token header, as the
     * spec shows); a stream needs its `size`.
     */
    upload: (uploadUrl: string, bytes: UploadBody, mime: string, signal?: AbortSignal, size?: number) =>
      http.upload(uploadUrl, bytes, mime, signal, size),
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;

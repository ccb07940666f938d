import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { describeZodError } from '../../../shared/errors';
import { elementSpans, fingerprintOf, workSlice, yieldToLoop } from './list-elements';
import type { Answer } from './service-clock';
import {
  AbortedError,
  NetworkError,
  neverConnected,
  RejectedError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from './errors';

/** What an upload PUT sends: bytes in memory, or a stream read as it goes (progress). */
export type UploadBody = Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array<ArrayBuffer>>;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ConnectionSettings {
  /** The service address ending with `/2.0`. */
  baseUrl: string;
  token: string;
  /** `svc-api-token` (the spec) or `gd-api-token` (GoodDay). */
  tokenHeader?: string;
  timeoutMs?: number;
  fetch?: FetchLike;
  /** Told one line per failed request; never given the token. */
  log?: (message: string) => void;
  /**
   * Shown every 2xx answer's text with its `Date` header (the service clock learns from them);
   * one that throws is ignored, the answer stands.
   */
  onAnswer?: (answer: Answer) => void;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** An element of a list answer that did not match its schema: skipped, the rest still read. */
export interface UnreadableItem {
  /** Its place in the answer's array. */
  index: number;
  /** Its `id` when it has a string one. */
  id: string | null;
  /** The first field at fault inside the item, e.g. `status.name`. */
  field: string;
  /** Why, e.g. `status.name: Invalid input: expected string, received null`. */
  message: string;
}

/** What one list read gave: the items read and those skipped. */
export interface ListAnswer<T> {
  items: T[];
  skipped: UnreadableItem[];
}

/** Elements of a list answer the caller already holds as they are, by fingerprint. */
export interface KnownElements {
  /** The id of the item stored from an element with this fingerprint, while it is stored so. */
  idOf(fingerprint: string): string | undefined;
  /**
   * The ids of the items of a whole answer with this fingerprint (`wholeFingerprintOf`), when
   * every one of them is still stored as that answer had it: nothing of it is read again.
   */
  wholeAnswer?(fingerprint: string): readonly string[] | undefined;
}

/** A list read element by element with fingerprints (see `createHttp().fingerprintedList`). */
export interface FingerprintedListAnswer<T> extends ListAnswer<T> {
  /** The fingerprint of each of `items`, in order (null when the answer was read whole). */
  fingerprints: (string | null)[];
  /** Ids of the elements `known` holds already: neither parsed nor in `items`. */
  unchanged: string[];
  /** The fingerprint of the whole answer (null without `known`, or when the answer was read whole). */
  whole: string | null;
  /** How many elements the answer held. */
  total: number;
}

/**
 * One HTTP exchange with the service: adds the token header, applies the timeout and the
 * caller's AbortSignal, classifies failures into the error classes and parses the body with the
 * given schema. The token lives only in the header, so no URL, message or log line carries it.
 */
export function createHttp(settings: ConnectionSettings) {
  const base = settings.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = settings.fetch ?? ((input, init) => fetch(input, init));
  const header = settings.tokenHeader ?? 'svc-api-token';
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let requests = 0;

  /**
   * Sends one request; `init.url` overrides the service address (upload addresses). Requests
   * that carry the token never follow a redirect to another origin: fetch would send the token
   * header along (it drops only `authorization` and cookies), so such an answer is refused, naming
   * the address. A redirect within the service's origin is followed (at most 5).
   */
  async function send(
    method: string,
    path: string,
    options: RequestOptions,
    init: {
      url?: string;
      headers?: Record<string, string>;
      body?: UploadBody | string;
      /** The timeout covers the wait for the headers only (a download's body may take long). */
      headersOnly?: boolean;
      /** What the answer may be (default JSON). */
      accept?: string;
    } = {},
  ): Promise<Response> {
    const url = new URL(init.url ?? base + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const timer = init.headersOnly ? new AbortController() : undefined;
    const timeout = timer?.signal ?? AbortSignal.timeout(timeoutMs);
    const timerId = timer ? setTimeout(() => timer.abort(), timeoutMs) : undefined;
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const withToken = init.headers === undefined;
    const headers: Record<string, string> = init.headers ?? {
      [header]: settings.token,
      accept: init.accept ?? 'application/json',
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    try {
      let target = url;
      let currentMethod = method;
      let body: UploadBody | string | null =
        init.body ?? (options.body === undefined ? null : JSON.stringify(options.body));
      for (let hop = 0; ; hop++) {
        requests++;
        let res: Response;
        try {
          // A streamed body is sent with its length (no chunked encoding): upload stores want it.
          const streamed = body instanceof ReadableStream;
          res = await doFetch(target.toString(), {
            method: currentMethod,
            headers,
            body,
            signal,
            ...(withToken ? { redirect: 'manual' } : {}),
            ...(streamed ? { duplex: 'half' } : {}),
          } as RequestInit);
        } catch (err) {
          if (options.signal?.aborted) throw new AbortedError(method, path, 'cancelled');
          if (timeout.aborted) throw new TimeoutError(method, path, `no answer within ${timeoutMs} ms`);
          const cause =
            err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
          throw new NetworkError(method, path, cause, neverConnected(err));
        }
        const location = res.headers.get('location');
        if (!withToken || !REDIRECTS.has(res.status) || location === null) return res;
        const next = new URL(location, target);
        if (next.origin !== url.origin) {
          throw new RejectedError(
            method,
            path,
            res.status,
            `the service redirected to another address (${next.origin}); the token is not sent there. Check the account's service address`,
          );
        }
        if (hop >= MAX_REDIRECTS) throw new RejectedError(method, path, res.status, 'too many redirects');
        // As fetch does: 303, and 301/302 after a POST, go on as a GET without a body.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && currentMethod === 'POST')) {
          currentMethod = 'GET';
          body = null;
          delete headers['content-type'];
        }
        target = next;
      }
    } finally {
      clearTimeout(timerId);
    }
  }

  async function readText(
    method: string,
    path: string,
    res: Response,
    signal?: AbortSignal,
  ): Promise<string> {
    try {
      return await res.text();
    } catch (err) {
      if (signal?.aborted) throw new AbortedError(method, path, 'cancelled');
      throw new NetworkError(
        method,
        path,
        `response cut off: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  function errorMessageOf(text: string): string {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (
        parsed &&
        typeof parsed === 'object' &&
        typeof (parsed as { errorMessage?: unknown }).errorMessage === 'string'
      ) {
        return (parsed as { errorMessage: string }).errorMessage;
      }
    } catch {
      // not JSON: fall through to the text itself
    }
    return text.slice(0, 300) || 'no reason given';
  }

  /** Sends a request and checks the status; returns the body text of a 2xx. */
  async function exchange(
    method: string,
    path: string,
    options: RequestOptions,
    init?: Parameters<typeof send>[3],
  ): Promise<string> {
    const res = await send(method, path, options, init);
    if (res.ok) {
      const text = await readText(method, path, res, options.signal);
      try {
        settings.onAnswer?.({ method, path, date: res.headers.get('date'), text });
      } catch {
        // An observer's failure is its own; the answer was read.
      }
      return text;
    }
    return exchangeFailed(method, path, res, options.signal);
  }

  /**
   * As `exchange`, for a large answer read again and again: its bytes are fingerprinted as they
   * arrive (SHA-1 of the UTF-8 text, so equal to `wholeFingerprintOf` of the decoded text: the
   * fingerprints kept from earlier reads stay valid), and the text is decoded only when asked,
   * piece by piece with the event loop given back between pieces. An answer the caller already
   * holds whole is thus never decoded, copied into one buffer or hashed in one stretch.
   */
  async function exchangeFingerprinted(
    method: string,
    path: string,
    options: RequestOptions,
  ): Promise<{ whole: string; text(): Promise<string> }> {
    const res = await send(method, path, options);
    if (!res.ok) return exchangeFailed(method, path, res, options.signal);
    const digest = createHash('sha1');
    const chunks: Uint8Array[] = [];
    const slice = workSlice();
    try {
      // An answer already received whole comes in many chunks without a wait between them.
      if (res.body)
        for await (const chunk of res.body) {
          digest.update(chunk);
          chunks.push(chunk);
          if (slice.due()) {
            await yieldToLoop();
            slice.reset();
          }
        }
    } catch (err) {
      if (options.signal?.aborted) throw new AbortedError(method, path, 'cancelled');
      throw new NetworkError(
        method,
        path,
        `response cut off: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    let decoded: Promise<string> | undefined;
    const text = (): Promise<string> => (decoded ??= decodeInSlices(chunks));
    const date = res.headers.get('date');
    // The observer (the service clock) looks at the text only while it learns: decoded then alone.
    let observed: string | undefined;
    try {
      settings.onAnswer?.({
        method,
        path,
        date,
        get text() {
          return (observed ??= new TextDecoder().decode(Buffer.concat(chunks)));
        },
      });
    } catch {
      // An observer's failure is its own; the answer was read.
    }
    return { whole: digest.digest('base64'), text };
  }

  /** Classifies a non-2xx answer (or a 2xx with no body where one was needed) and throws. */
  async function exchangeFailed(
    method: string,
    path: string,
    res: Response,
    signal: AbortSignal | undefined,
  ): Promise<never> {
    const text = await readText(method, path, res, signal);
    if (res.ok) throw new ResponseShapeError(method, path, 'body', 'the answer has no body');
    const reason = errorMessageOf(text);
    settings.log?.(`${method} ${path} answered ${res.status}: ${reason}`);
    if (res.status === 401) throw new UnauthorizedError(method, path, reason);
    if (res.status === 429 || res.status >= 500) {
      const retryAfter = Number(res.headers.get('retry-after'));
      throw new ServerError(
        method,
        path,
        res.status,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
        reason,
      );
    }
    throw new RejectedError(method, path, res.status, reason);
  }

  function logSkipped(method: string, path: string, skipped: readonly UnreadableItem[], total: number): void {
    if (skipped.length) {
      settings.log?.(
        `${method} ${path}: ${skipped.length} of ${total} items unreadable (${skipped[0]?.message})`,
      );
    }
  }

  return {
    /** How many requests were sent (for tests and benchmarks). */
    get requestCount(): number {
      return requests;
    },

    /** A read or write whose 2xx body must match `schema`. */
    async json<S extends z.ZodType>(
      method: string,
      path: string,
      schema: S,
      options: RequestOptions = {},
    ): Promise<z.output<S>> {
      const text = await exchange(method, path, options);
      return readBody(method, path, text, schema);
    },

    /**
     * A GET whose 2xx body is streamed to the caller (an attachment's bytes), with its length
     * and type when the service sends them. The timeout covers the wait for the headers; the
     * caller's signal stops the body.
     */
    async download(
      path: string,
      signal?: AbortSignal,
    ): Promise<{ body: ReadableStream<Uint8Array>; size: number | null; mime: string | null }> {
      const res = await send('GET', path, { signal }, { accept: '*/*', headersOnly: true });
      if (!res.ok || !res.body) {
        await exchangeFailed('GET', path, res, signal);
      }
      const length = Number(res.headers.get('content-length'));
      return {
        body: res.body as ReadableStream<Uint8Array>,
        size: res.headers.has('content-length') && Number.isFinite(length) ? length : null,
        mime: res.headers.get('content-type'),
      };
    },

    /**
     * A create whose answer is the new item on one service and `OK` on another: the item
     * parsed with `schema`, or null for `OK` (plain or as a JSON string) or an empty body.
     */
    async itemOrOk<S extends z.ZodType>(
      method: string,
      path: string,
      schema: S,
      options: RequestOptions = {},
    ): Promise<z.output<S> | null> {
      const text = await exchange(method, path, options);
      const bare = text.trim();
      if (bare === '' || bare === 'OK' || bare === '"OK"') return null;
      return readBody(method, path, text, schema);
    },

    /**
     * A read whose 2xx body is a JSON array of `item`s. An element that does not match is
     * skipped and described, never the whole list: one odd record must not hide the others.
     */
    async list<S extends z.ZodType>(
      method: string,
      path: string,
      item: S,
      options: RequestOptions = {},
    ): Promise<ListAnswer<z.output<S>>> {
      const text = await exchange(method, path, options);
      const body = parseJsonBody(method, path, text);
      if (!Array.isArray(body)) {
        throw new ResponseShapeError(method, path, 'body', 'body: expected an array');
      }
      const items: z.output<S>[] = [];
      const skipped: UnreadableItem[] = [];
      body.forEach((element: unknown, index) => {
        const read = readElement(item, element, index);
        if ('skipped' in read) skipped.push(read.skipped);
        else items.push(read.item);
      });
      logSkipped(method, path, skipped, body.length);
      return { items, skipped };
    },

    /**
     * As `list`, for a large list read again and again (a project's tasks): the answer is cut
     * into its elements, yielding to the event loop every few milliseconds so no other call
     * waits long behind it, and each element is fingerprinted. An element `known` holds is
     * neither parsed nor checked again: its id is answered in `unchanged`. The others are read
     * as `list` reads them, each with its fingerprint.
     */
    async fingerprintedList<S extends z.ZodType>(
      method: string,
      path: string,
      item: S,
      options: RequestOptions & { known?: KnownElements } = {},
    ): Promise<FingerprintedListAnswer<z.output<S>>> {
      let text: string;
      let whole: string | null = null;
      if (options.known) {
        const answer = await exchangeFingerprinted(method, path, options);
        whole = answer.whole;
        const same = options.known.wholeAnswer?.(whole);
        if (same) {
          return {
            items: [],
            skipped: [],
            fingerprints: [],
            unchanged: [...same],
            whole,
            total: same.length,
          };
        }
        text = await answer.text();
      } else text = await exchange(method, path, options);
      const spans = await elementSpans(text);
      if (!spans) {
        // Not an array of objects as far as the scan tells: read whole, which names the fault.
        const body = parseJsonBody(method, path, text);
        if (!Array.isArray(body))
          throw new ResponseShapeError(method, path, 'body', 'body: expected an array');
        const items: z.output<S>[] = [];
        const skipped: UnreadableItem[] = [];
        body.forEach((element: unknown, index) => {
          const read = readElement(item, element, index);
          if ('skipped' in read) skipped.push(read.skipped);
          else items.push(read.item);
        });
        logSkipped(method, path, skipped, body.length);
        const fingerprints = items.map(() => null);
        return { items, skipped, fingerprints, unchanged: [], whole: null, total: body.length };
      }
      const items: z.output<S>[] = [];
      const fingerprints: string[] = [];
      const skipped: UnreadableItem[] = [];
      const unchanged: string[] = [];
      const slice = workSlice();
      for (const [index, span] of spans.entries()) {
        const elementText = text.slice(span.start, span.end);
        const fingerprint = fingerprintOf(elementText);
        const id = options.known?.idOf(fingerprint);
        if (id !== undefined) unchanged.push(id);
        else {
          const read = readElement(item, parseJsonBody(method, path, elementText), index);
          if ('skipped' in read) skipped.push(read.skipped);
          else {
            items.push(read.item);
            fingerprints.push(fingerprint);
          }
        }
        if (slice.due()) {
          await yieldToLoop();
          slice.reset();
        }
      }
      logSkipped(method, path, skipped, spans.length);
      return { items, skipped, fingerprints, unchanged, whole, total: spans.length };
    },

    /** A write whose response the spec does not show: `OK`, an empty body or any JSON is success. */
    async write(method: string, path: string, options: RequestOptions = {}): Promise<void> {
      await exchange(method, path, options);
    },

    /**
     * PUT raw bytes to an absolute upload address (no service header, as the spec shows). A
     * stream needs its `size`, sent as Content-Length.
     */
    async upload(
      uploadUrl: string,
      bytes: UploadBody,
      mime: string,
      signal?: AbortSignal,
      size?: number,
    ): Promise<void> {
      const headers: Record<string, string> = { 'content-type': mime };
      if (size !== undefined) headers['content-length'] = String(size);
      await exchange(
        'PUT',
        new URL(uploadUrl).pathname,
        { signal },
        { url: uploadUrl, headers, body: bytes },
      );
    },
  };
}

export type Http = ReturnType<typeof createHttp>;

/**
 * The text of an answer received in `chunks` (UTF-8, a leading byte order mark dropped, as
 * `Response.text()` reads it), decoded a chunk at a time with the event loop given back every
 * few milliseconds.
 */
async function decodeInSlices(chunks: readonly Uint8Array[]): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  const slice = workSlice();
  for (const chunk of chunks) {
    parts.push(decoder.decode(chunk, { stream: true }));
    if (slice.due()) {
      await yieldToLoop();
      slice.reset();
    }
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** One element of a list answer read with `item`: the item, or why it was skipped. */
function readElement<S extends z.ZodType>(
  item: S,
  element: unknown,
  index: number,
): { item: z.output<S> } | { skipped: UnreadableItem } {
  const parsed = item.safeParse(element);
  if (parsed.success) return { item: parsed.data };
  const raw = element && typeof element === 'object' ? (element as { id?: unknown }).id : undefined;
  const { field, message } = describeZodError(parsed.error, 'item');
  return { skipped: { index, id: typeof raw === 'string' ? raw : null, field, message } };
}

/** A 2xx answer's text as JSON; a body that is not JSON is named as the fault. */
function parseJsonBody(method: string, path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseShapeError(method, path, 'body', `body is not JSON: ${text.slice(0, 80)}`);
  }
}

/** A 2xx answer's text read with `schema`; the first field that does not match is named. */
function readBody<S extends z.ZodType>(method: string, path: string, text: string, schema: S): z.output<S> {
  const parsed = schema.safeParse(parseJsonBody(method, path, text));
  if (!parsed.success) {
    const { field, message } = describeZodError(parsed.error, 'body');
    throw new ResponseShapeError(method, path, field, message);
  }
  return parsed.data;
}

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { finished, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FetchLike } from './http';

/**
 * `fetch` for the service's own requests (a string body or none, redirects not followed), made
 * on `node:http`/`node:https` with connections kept alive, answering a standard `Response`; any
 * other request (an upload to a storage address, which may redirect) goes to the global `fetch`.
 *
 * Why not the global `fetch` for all: Node's `fetch` keeps each request's objects reachable
 * through weak references and finalization registrations (its response's stream, its request's
 * abort controller) until a full collection, and V8's young-generation collections keep what
 * those reach. Every answer's objects, about 6 KB each even one request at a time, thus moved
 * to the old generation: an initial sync of 20,000 tasks (over 20,000 requests) grew the heap
 * by about 100 MB between full collections, and V8 kept the grown heap afterwards. Requests
 * made here leave nothing behind once their answer is read.
 *
 * As `fetch` does: the answer's body is decoded (gzip, deflate, br) and its headers are the
 * service's; a 3xx is answered as it is (the caller asks for `redirect: 'manual'`); the caller's
 * signal stops the request or the body's read; a connection that fails rejects with the
 * socket's error (`connect ECONNREFUSED ...`), as `fetch`'s `cause`.
 */
export const nodeFetch: FetchLike = (input, init) => {
  const { body } = init;
  if (init.redirect !== 'manual' || (body !== undefined && body !== null && typeof body !== 'string'))
    return fetch(input, init);
  const url = new URL(input);
  const https = url.protocol === 'https:';
  if (!https && url.protocol !== 'http:') return fetch(input, init);
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  new Headers(init.headers).forEach((value, key) => (headers[key] = value));
  if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
  const signal = init.signal ?? undefined;
  const method = init.method ?? 'GET';
  const send = (retried: boolean): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(
        url,
        { method, headers, agent: https ? HTTPS_AGENT : HTTP_AGENT, ...(signal ? { signal } : {}) },
        (res) => {
          try {
            resolve(responseOf(res, method));
          } catch (err) {
            res.destroy();
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        },
      );
      req.once('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive connection the service closed as this read was sent on it (it closes idle
        // ones): the read never reached it, and is sent once more on a new connection, as Node's
        // documentation advises. A write is not: whether it arrived is not known.
        if (
          !retried &&
          req.reusedSocket &&
          !signal?.aborted &&
          IDEMPOTENT.has(method) &&
          RESET.has(err.code ?? '')
        )
          resolve(send(true));
        else reject(err);
      });
      req.end(typeof body === 'string' ? body : undefined);
    });
  return send(false);
};

const IDEMPOTENT = new Set(['GET', 'HEAD']);
const RESET = new Set(['ECONNRESET', 'EPIPE']);

// Connections are kept alive between requests, as `fetch` keeps them.
const HTTP_AGENT = new HttpAgent({ keepAlive: true });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true });

/** Statuses whose answer has no body (`new Response` refuses one for them). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** The standard `Response` of a `node:http` answer, its body decoded as `fetch` decodes it. */
function responseOf(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers };
  if (method === 'HEAD' || NO_BODY.has(status)) {
    res.resume();
    return new Response(null, init);
  }
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  let stream: Readable = res;
  if (decoder) {
    // A body cut off, or stopped by the signal, fails the decoded stream's read too.
    res.once('error', (err) => decoder.destroy(err));
    res.once('aborted', () => decoder.destroy(new Error('aborted')));
    stream = res.pipe(decoder);
  }
  return new Response(webStreamOf(stream), init);
}

/**
 * The chunks of a node stream as a web stream, each handed over as the socket read it.
 * `Readable.toWeb` copies every chunk (to detach it from a pool it may share): a project's task
 * list is 13 MB, read every pull, and the copies were a second 13 MB for the collector to find
 * (an answer here is never transferred, so no copy is needed). Otherwise as `toWeb`: the node
 * stream is paused while the web stream's queue is full (64 KB), its end or failure (the answer
 * cut off, the signal) ends or fails the web stream's read, and cancelling destroys it.
 */
function webStreamOf(stream: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        stream.pause();
        stream.on('data', (chunk: Buffer) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) stream.pause();
        });
        finished(stream, (err) => {
          try {
            if (err) controller.error(err);
            else controller.close();
          } catch {
            // Cancelled already: nothing waits for it.
          }
        });
      },
      pull() {
        stream.resume();
      },
      cancel() {
        stream.destroy();
      },
    },
    { highWaterMark: 1 << 16, size: (chunk) => chunk.byteLength },
  );
}

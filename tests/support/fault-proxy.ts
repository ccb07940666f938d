// A loopback HTTP proxy in front of the service that injects latency and faults, switchable at
// run time: added delay, connections dropped before the request reaches the service or after
// the service answered (it committed, the client never hears), 5xx, 429, 401 and hung responses.
// Used by the engine's sync tests and benchmarks and by the outbox's fault tests.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** When a fault fires: on the next `next` matching requests, and/or at random with `rate`. */
export interface FaultRule {
  next?: number;
  /** Probability 0..1 per matching request. */
  rate?: number;
  /** Only requests whose `METHOD /path` matches (default: all). */
  match?: RegExp;
  /** Only requests whose body (as UTF-8 text) matches, e.g. one create among several. */
  body?: RegExp;
}

export interface Faults {
  /** Added before each request is forwarded: the extra round trip. */
  delayMs: number;
  /** The connection is closed before the request reaches the service. */
  dropBefore?: FaultRule;
  /** The service handles the request; the connection is closed before its answer is sent. */
  dropAfter?: FaultRule;
  /** Answered 503 (or `status`) without reaching the service. */
  serverError?: FaultRule & { status?: number };
  /** Answered 429 with Retry-After `retryAfterSeconds` (default 0, i.e. no header) without reaching the service. */
  tooMany?: FaultRule & { retryAfterSeconds?: number };
  /** Answered 401 without reaching the service. */
  unauthorized?: FaultRule;
  /** Never answered; the connection stays open until the client gives up or the proxy closes. */
  hang?: FaultRule;
}

export type FaultName = 'dropBefore' | 'dropAfter' | 'serverError' | 'tooMany' | 'unauthorized' | 'hang';

export interface FaultProxyStats {
  /** Requests the proxy received. */
  received: number;
  /** Requests that reached the service. */
  forwarded: number;
  injected: Record<FaultName, number>;
}

export interface FaultProxy {
  /** The proxy's origin, e.g. `http://127.0.0.1:41000`. */
  origin: string;
  /** The same path as the target's base URL, on the proxy (e.g. `.../2.0`). */
  baseUrl: string;
  /** Replaces the given settings; omitted ones stay. */
  set(faults: Partial<Faults>): void;
  /** No delay, no faults. */
  reset(): void;
  /**
   * Stops listening and closes every open connection: a request is refused before it connects,
   * as with no network (the client then knows it was never sent), until `plugIn`.
   */
  unplug(): Promise<void>;
  /** Listens again on the same port. */
  plugIn(): Promise<void>;
  stats(): FaultProxyStats;
  /** The last `REQUEST_LOG_LIMIT` requests received, oldest first, as `METHOD /path`. */
  requests(): string[];
  close(): Promise<void>;
}

/** Requests `FaultProxy.requests` keeps (a campaign's proxies live for a whole run). */
const REQUEST_LOG_LIMIT = 10_000;

export interface FaultProxyOptions {
  /** The service base URL, e.g. `http://127.0.0.1:40000/2.0`. */
  target: string;
  faults?: Partial<Faults>;
  /** Seedable randomness for `rate` rules (default Math.random). */
  random?: () => number;
}

const FAULT_ORDER: FaultName[] = ['hang', 'dropBefore', 'unauthorized', 'tooMany', 'serverError'];

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const random = options.random ?? Math.random;
  let faults: Faults = { delayMs: 0, ...options.faults };
  const stats: FaultProxyStats = {
    received: 0,
    forwarded: 0,
    injected: { dropBefore: 0, dropAfter: 0, serverError: 0, tooMany: 0, unauthorized: 0, hang: 0 },
  };
  const requestLog: string[] = [];
  const sockets = new Set<Socket>();
  const hung = new Set<ServerResponse>();

  /** Whether a rule fires for this request; consumes one of its `next` when it does. */
  function fires(name: FaultName, key: string, body: Buffer): boolean {
    const rule = faults[name];
    if (!rule || (rule.match && !rule.match.test(key))) return false;
    if (rule.body && !rule.body.test(body.toString('utf8'))) return false;
    if (rule.next && rule.next > 0) {
      rule.next--;
      stats.injected[name]++;
      return true;
    }
    if (rule.rate && random() < rule.rate) {
      stats.injected[name]++;
      return true;
    }
    return false;
  }

  function forward(
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: target.host };
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 502,
              headers: res.headers as Record<string, string | string[]>,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.received++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const key = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
    if (requestLog.push(key) > REQUEST_LOG_LIMIT) requestLog.shift();
    if (faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs));
    for (const name of FAULT_ORDER) {
      if (!fires(name, key, body)) continue;
      switch (name) {
        case 'hang':
          hung.add(res);
          res.on('close', () => hung.delete(res));
          return;
        case 'dropBefore':
          req.socket.destroy();
          return;
        case 'unauthorized':
          res
            .writeHead(401, { 'content-type': 'application/json' })
            .end(JSON.stringify({ errorMessage: 'injected 401' }));
          return;
        case 'tooMany': {
          const after = faults.tooMany?.retryAfterSeconds ?? 0;
          res.writeHead(429, after ? { 'retry-after': String(after) } : {}).end('injected 429');
          return;
        }
        case 'serverError':
          res.writeHead(faults.serverError?.status ?? 503).end('injected server error');
          return;
        case 'dropAfter':
          break;
      }
    }
    let answer: Awaited<ReturnType<typeof forward>>;
    try {
      stats.forwarded++;
      answer = await forward(req, body);
    } catch {
      res.writeHead(502).end('proxy: service unreachable');
      return;
    }
    if (fires('dropAfter', key, body)) {
      req.socket.destroy();
      return;
    }
    const { 'transfer-encoding': _te, connection: _c, ...headers } = answer.headers;
    res
      .writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) })
      .end(answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const closeAll = (): Promise<void> => {
    for (const res of hung) res.destroy();
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await listen(0);
  const port = (server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: origin + target.pathname.replace(/\/+$/, ''),
    set(patch) {
      faults = { ...faults, ...patch };
    },
    reset() {
      faults = { delayMs: 0 };
    },
    stats: () => ({ ...stats, injected: { ...stats.injected } }),
    requests: () => [...requestLog],
    unplug: closeAll,
    plugIn: () => listen(port),
    close: async () => {
      if (server.listening) await closeAll();
      else for (const socket of sockets) socket.destroy();
    },
  };
}

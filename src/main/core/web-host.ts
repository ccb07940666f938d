import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { resolve, extname } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import mime from 'mime';
import type { Core } from './core';
import type { IpcResult } from '../../shared/ipc/channel';
import { contentSecurityPolicy, resolveStaticPath } from './static-files';
import type { FirstScreen } from './accounts/first-screen';
import { settledWithin } from './wait-at-most';

/** What the web host needs of the core: the same dispatch and events as Electron's IPC. */
export type CoreFacade = Pick<Core, 'dispatch' | 'events'>;

export interface WebHostOptions {
  /**
   * The core, or the promise of it while it opens: the host listens (and its address can be
   * given out) before the core is loaded, so a browser loads the page meanwhile; calls that come
   * before it is open wait for it, and a core that fails to open answers each with the reason.
   */
  core: CoreFacade | Promise<CoreFacade>;
  /** Folder holding the built renderer (index.html and assets). */
  rendererDir: string;
  port?: number;
  host?: string;
  /**
   * Called once when a page has been served its script (then the browser evaluates it, which
   * takes a while and needs nothing of this host), or at the latest when its bridge connects:
   * when work for the page can run without delaying the files it asks for.
   */
  onPageServed?: () => void;
  /** Called at each request for a file, before it is served. */
  onRequest?: () => void;
}

/** How long after a script or style was served no other file is asked for: the page has them all. */
const PAGE_SERVED_QUIET_MS = 20;

export interface WebHost {
  /** The page address, carrying the per-run secret in its fragment. */
  url: string;
  port: number;
  /**
   * Answers the page's first reads from the first-screen record until the core is open (see
   * accounts/first-screen.ts); then, if any was, tells the page to read again from the core.
   */
  serveFirstScreen(screen: FirstScreen): void;
  close(): Promise<void>;
}

const CSP = contentSecurityPolicy({ bridgeSocket: true });

/** Largest bridge message accepted from a page (dropped-file chunks travel in several). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * Serves the renderer and the core's handler map over a WebSocket on loopback. The secret is
 * made per run and travels only in the page URL's fragment; a socket that does not present it,
 * or comes from another origin, is refused, so no other local page can drive the core.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1';
  const secret = randomBytes(24).toString('base64url');
  const rendererDir = resolve(options.rendererDir);

  const files = createFileMemory();
  let served = false;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const pageServed = (): void => {
    clearTimeout(quiet);
    if (served) return;
    served = true;
    options.onPageServed?.();
  };
  const server = createServer((req, res) => {
    clearTimeout(quiet);
    options.onRequest?.();
    const file = serveStatic(rendererDir, files, req, res);
    if (!served && file && /\.(?:js|css)$/.test(file)) quiet = setTimeout(pageServed, PAGE_SERVED_QUIET_MS);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const sockets = new Set<WebSocket>();

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://${host}`);
    const origin = req.headers.origin;
    const expectedOrigin = `http://${host}:${(server.address() as { port: number }).port}`;
    if (
      url.pathname !== '/bridge' ||
      !secretMatches(url.searchParams.get('secret'), secret) ||
      origin !== expectedOrigin
    ) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    pageServed();
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data) => void onMessage(ws, data.toString()));
    });
  });

  async function onMessage(ws: WebSocket, text: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const { id, channel, arg } = message as { id?: unknown; channel?: unknown; arg?: unknown };
    if (typeof id !== 'number') return;
    // Answered in this turn, before the core's opening (a later turn) can be seen: the page gets
    // the record's answers before the change that replaces them.
    const early = firstScreen?.answer(channel, arg);
    if (early) {
      ws.send(JSON.stringify({ id, result: early }));
      return;
    }
    const answered = core.then(
      (opened) => opened.dispatch(channel, arg),
      (err: unknown): IpcResult<never> => ({
        ok: false,
        error: { type: 'internal', message: `The core did not open: ${describe(err)}` },
      }),
    );
    // Kept until answered: a close waits for the calls made while the core opened (a change
    // among them is sent to the core before it closes, not dropped).
    inFlight.add(answered);
    const result = await answered.finally(() => inFlight.delete(answered));
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, result }));
  }

  /** Calls given to the core and not answered yet. */
  const inFlight = new Set<Promise<unknown>>();

  const core = Promise.resolve(options.core);
  let firstScreen: FirstScreen | undefined;
  let coreSettled = false;
  const broadcast = (event: string, payload: unknown): void => {
    const text = JSON.stringify({ event, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  };
  /** The core is open (or failed): the record answers no more; views it answered read again. */
  const firstScreenDone = (): void => {
    const refresh = firstScreen?.coreOpened();
    firstScreen = undefined;
    if (refresh && !closed) broadcast('cache.onDidChange', refresh);
  };
  // No event comes before the core is open (it emits them); a host closed meanwhile never listens.
  let closed = false;
  let unsubscribe = (): void => {};
  core.then(
    (opened) => {
      coreSettled = true;
      if (closed) return;
      unsubscribe = opened.events.onAny(broadcast);
      firstScreenDone();
    },
    // Told to each call (`onMessage`); whoever opens the core reports the failure itself.
    () => {
      coreSettled = true;
      firstScreenDone();
    },
  );

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => done());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${port}/#secret=${secret}`,
    port,
    serveFirstScreen(screen) {
      firstScreen = screen;
      if (coreSettled) firstScreenDone();
    },
    async close() {
      clearTimeout(quiet);
      closed = true;
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((done) => server.close(() => done()));
      // The calls already made reach the core before whoever closes the host closes the core;
      // not longer than a stuck open's limit.
      await settledWithin(Promise.allSettled([...inFlight]), 10_000);
      unsubscribe();
    },
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function secretMatches(given: string | null, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A file of the renderer as last read, with the stamp that says whether it is still so. */
interface KeptFile {
  body: Buffer;
  size: number;
  mtimeMs: number;
}

/**
 * The renderer's files kept in memory once read: a page load asks for the same few files each
 * time, and the built renderer does not change while the host runs, except when a developer
 * builds it again, which each file's size and modification time (a `stat`, no read) tell.
 * Synchronous, so a file is served in the turn of the event loop its request arrives in: at start
 * the core loads on this thread in long steps, and each further turn would wait for one (the
 * files are few and small, and the host serves one user on loopback).
 */
function createFileMemory(): (file: string) => Buffer {
  const kept = new Map<string, KeptFile>();
  return (file) => {
    const { size, mtimeMs } = statSync(file);
    const known = kept.get(file);
    if (known && known.size === size && known.mtimeMs === mtimeMs) return known.body;
    const body = readFileSync(file);
    kept.set(file, { body, size, mtimeMs });
    return body;
  };
}

/**
 * The bundler names the renderer's scripts and styles by a hash of their content
 * (`assets/index-CgITUgNi.js`): such a name never changes content, so a browser may keep it.
 * `index.html`, which names them, is asked again every time.
 */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.(?:js|css|woff2?|svg|png)$/;

function serveStatic(
  root: string,
  read: (file: string) => Buffer,
  req: IncomingMessage,
  res: ServerResponse,
): string | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return undefined;
  }
  const pathname = new URL(req.url ?? '/', 'http://x').pathname;
  const file = resolveStaticPath(root, pathname);
  if (!file) {
    res.writeHead(403).end();
    return undefined;
  }
  try {
    const body = read(file);
    res.writeHead(200, {
      'Content-Type': mime.getType(extname(file)) ?? 'application/octet-stream',
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': HASHED_ASSET.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return file;
  } catch {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    return undefined;
  }
}

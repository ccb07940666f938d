import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createDispatch } from './dispatch';
import { EventHub } from './event-hub';
import { appHandlers } from './handlers/app';
import { startWebHost, type WebHost } from './web-host';
import { serveRecord } from './accounts/first-screen';

let dir: string;
let host: WebHost;
const handler = vi.fn(appHandlers({ version: 't', transport: 'web' })['app.info']);
const events = new EventHub();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-webhost-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Workdesk</title>');
  host = await startWebHost({
    core: { dispatch: createDispatch({ 'app.info': handler }), events },
    rendererDir: dir,
  });
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

const secret = () => new URL(host.url).hash.replace('#secret=', '');
const origin = () => `http://127.0.0.1:${host.port}`;

function connect(query: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(ws: WebSocket, id: number, channel: unknown, arg: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (message.id !== id) return;
      ws.off('message', onMessage);
      resolve(message.result);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, channel, arg }));
  });
}

function get(path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: host.port, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('web host bridge', () => {
  it('refuses a socket without the secret or from another origin', async () => {
    await expect(connect('secret=wrong', { origin: origin() })).rejects.toThrow('HTTP 403');
    await expect(connect(`secret=${secret()}`, { origin: 'http://evil.example' })).rejects.toThrow(
      'HTTP 403',
    );
  });

  it('answers a contract channel, refuses unknown channels and malformed arguments, calling nothing', async () => {
    const ws = await connect(`secret=${secret()}`, { origin: origin() });
    expect(await call(ws, 1, 'app.info', {})).toMatchObject({ ok: true, value: { version: 't' } });
    expect(handler).toHaveBeenCalledOnce();
    expect(await call(ws, 2, 'fs.readFile', {})).toMatchObject({
      ok: false,
      error: { type: 'unknown-channel' },
    });
    expect(await call(ws, 3, 'app.info', { extra: 1 })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'argument' },
    });
    expect(handler).toHaveBeenCalledOnce();
    ws.close();
  });

  it('pushes core events to connected pages', async () => {
    const ws = await connect(`secret=${secret()}`, { origin: origin() });
    const received = new Promise((resolve) =>
      ws.once('message', (data) => resolve(JSON.parse(data.toString()))),
    );
    events.emit('app.onDidLog', { level: 'info', message: 'hello' });
    expect(await received).toEqual({ event: 'app.onDidLog', payload: { level: 'info', message: 'hello' } });
    ws.close();
  });
});

describe('web host files', () => {
  it('serves the renderer with the CSP, and nothing outside its folder', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(String(index.headers['content-security-policy'])).toContain("script-src 'self'");
    expect((await get('/..%2f..%2fetc%2fpasswd')).status).toBe(403);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await get('/missing.js')).status).toBe(404);
  });

  it('lets the browser keep the hashed scripts and styles, never index.html', async () => {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'assets', 'index-CgITUgNi.js'), 'export {};');
    writeFileSync(join(dir, 'assets', 'notes.js'), 'export {};');
    const script = await get('/assets/index-CgITUgNi.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/notes.js')).headers['cache-control']).toBe('no-cache');
    expect((await get('/')).headers['cache-control']).toBe('no-cache');
  });

  it('serves a file from memory while it is unchanged, and its new content once rebuilt', async () => {
    const file = join(dir, 'page.html');
    writeFileSync(file, '<p>first build</p>');
    expect((await get('/page.html')).body).toBe('<p>first build</p>');
    expect((await get('/page.html')).body).toBe('<p>first build</p>');
    // A rebuild: new content (another length), then the same length with a new time.
    writeFileSync(file, '<p>second build, longer</p>');
    expect((await get('/page.html')).body).toBe('<p>second build, longer</p>');
    writeFileSync(file, '<p>third build, longer!</p>');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect((await get('/page.html')).body).toBe('<p>third build, longer!</p>');
    rmSync(file);
    expect((await get('/page.html')).status).toBe(404);
  });

  it('tells once that a page was served its script, or at the latest that its bridge connected', async () => {
    const served = vi.fn();
    const page = await startWebHost({
      core: { dispatch: createDispatch({}), events },
      rendererDir: dir,
      onPageServed: served,
    });
    const fetchFile = (path: string) =>
      fetch(`http://127.0.0.1:${page.port}${path}`).then((res) => res.text());
    try {
      mkdirSync(join(dir, 'assets'), { recursive: true });
      writeFileSync(join(dir, 'assets', 'index-CgITUgNi.js'), 'export {};');
      await fetchFile('/');
      await new Promise((resolve) => setTimeout(resolve, 60));
      // The page itself is not enough: its script is still to be asked for.
      expect(served).not.toHaveBeenCalled();
      await fetchFile('/assets/index-CgITUgNi.js');
      await vi.waitFor(() => expect(served).toHaveBeenCalledOnce());
      await fetchFile('/assets/index-CgITUgNi.js');
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(served).toHaveBeenCalledOnce();
    } finally {
      await page.close();
    }

    const connected = vi.fn();
    const cached = await startWebHost({
      core: { dispatch: createDispatch({}), events },
      rendererDir: dir,
      onPageServed: connected,
    });
    try {
      // A page whose script the browser kept: the bridge's connection is the sign.
      const secretOf = new URL(cached.url).hash.replace('#secret=', '');
      const ws = new WebSocket(`ws://127.0.0.1:${cached.port}/bridge?secret=${secretOf}`, {
        headers: { origin: `http://127.0.0.1:${cached.port}` },
      });
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      expect(connected).toHaveBeenCalledOnce();
      ws.close();
    } finally {
      await cached.close();
    }
  });
});

describe('web host started before its core is open', () => {
  /** A page's bridge on `opened`, connected. */
  async function bridgeOf(opened: WebHost): Promise<WebSocket> {
    const secretOf = new URL(opened.url).hash.replace('#secret=', '');
    const ws = new WebSocket(`ws://127.0.0.1:${opened.port}/bridge?secret=${secretOf}`, {
      headers: { origin: `http://127.0.0.1:${opened.port}` },
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return ws;
  }

  it('serves the page at once, answers calls made meanwhile once the core is open, then its events', async () => {
    let openCore: (core: {
      dispatch: ReturnType<typeof createDispatch>;
      events: EventHub;
    }) => void = () => {};
    const later = new EventHub();
    const early = await startWebHost({
      core: new Promise((resolve) => (openCore = resolve)),
      rendererDir: dir,
    });
    try {
      expect((await fetchFrom(early.port, '/')).status).toBe(200);
      const ws = await bridgeOf(early);
      const received: unknown[] = [];
      ws.on('message', (data: Buffer) => received.push(JSON.parse(data.toString())));
      ws.send(JSON.stringify({ id: 1, channel: 'app.info', arg: {} }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received).toEqual([]);
      openCore({ dispatch: createDispatch({ 'app.info': handler }), events: later });
      await vi.waitFor(() => expect(received).toHaveLength(1));
      expect(received[0]).toMatchObject({
        id: 1,
        result: { ok: true, value: { version: 't', transport: 'web' } },
      });
      later.emit('app.onDidLog', { level: 'info', message: 'opened' });
      await vi.waitFor(() => expect(received).toHaveLength(2));
      expect(received[1]).toEqual({ event: 'app.onDidLog', payload: { level: 'info', message: 'opened' } });
      ws.close();
    } finally {
      await early.close();
    }
  });

  it("answers the page's first reads from the first-screen record while the core opens, then asks it to read again from the core", async () => {
    let openCore: (core: {
      dispatch: ReturnType<typeof createDispatch>;
      events: EventHub;
    }) => void = () => {};
    const early = await startWebHost({
      core: new Promise((resolve) => (openCore = resolve)),
      rendererDir: dir,
    });
    const recorded = { name: 'Workdesk', version: 'recorded', coreRuntime: 'Node', transport: 'web' };
    early.serveFirstScreen(
      serveRecord('first-screen.json', {
        format: 2,
        appVersion: 't',
        accountId: 'acc-1',
        cacheFile: 'accounts/acc-1/cache.sqlite',
        cacheIdentity: '{}',
        writtenAt: '2026-11-27T20:00:00.000Z',
        answers: [{ channel: 'app.info', arg: {}, value: recorded }],
        reads: ['app.info', 'settings.get'],
        refresh: { entities: ['tasks', 'projects'] },
      }),
    );
    try {
      const ws = await bridgeOf(early);
      const received: unknown[] = [];
      ws.on('message', (data: Buffer) => received.push(JSON.parse(data.toString())));
      // Held by the record: answered with the core still loading.
      expect(await call(ws, 1, 'app.info', {})).toEqual({ ok: true, value: recorded });
      // Not held: it waits for the core.
      ws.send(JSON.stringify({ id: 2, channel: 'settings.get', arg: {} }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received).toHaveLength(1);
      openCore({ dispatch: createDispatch({ 'app.info': handler }), events: new EventHub() });
      await vi.waitFor(() => expect(received).toHaveLength(3));
      expect(received).toContainEqual({
        event: 'cache.onDidChange',
        payload: { entities: ['tasks', 'projects'] },
      });
      expect(received).toContainEqual(
        expect.objectContaining({ id: 2, result: expect.objectContaining({ ok: false }) }),
      );
      // The core open: it answers, not the record.
      expect(await call(ws, 3, 'app.info', {})).toMatchObject({ ok: true, value: { version: 't' } });
      ws.close();
    } finally {
      await early.close();
    }
  });

  it('gives the core the calls made while it opened before the host closes (a change is not dropped)', async () => {
    let openCore: (core: {
      dispatch: ReturnType<typeof createDispatch>;
      events: EventHub;
    }) => void = () => {};
    const early = await startWebHost({
      core: new Promise((resolve) => (openCore = resolve)),
      rendererDir: dir,
    });
    const ws = await bridgeOf(early);
    ws.send(JSON.stringify({ id: 1, channel: 'app.info', arg: {} }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    handler.mockClear();
    // The page's process is stopped while the core still opens: the call waits for it, then closes.
    let hostClosed = false;
    const closed = early.close().then(() => (hostClosed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Still closing: the call made before is waiting for the core.
    expect(hostClosed).toBe(false);
    openCore({ dispatch: createDispatch({ 'app.info': handler }), events: new EventHub() });
    await closed;
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('tells of each request for a file before serving it', async () => {
    const asked = vi.fn();
    const early = await startWebHost({ core: new Promise(() => {}), rendererDir: dir, onRequest: asked });
    try {
      expect((await fetchFrom(early.port, '/')).status).toBe(200);
      expect((await fetchFrom(early.port, '/missing.js')).status).toBe(404);
      expect(asked).toHaveBeenCalledTimes(2);
    } finally {
      await early.close();
    }
  });

  it('answers each call with the reason when the core could not be opened', async () => {
    const failed = Promise.reject(new Error('cache file is locked'));
    const early = await startWebHost({ core: failed, rendererDir: dir });
    try {
      const ws = await bridgeOf(early);
      const answer = await call(ws, 7, 'app.info', {});
      expect(answer).toEqual({
        ok: false,
        error: { type: 'internal', message: 'The core did not open: cache file is locked' },
      });
      ws.close();
    } finally {
      await early.close();
    }
  });
});

function fetchFrom(port: number, path: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    })
      .on('error', reject)
      .end();
  });
}

import { createServer } from 'node:http';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';

// A tiny upstream that counts what reaches it, so each fault's side of the wire is visible.
let upstreamHits: string[] = [];
const upstream = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    upstreamHits.push(`${req.method} ${req.url} ${body}`);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ path: req.url, token: req.headers['svc-api-token'] }));
  });
});

let proxy: FaultProxy;
beforeEach(async () => {
  upstreamHits = [];
  if (!upstream.listening) await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  const port = (upstream.address() as { port: number }).port;
  proxy = await startFaultProxy({ target: `http://127.0.0.1:${port}/2.0` });
});
afterEach(async () => {
  await proxy.close();
});
afterAll(async () => {
  await new Promise<void>((r) => upstream.close(() => r()));
});

const get = (path: string, init: RequestInit = {}) => fetch(`${proxy.baseUrl}${path}`, init);

describe('fault proxy', () => {
  it('forwards requests with headers and bodies when no fault is set', async () => {
    const res = await get('/tasks?x=1', {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'svc-api-token': 't' },
    });
    expect(await res.json()).toEqual({ path: '/2.0/tasks?x=1', token: 't' });
    expect(upstreamHits).toEqual(['POST /2.0/tasks?x=1 {"a":1}']);
    expect(proxy.stats()).toMatchObject({ received: 1, forwarded: 1 });
  });

  it('refuses connections while unplugged, as with no network, and forwards again once plugged in', async () => {
    expect((await get('/before')).status).toBe(200);
    await proxy.unplug();
    const refused = await get('/while').catch((err: unknown) => err);
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    await proxy.plugIn();
    expect(await (await get('/after')).json()).toMatchObject({ path: '/2.0/after' });
    expect(upstreamHits.map((hit) => hit.split(' ')[1])).toEqual(['/2.0/before', '/2.0/after']);
  });

  it('drops before the service sees the request, or after it answered', async () => {
    proxy.set({ dropBefore: { next: 1 } });
    await expect(get('/a')).rejects.toThrow();
    expect(upstreamHits).toEqual([]);
    proxy.set({ dropAfter: { next: 1 } });
    await expect(get('/b', { method: 'PUT', body: 'x' })).rejects.toThrow();
    expect(upstreamHits).toEqual(['PUT /2.0/b x']);
    expect((await get('/c')).status).toBe(200);
    expect(proxy.stats().injected).toMatchObject({ dropBefore: 1, dropAfter: 1 });
  });

  it('injects 5xx, 429 with Retry-After and 401 without reaching the service, only on matching paths', async () => {
    proxy.set({ serverError: { next: 1, status: 500 }, tooMany: { next: 1, retryAfterSeconds: 3 } });
    const first = await get('/x');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect((await get('/x')).status).toBe(500);
    proxy.set({ unauthorized: { next: 5, match: /^GET \/2\.0\/secret/ } });
    expect((await get('/open')).status).toBe(200);
    expect((await get('/secret')).status).toBe(401);
    expect(upstreamHits).toEqual(['GET /2.0/open ']);
  });

  it('hangs a request until the client gives up, and switches delay at run time', async () => {
    proxy.set({ hang: { next: 1 } });
    await expect(get('/slow', { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    proxy.set({ delayMs: 30 });
    const res = await get('/fine');
    expect(res.status).toBe(200);
    proxy.reset();
    expect((await get('/fine')).status).toBe(200);
  });

  it('fires rate rules from the given randomness', async () => {
    await proxy.close();
    const port = (upstream.address() as { port: number }).port;
    const rolls = [0.1, 0.9, 0.1];
    proxy = await startFaultProxy({
      target: `http://127.0.0.1:${port}/2.0`,
      random: () => rolls.shift() ?? 1,
      faults: { serverError: { rate: 0.5 } },
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/r')).status);
    expect(statuses).toEqual([503, 200, 503, 200]);
  });
});

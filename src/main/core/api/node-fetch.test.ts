import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFetch } from './node-fetch';

let server: Server | undefined;

/** A local HTTP server answering with `handle`; resolves with its address. */
async function serve(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

const manual = { method: 'GET', redirect: 'manual' } as const;

describe('nodeFetch: the service requests made on node:http', () => {
  it('answers a standard Response with the status, headers and body as sent', async () => {
    const base = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', date: 'Tue, 01 Dec 2026 10:00:00 GMT' });
      res.end(JSON.stringify({ path: req.url, token: req.headers['svc-api-token'] }));
    });
    const res = await nodeFetch(`${base}/2.0/tasks?closed=true`, {
      ...manual,
      headers: { 'svc-api-token': 't1' },
    });
    expect(res).toBeInstanceOf(Response);
    expect(res.ok).toBe(true);
    expect(res.status).toBe(200);
    expect(res.headers.get('date')).toBe('Tue, 01 Dec 2026 10:00:00 GMT');
    expect(await res.json()).toEqual({ path: '/2.0/tasks?closed=true', token: 't1' });
  });

  it('sends a string body with its length, and reads an answer piece by piece', async () => {
    const big = 'x'.repeat(200_000);
    const base = await serve((req, res, body) => {
      res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'], body, big }));
    });
    const res = await nodeFetch(`${base}/2.0/tasks`, {
      ...manual,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"é"}',
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
    expect(answer).toEqual({
      method: 'POST',
      length: String(Buffer.byteLength('{"title":"é"}')),
      body: '{"title":"é"}',
      big,
    });
  });

  it('hands the body over as the socket read it, not copied, and fails a read of one cut off', async () => {
    const big = 'y'.repeat(300_000);
    const base = await serve((req, res) => {
      if (req.url === '/whole') {
        res.end(big);
        return;
      }
      res.writeHead(200, { 'content-length': String(big.length) });
      // Half of what the length promises, then the connection closes.
      res.write(big.slice(0, 150_000), () => res.destroy());
    });
    const res = await nodeFetch(`${base}/whole`, manual);
    let length = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      // Node's own buffers (a slice of the socket's read), where `Readable.toWeb` made a copy of each.
      expect(Buffer.isBuffer(chunk)).toBe(true);
      length += chunk.length;
    }
    expect(length).toBe(big.length);
    const cut = await nodeFetch(`${base}/cut`, manual);
    await expect(cut.text()).rejects.toThrow(/aborted|premature|socket hang up/i);
  });

  it('reads no further than its reader takes: a reader that waits holds the socket back', async () => {
    const chunk = Buffer.alloc(256 * 1024, 120);
    const total = 64 * 1024 * 1024;
    let written = 0;
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) });
      // Writes as fast as the connection takes them.
      const more = (): void => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const res = await nodeFetch(`${base}/big`, manual);
    const reader = res.body!.getReader();
    let read = (await reader.read()).value!.length;
    await new Promise((r) => setTimeout(r, 300));
    // Without the pause, the whole 64 MB would have been taken off the socket into the stream.
    expect(written).toBeLessThan(16 * 1024 * 1024);
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      read += next.value.length;
    }
    expect(read).toBe(total);
  });

  it('decodes a gzip answer as fetch does', async () => {
    const base = await serve((req, res) => {
      expect(req.headers['accept-encoding']).toContain('gzip');
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      res.end(gzipSync('[{"id":"t1"}]'));
    });
    expect(await (await nodeFetch(`${base}/2.0/tasks`, manual)).text()).toBe('[{"id":"t1"}]');
  });

  it('answers a redirect as it is, not followed, and a 204 with no body', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/moved') res.writeHead(302, { location: 'https://elsewhere.example/' }).end();
      else res.writeHead(204).end();
    });
    const moved = await nodeFetch(`${base}/moved`, manual);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('https://elsewhere.example/');
    const empty = await nodeFetch(`${base}/empty`, { ...manual, method: 'PUT', body: '{}' });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('stops on the signal: before the answer, and during its body', async () => {
    const base = await serve((req, res) => {
      res.writeHead(200);
      res.write('[{"id":"t1"},');
      if (req.url === '/slow-head') res.flushHeaders();
      // The rest never comes: only the signal ends the read.
    });
    const before = new AbortController();
    const headersWait = nodeFetch(`${base}/x`, { ...manual, signal: before.signal });
    before.abort();
    await expect(headersWait).rejects.toThrow(/abort/i);
    const during = new AbortController();
    const res = await nodeFetch(`${base}/slow-head`, { ...manual, signal: during.signal });
    const text = res.text();
    during.abort();
    await expect(text).rejects.toThrow();
  });

  it('sends a read once more when its kept-alive connection was closed under it, never a write', async () => {
    const served = new WeakSet<object>();
    let dropped = 0;
    const base = await serve((req, res) => {
      // The second request on a connection finds it closed, as a service closing idle ones does.
      if (served.has(req.socket)) {
        dropped++;
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      res.end(`${req.method} answered`);
    });
    expect(await (await nodeFetch(`${base}/a`, manual)).text()).toBe('GET answered');
    expect(await (await nodeFetch(`${base}/b`, manual)).text()).toBe('GET answered');
    expect(dropped).toBe(1);
    await expect(nodeFetch(`${base}/c`, { ...manual, method: 'POST', body: '{}' })).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    expect(dropped).toBe(2);
  });

  it('rejects with the socket error when nothing listens', async () => {
    const base = await serve((_req, res) => res.end());
    const port = (server!.address() as AddressInfo).port;
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(nodeFetch(`${base}/x`, manual)).rejects.toThrow(new RegExp(`ECONNREFUSED.*${port}`));
  });

  it('leaves a request that may follow redirects (an upload) to the global fetch', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/upload') res.writeHead(307, { location: '/stored' }).end();
      else res.end(`stored ${req.method}`);
    });
    const res = await nodeFetch(`${base}/upload`, { method: 'PUT', body: 'bytes' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('stored PUT');
  });
});

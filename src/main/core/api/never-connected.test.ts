import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { neverConnected } from './errors';

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function fetchError(url: string): Promise<unknown> {
  try {
    await fetch(url, { method: 'POST', body: 'a change', signal: AbortSignal.timeout(4_000) });
  } catch (err) {
    return err;
  }
  throw new Error(`fetch ${url} did not fail`);
}

describe('neverConnected', () => {
  it('is true for a port that refuses: fetch made no connection', async () => {
    expect(neverConnected(await fetchError(`http://127.0.0.1:${await closedPort()}/x`))).toBe(true);
  });

  it('is false for a connection the other side cut after it was made', async () => {
    // Reads the request, then destroys the socket: the request reached the other side.
    const server = createServer((socket) => socket.on('data', () => socket.destroy()));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    try {
      expect(neverConnected(await fetchError(`http://127.0.0.1:${port}/x`))).toBe(false);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('reads the codes of every address tried, and nothing from other errors', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const failed = (cause: unknown) => new TypeError('fetch failed', { cause });
    expect(neverConnected(failed(new AggregateError([refused, refused])))).toBe(true);
    expect(neverConnected(failed(new AggregateError([refused, reset])))).toBe(false);
    expect(neverConnected(failed(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' })))).toBe(true);
    // As `node:http` rejects: the socket's error itself.
    expect(neverConnected(refused)).toBe(true);
    expect(neverConnected(reset)).toBe(false);
    expect(neverConnected(new Error('plain'))).toBe(false);
    expect(neverConnected('text')).toBe(false);
  });
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RejectedError } from './errors';
import { createHttp } from './http';

// Two real servers on loopback, on two ports: two origins. The service redirects; the other
// records what reached it.
let service: Server;
let elsewhere: Server;
let serviceUrl: string;
let elsewhereUrl: string;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done(`http://127.0.0.1:${(server.address() as { port: number }).port}`),
    ),
  );
}

beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end('{"stolen":true}');
  });
  elsewhereUrl = await listen(elsewhere);
  service = createServer((req, res) => {
    if (req.url?.startsWith('/2.0/away')) {
      res.writeHead(307, { location: `${elsewhereUrl}/2.0/users` });
      res.end();
    } else if (req.url?.startsWith('/2.0/moved')) {
      res.writeHead(301, { location: '/2.0/here' });
      res.end();
    } else if (req.url?.startsWith('/2.0/here')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ token: req.headers['svc-api-token'] ?? null }));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  serviceUrl = await listen(service);
});
afterAll(async () => {
  await new Promise((done) => service.close(done));
  await new Promise((done) => elsewhere.close(done));
});

describe('redirects', () => {
  it('never follows a redirect to another origin with the token: refused, naming the address', async () => {
    const http = createHttp({ baseUrl: `${serviceUrl}/2.0`, token: 'secret-token' });
    const call = http.json('GET', '/away', z.unknown());
    await expect(call).rejects.toBeInstanceOf(RejectedError);
    await expect(http.json('GET', '/away', z.unknown())).rejects.toThrow(
      new RegExp(`redirected to another address \\(${elsewhereUrl}\\); the token is not sent there`),
    );
    expect(seen).toEqual([]);
  });

  it('follows a redirect within the service, with the token', async () => {
    const http = createHttp({ baseUrl: `${serviceUrl}/2.0`, token: 'secret-token' });
    expect(await http.json('GET', '/moved', z.object({ token: z.string().nullable() }))).toEqual({
      token: 'secret-token',
    });
  });
});

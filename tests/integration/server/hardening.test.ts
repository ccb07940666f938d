import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildService, DEFAULT_TIMEOUTS, type ServerOptions, type Service } from '../../../src/server/app';
import { SEED_IDS } from '../../../src/server/seed/index';
import { UploadUrlsResponse } from '../../../src/shared/api/attachments';

/** The team server's defences: per-user tokens, upload addresses, 5xx logging, time-outs. */

const root = mkdtempSync(join(tmpdir(), 'wms-hardening-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ORG_TOKEN = 'org-token-0123456789';
const BOB_TOKEN = 'bob-token-0123456789';
const { admin, bob, cleo } = SEED_IDS.users;

let running: Service[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.app.close()));
  running = [];
});

let dirs = 0;
async function start(extra: Partial<ServerOptions> = {}): Promise<{ service: Service; origin: string }> {
  const dir = join(root, String(dirs++));
  const service = buildService({
    dbPath: join(dir, 'service.sqlite'),
    filesDir: join(dir, 'files'),
    tokens: [ORG_TOKEN],
    seed: 'demo',
    ...extra,
  });
  running.push(service);
  const origin = await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { service, origin };
}

async function call(
  origin: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${origin}/2.0${path}`, {
    method,
    headers: { 'svc-api-token': token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('per-user tokens', () => {
  it('act only as their own user in writes; the organization token acts as anyone', async () => {
    const { origin } = await start({ userTokens: { [bob]: BOB_TOKEN } });
    const projects = (await call(origin, 'GET', '/projects', BOB_TOKEN)).json as {
      id: string;
      isFolder: boolean;
    }[];
    expect(projects.length).toBeGreaterThan(0);
    const projectId = projects.find((p) => !p.isFolder)!.id;
    const tasks = (await call(origin, 'GET', `/project/${projectId}/tasks`, BOB_TOKEN)).json as {
      id: string;
    }[];
    const taskId = tasks[0]!.id;

    const asBob = await call(origin, 'POST', `/task/${taskId}/comment`, BOB_TOKEN, {
      userId: bob,
      message: 'Me',
    });
    expect(asBob.status).toBe(200);
    const refusals: [string, string, Record<string, unknown>, string][] = [
      ['POST', `/task/${taskId}/comment`, { userId: admin, message: 'Not me' }, 'userId'],
      ['POST', '/tasks', { projectId, title: 'T', fromUserId: admin }, 'fromUserId'],
      ['POST', '/projects/new-folder', { createdByUserId: cleo, name: 'F' }, 'createdByUserId'],
      ['PUT', `/task/${taskId}/update`, { userId: admin, title: 'Taken over' }, 'userId'],
    ];
    for (const [method, path, body, field] of refusals) {
      const res = await call(origin, method, path, BOB_TOKEN, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((res.json as { errorMessage: string }).errorMessage).toMatch(
        new RegExp(`^${field}: this token acts only as user "${bob}"`),
      );
    }
    // Nothing of the refused writes happened.
    const detail = (await call(origin, 'GET', `/task/${taskId}`, ORG_TOKEN)).json as { name: string };
    expect(detail.name).not.toBe('Taken over');
    // A personal event's userId is the person it is for, not who creates it.
    const event = await call(origin, 'POST', '/events', BOB_TOKEN, {
      createdByUserId: bob,
      eventType: 'personal-vacation',
      name: 'Cleo away',
      startDate: '2026-12-01',
      endDate: '2026-12-03',
      userId: cleo,
    });
    expect(event.status, JSON.stringify(event.json)).toBe(200);
    const asAdmin = await call(origin, 'POST', `/task/${taskId}/comment`, ORG_TOKEN, {
      userId: cleo,
      message: 'Any',
    });
    expect(asAdmin.status).toBe(200);
  });

  it('refuse to start when a token names no user', () => {
    expect(() =>
      buildService({
        dbPath: join(root, 'ghost', 'service.sqlite'),
        filesDir: join(root, 'ghost', 'files'),
        tokens: [ORG_TOKEN],
        seed: 'empty',
        userTokens: { 'u-ghost': BOB_TOKEN },
      }),
    ).toThrow(/userTokens: no user with id "u-ghost"/);
  });
});

/** POST /attachments/upload-urls with a forged Host header (fetch cannot set one). */
function uploadUrlsWithHost(origin: string, host: string): Promise<string> {
  const url = new URL(`${origin}/2.0/attachments/upload-urls`);
  const body = JSON.stringify({ files: [{ name: 'a.txt' }] });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          'svc-api-token': ORG_TOKEN,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve(UploadUrlsResponse.parse(JSON.parse(text))[0]!.uploadUrl));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

describe('upload addresses', () => {
  it('are built on the listening address, never the Host header', async () => {
    const { origin } = await start();
    const uploadUrl = await uploadUrlsWithHost(origin, 'attacker.example:4444');
    expect(uploadUrl.startsWith(`${origin}/2.0/uploads/`)).toBe(true);
    // And the address works.
    const put = await fetch(uploadUrl, {
      method: 'PUT',
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(put.status).toBe(200);
  });

  it('are built on the configured base URL when there is one', async () => {
    const { origin } = await start({ baseUrl: 'https://work.example.test/2.0' });
    const uploadUrl = await uploadUrlsWithHost(origin, 'attacker.example');
    expect(uploadUrl.startsWith('https://work.example.test/2.0/uploads/')).toBe(true);
  });
});

describe('server errors', () => {
  it('are logged with the method and path (never the query, which may hold the token)', async () => {
    const lines: string[] = [];
    const { service, origin } = await start({ logServerError: (line) => lines.push(line) });
    service.db.close();
    const res = await fetch(`${origin}/2.0/users?gd-api-token=${ORG_TOKEN}`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ errorMessage: 'internal error' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/2\.0\/users answered 500: .*database/i);
    expect(lines[0]).not.toContain(ORG_TOKEN);
  });
});

describe('time-outs', () => {
  it('are set by default', async () => {
    const { service } = await start();
    const server = service.app.server;
    expect(server.headersTimeout).toBe(DEFAULT_TIMEOUTS.headersMs);
    expect(server.requestTimeout).toBe(DEFAULT_TIMEOUTS.requestMs);
    expect(server.timeout).toBe(DEFAULT_TIMEOUTS.idleMs);
    expect(server.keepAliveTimeout).toBe(DEFAULT_TIMEOUTS.keepAliveMs);
  });

  /** Opens a raw connection, runs `send` on it, and resolves with ms until the server closes it. */
  function closedAfter(origin: string, send: (write: (text: string) => void) => void): Promise<number> {
    const { hostname, port } = new URL(origin);
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
      socket.once('close', () => resolve(Date.now() - started));
      socket.once('connect', () => send((text) => socket.write(text)));
      setTimeout(() => {
        socket.destroy();
        reject(new Error('the server kept the connection open'));
      }, 5_000).unref();
    });
  }

  it('close a connection whose request never ends, even while bytes trickle in', async () => {
    const { origin } = await start({ timeouts: { headersMs: 300, requestMs: 600, idleMs: 400 } });
    const ms = await closedAfter(origin, (write) => {
      write(
        `POST /2.0/tasks HTTP/1.1\r\nhost: x\r\nsvc-api-token: ${ORG_TOKEN}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`,
      );
      const trickle = setInterval(() => {
        try {
          write(' ');
        } catch {
          clearInterval(trickle);
        }
      }, 100);
      trickle.unref();
    });
    expect(ms).toBeLessThan(3_000);
  });

  it('close a connection whose headers never end', async () => {
    const { origin } = await start({ timeouts: { headersMs: 300, requestMs: 600, idleMs: 400 } });
    const ms = await closedAfter(origin, (write) => write('GET /2.0/users HTTP/1.1\r\nhost: x\r\n'));
    expect(ms).toBeLessThan(3_000);
  });
});

import { afterAll, beforeAll } from 'vitest';
import {
  SEEDED_USERS,
  startService,
  type RunningService,
  type StartServiceOptions,
} from '../../support/service';

export interface Res {
  status: number;
  text: string;
  json: unknown;
  headers: Headers;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * A bare HTTP client for contract tests: sends the token, JSON bodies, and returns everything.
 * Given a function, it asks it for the service at each call (a service started in `beforeAll`).
 */
export function client(service: RunningService | (() => RunningService)) {
  const running = typeof service === 'function' ? service : () => service;
  const call = async (
    method: Method,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { 'svc-api-token': running().token },
  ): Promise<Res> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(running().baseUrl + path, init);
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      // Not JSON (e.g. the text `OK`): `json` stays undefined.
    }
    return { status: response.status, text, json, headers: response.headers };
  };
  return {
    call,
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown) => call('POST', path, body),
    put: (path: string, body?: unknown) => call('PUT', path, body),
    del: (path: string, body?: unknown) => call('DELETE', path, body),
  };
}
export type Client = ReturnType<typeof client>;

/**
 * The hooks of a contract test file: the real service starts before its tests and stops after.
 * `api` calls it; `service()` is the running service (inside tests and later hooks only);
 * `seeded` are its seeded users.
 */
export function serviceSuite(options: StartServiceOptions = {}): {
  api: Client;
  service: () => RunningService;
  seeded: RunningService['users'];
} {
  let svc: RunningService | undefined;
  beforeAll(async () => {
    svc = await startService(options);
  });
  afterAll(() => svc?.close());
  const service = (): RunningService => {
    if (!svc) throw new Error('serviceSuite: the service is not running (used outside the tests?)');
    return svc;
  };
  return { api: client(service), service, seeded: SEEDED_USERS };
}

/** The error message of a 4xx answer (fails loudly when the body is not the error shape). */
export function errorOf(res: Res): string {
  const body = res.json as { errorMessage?: unknown } | undefined;
  if (!body || typeof body.errorMessage !== 'string') throw new Error(`not an error body: ${res.text}`);
  return body.errorMessage;
}

import type { RunningService } from '../../support/service';

export interface Res {
  status: number;
  text: string;
  json: unknown;
  headers: Headers;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A bare HTTP client for contract tests: sends the token, JSON bodies, and returns everything. */
export function client(svc: RunningService) {
  const call = async (
    method: Method,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { 'svc-api-token': svc.token },
  ): Promise<Res> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(svc.baseUrl + path, init);
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

/** The error message of a 4xx answer (fails loudly when the body is not the error shape). */
export function errorOf(res: Res): string {
  const body = res.json as { errorMessage?: unknown } | undefined;
  if (!body || typeof body.errorMessage !== 'string') throw new Error(`not an error body: ${res.text}`);
  return body.errorMessage;
}

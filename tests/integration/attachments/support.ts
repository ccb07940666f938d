import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchLike } from '../../../src/main/core/api/http';
import type { ServiceClient } from '../../../src/main/core/api/client';
import { SEED_IDS } from '../../../src/server/seed/index';
import { taskEndpoints } from '../../../src/shared/api/tasks';

/** A folder of files to drop: `name -> bytes`. */
export function makeFiles(sizes: Record<string, number>): { dir: string; paths: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'drop-'));
  const paths: Record<string, string> = {};
  for (const [name, size] of Object.entries(sizes)) {
    const path = join(dir, name);
    writeFileSync(path, randomBytes(size));
    paths[name] = path;
  }
  mkdirSync(join(dir, 'a-folder'));
  return { dir, paths };
}

/**
 * Upload addresses name the service itself (the proxy forwards the service's Host); this fetch
 * sends them through the proxy too, so the PUTs see the same network as every other request.
 */
export function viaProxy(serviceOrigin: string, proxyOrigin: string, inner: FetchLike = fetch): FetchLike {
  return (input, init) =>
    inner(input.startsWith(serviceOrigin) ? proxyOrigin + input.slice(serviceOrigin.length) : input, init);
}

/** Every request an engine sends, as `METHOD /path`. */
export function recording(inner: FetchLike = fetch): { fetch: FetchLike; log: string[] } {
  const log: string[] = [];
  return {
    log,
    fetch: (input, init) => {
      const path = new URL(input).pathname.replace(/\/uploads\/[^/]+$/, '/uploads/*');
      log.push(`${init.method ?? 'GET'} ${path}`);
      return inner(input, init);
    },
  };
}

export async function newTask(api: ServiceClient, userId: string, title: string): Promise<string> {
  const { id } = await api.call(taskEndpoints.createTask, {
    body: { projectId: SEED_IDS.workspace, title, fromUserId: userId },
  });
  return id;
}

export function spoolFiles(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The bytes the service stores for a file id (extension `GET /attachments/{fileId}`). */
export async function download(baseUrl: string, token: string, fileId: string): Promise<Buffer> {
  const res = await fetch(`${baseUrl}/attachments/${fileId}`, { headers: { 'svc-api-token': token } });
  if (!res.ok) throw new Error(`GET attachment ${fileId}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Received files: the service's download route (an extension) serves bytes as a download with
// headers that keep a browser from running them; the client's download cache fetches on demand,
// keeps files for offline reading within its cap (least recently used out first), survives a
// restart, says "not offered by this service" on a 404, and opens a file attached from this
// machine from its local copy without a download.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { FetchLike } from '../../../src/main/core/api/http';
import type { DownloadProgress } from '../../../src/shared/ipc/attachments';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, type RunningService } from '../../support/service';
import { testEngine } from '../outbox/support';
import { makeFiles, newTask } from './support';
import { attachmentEndpoints } from '../../../src/shared/api/attachments';
import { messageEndpoints } from '../../../src/shared/api/messages';

let svc: RunningService;
let api: ServiceClient;

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
});
afterAll(async () => {
  await svc?.close();
});

/** Another user's comment on `taskId` with one file of `bytes`; answers its file id. */
async function receive(taskId: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const [url] = await api.call(attachmentEndpoints.uploadUrls, { body: { files: [{ name }] } });
  await api.upload(url!.uploadUrl, bytes, url!.mime);
  await api.call(messageEndpoints.comment, {
    id: taskId,
    body: {
      userId: svc.users.bob,
      message: `Here is ${name}`,
      attachments: [{ fileId: url!.fileId, name, size: bytes.length }],
    },
  });
  return url!.fileId;
}

/** A fetch that can be cut off (a network gone) and that records the downloads it passes. */
function network() {
  const state = { offline: false, downloads: [] as string[], notOffered: false };
  const fetchLike: FetchLike = async (input, init) => {
    if (state.offline) throw new TypeError('fetch failed', { cause: new Error('ENETUNREACH') });
    const path = new URL(input).pathname;
    if (/\/attachments\/[^/]+$/.test(path) && (init.method ?? 'GET') === 'GET') {
      state.downloads.push(path.split('/').pop()!);
      if (state.notOffered)
        return new Response(JSON.stringify({ errorMessage: 'Not Found' }), { status: 404 });
    }
    return fetch(input, init);
  };
  return { state, fetch: fetchLike };
}

describe('the download route', () => {
  it('serves the bytes as a download: attachment, nosniff, a sandboxing policy, the length', async () => {
    const taskId = await newTask(api, svc.users.actingUserId, 'Headers');
    const body = new TextEncoder().encode('<script>alert(1)</script>');
    const name = 'rapport "final" été.html';
    const fileId = await receive(taskId, name, body);
    const res = await fetch(`${svc.baseUrl}/attachments/${fileId}`, {
      headers: { 'svc-api-token': svc.token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; /);
    expect(disposition).toContain(`filename="rapport _final_ _t_.html"`);
    expect(disposition).toContain(`filename*=UTF-8''rapport%20%22final%22%20%C3%A9t%C3%A9.html`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(body);
  });

  it('answers 401 without the token and 404 for an unknown file, as JSON errors', async () => {
    const taskId = await newTask(api, svc.users.actingUserId, 'Refusals');
    const fileId = await receive(taskId, 'a.txt', new TextEncoder().encode('a'));
    expect((await fetch(`${svc.baseUrl}/attachments/${fileId}`)).status).toBe(401);
    const missing = await fetch(`${svc.baseUrl}/attachments/nope42`, {
      headers: { 'svc-api-token': svc.token },
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { errorMessage: string }).errorMessage).toMatch(/attachment/);
    // A method the route does not take is refused, not served.
    const put = await fetch(`${svc.baseUrl}/attachments/${fileId}`, {
      method: 'DELETE',
      headers: { 'svc-api-token': svc.token },
    });
    expect(put.status).toBe(405);
  });
});

describe('the download cache', () => {
  it('downloads on demand with progress, then reads offline, also after a restart', async () => {
    const net = network();
    const dataDir = mkdtempSync(join(tmpdir(), 'downloads-'));
    const taskId = await newTask(api, svc.users.actingUserId, 'Big file');
    const bytes = randomBytes(1_500_000);
    const fileId = await receive(taskId, 'scan.pdf', bytes);
    const progress: DownloadProgress[] = [];
    let e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch: net.fetch, dataDir });
    try {
      e.events.onAny((name, p) => {
        if (name === 'attachments.onDidDownload') progress.push(p as DownloadProgress);
      });
      await e.sync.now();
      // The task row counts the file; the project's files list it with who, when and the task.
      const rows = await e.call('tasks.list', { projectId: SEED_IDS.workspace });
      expect(rows.rows.find((r) => r.id === taskId)?.attachmentCount).toBe(1);
      const files = await e.call('attachments.projectFiles', { projectId: SEED_IDS.workspace });
      expect(files.find((f) => f.fileId === fileId)).toMatchObject({
        name: 'scan.pdf',
        size: 1_500_000,
        mime: 'application/pdf',
        taskId,
        taskName: 'Big file',
        fromUserId: svc.users.bob,
        pending: false,
      });
      expect(await e.call('attachments.local', { fileIds: [fileId] })).toEqual({ fileIds: [] });

      const local = await e.call('attachments.fetch', { fileId, name: 'scan.pdf' });
      expect(local).toMatchObject({ fileId, size: 1_500_000, mime: 'application/pdf', source: 'cache' });
      const path = e.downloads.pathOf(local);
      expect(path.endsWith('scan.pdf')).toBe(true);
      expect(readFileSync(path).equals(bytes)).toBe(true);
      // Progress as it went (every 256 KiB) and a last report at the end.
      expect(progress.length).toBeGreaterThan(3);
      expect(progress.at(-1)).toEqual({
        fileId,
        received: 1_500_000,
        total: 1_500_000,
        done: true,
        error: null,
      });
      expect(progress.slice(1, -1).every((p) => !p.done && p.total === 1_500_000)).toBe(true);

      // Read back in parts, as the web host's page does.
      const part = await e.call('attachments.read', { fileId, offset: 1_000_000, length: 100 });
      expect(Buffer.from(part.data, 'base64').equals(bytes.subarray(1_000_000, 1_000_100))).toBe(true);
      expect(part.size).toBe(1_500_000);

      // Offline: opened again from the cache, no request.
      net.state.offline = true;
      const before = net.state.downloads.length;
      expect((await e.call('attachments.fetch', { fileId, name: 'scan.pdf' })).source).toBe('cache');
      expect(net.state.downloads.length).toBe(before);
      await e.close();

      // After a restart, still offline: the index and the bytes are still there.
      e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch: net.fetch, dataDir });
      expect(await e.call('attachments.local', { fileIds: [fileId, 'other'] })).toEqual({
        fileIds: [fileId],
      });
      const again = await e.call('attachments.fetch', { fileId, name: 'scan.pdf' });
      expect(readFileSync(e.downloads.pathOf(again)).equals(bytes)).toBe(true);
      expect(net.state.downloads.length).toBe(before);
    } finally {
      await e.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps the total under its cap, dropping the least recently used first', async () => {
    const net = network();
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, {
      fetch: net.fetch,
      downloads: { maxBytes: 100_000 },
    });
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Three files');
      const ids = {
        a: await receive(taskId, 'a.bin', randomBytes(40_000)),
        b: await receive(taskId, 'b.bin', randomBytes(40_000)),
        c: await receive(taskId, 'c.bin', randomBytes(40_000)),
      };
      await e.call('attachments.fetch', { fileId: ids.a, name: 'a.bin' });
      await new Promise((r) => setTimeout(r, 5));
      await e.call('attachments.fetch', { fileId: ids.b, name: 'b.bin' });
      await new Promise((r) => setTimeout(r, 5));
      // a is opened again: b is now the least recently used.
      await e.call('attachments.fetch', { fileId: ids.a, name: 'a.bin' });
      await new Promise((r) => setTimeout(r, 5));
      await e.call('attachments.fetch', { fileId: ids.c, name: 'c.bin' });
      expect((await e.call('attachments.local', { fileIds: Object.values(ids) })).fileIds.sort()).toEqual(
        [ids.a, ids.c].sort(),
      );
      expect(await e.call('attachments.cacheInfo', {})).toEqual({
        usedBytes: 80_000,
        maxBytes: 100_000,
        files: 2,
      });
      expect(net.state.downloads.filter((id) => id === ids.a)).toHaveLength(1);

      // The dropped one cannot be read offline: a clear error, nothing half-written left.
      net.state.offline = true;
      await expect(e.call('attachments.fetch', { fileId: ids.b, name: 'b.bin' })).rejects.toMatchObject({
        type: 'offline',
        message: 'b.bin is not on this computer and the service cannot be reached now',
      });
      // A smaller cap applies at once.
      await e.downloads.setMaxBytes(50_000);
      expect((await e.call('attachments.local', { fileIds: Object.values(ids) })).fileIds).toEqual([ids.c]);
      expect(await e.call('attachments.clearCache', {})).toEqual({
        usedBytes: 0,
        maxBytes: 50_000,
        files: 0,
      });
    } finally {
      await e.close();
    }
  });

  it('the goodday profile has no download, as the live service: the client says "not offered"', async () => {
    const live = await startService({ seed: 'empty', profile: 'goodday' });
    const liveApi = createServiceClient({ baseUrl: live.baseUrl, token: live.token });
    const e = await testEngine(live.baseUrl, live.token, live.users.actingUserId);
    try {
      const taskId = await newTask(liveApi, live.users.actingUserId, 'On the live service');
      const [url] = await liveApi.call(attachmentEndpoints.uploadUrls, {
        body: { files: [{ name: 'spec.pdf' }] },
      });
      await liveApi.upload(url!.uploadUrl, new Uint8Array([1, 2, 3]), url!.mime);
      const raw = await fetch(`${live.baseUrl}/attachments/${url!.fileId}`, {
        headers: { 'svc-api-token': live.token },
      });
      expect(raw.status).toBe(404);
      await expect(
        e.call('attachments.fetch', { fileId: url!.fileId, name: 'spec.pdf' }),
      ).rejects.toMatchObject({
        type: 'not-found',
        message: 'spec.pdf: downloads are not offered by this service',
      });
      expect(taskId).toBeTruthy();
    } finally {
      await e.close();
      await live.close();
    }
  });

  it('says "not offered by this service" when the download answers 404', async () => {
    const net = network();
    net.state.notOffered = true;
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch: net.fetch });
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Live service');
      const fileId = await receive(taskId, 'plan.docx', randomBytes(100));
      await expect(e.call('attachments.fetch', { fileId, name: 'plan.docx' })).rejects.toMatchObject({
        type: 'not-found',
        message: 'plan.docx: downloads are not offered by this service',
      });
      expect((await e.call('attachments.cacheInfo', {})).files).toBe(0);
    } finally {
      await e.close();
    }
  });

  it('opens a file attached here from its local copy, before and after it is sent', async () => {
    const net = network();
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch: net.fetch });
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Mine');
      await e.sync.now();
      const { paths } = makeFiles({ 'notes.txt': 3_000 });
      const original = readFileSync(paths['notes.txt']!);
      net.state.offline = true;
      const { staged } = await e.stage({ paths: [paths['notes.txt']!] });
      await e.call('attachments.attach', { taskId, files: staged.map((s) => s.id) });
      const spoolId = staged[0]!.id;
      // Not sent yet: it opens from the spool, under its own name.
      const unsent = await e.call('attachments.fetch', { fileId: spoolId, name: 'notes.txt' });
      expect(unsent).toMatchObject({ source: 'spool', size: 3_000, mime: 'text/plain' });
      expect(readFileSync(e.downloads.pathOf(unsent)).equals(original)).toBe(true);
      const files = await e.call('attachments.projectFiles', { projectId: SEED_IDS.workspace });
      expect(files.find((f) => f.fileId === spoolId)).toMatchObject({ name: 'notes.txt', pending: true });

      net.state.offline = false;
      await e.drained();
      const [sent] = (await api.call(messageEndpoints.taskMessages, { id: taskId })).flatMap(
        (m) => m.attachments ?? [],
      );
      // Sent: the spool copy goes, and the file opens from the kept copy without a download.
      for (let i = 0; i < 100 && !(await e.downloads.has([sent!.fileId])).length; i++)
        await new Promise((r) => setTimeout(r, 20));
      const kept = await e.call('attachments.fetch', { fileId: sent!.fileId, name: 'notes.txt' });
      expect(kept.source).toBe('cache');
      expect(readFileSync(e.downloads.pathOf(kept)).equals(original)).toBe(true);
      expect(net.state.downloads).toEqual([]);
    } finally {
      await e.close();
    }
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { UploadUrlsResponse } from '../../../src/shared/api/attachments';
import { CreateTaskResponse, TaskDetail } from '../../../src/shared/api/tasks';
import { TaskMessagesResponse } from '../../../src/shared/api/messages';
import { CreateProjectResponse } from '../../../src/shared/api/projects';
import { buildService } from '../../../src/server/app';
import { SEED_IDS } from '../../../src/server/seed/index';
import { errorOf, serviceSuite } from './client';

const { api, service, seeded } = serviceSuite({ clock: () => now, uploadLimitBytes: 1024 });
const admin = seeded.actingUserId;

let taskId: string;
let now = new Date(2026, 0, 10, 12, 0, 0);
beforeAll(async () => {
  const project = CreateProjectResponse.parse(
    (
      await api.post('/projects/new-project', {
        createdByUserId: admin,
        projectTemplateId: SEED_IDS.templates.project,
        name: 'Files',
      })
    ).json,
  ).id;
  taskId = CreateTaskResponse.parse(
    (await api.post('/tasks', { projectId: project, title: 't', fromUserId: admin })).json,
  ).id;
});

async function uploadUrls(names: string[]) {
  const res = await api.post('/attachments/upload-urls', { files: names.map((name) => ({ name })) });
  expect(res.status, res.text).toBe(200);
  return UploadUrlsResponse.parse(res.json);
}

describe('comments and replies', () => {
  it('stores comments with the action-required user as toUserId', async () => {
    expect((await api.post(`/task/${taskId}/comment`, { userId: seeded.bob, message: 'First' })).json).toBe(
      'OK',
    );
    const messages = TaskMessagesResponse.parse((await api.get(`/task/${taskId}/messages`)).json);
    expect(messages.at(-1)).toMatchObject({
      message: 'First',
      fromUserId: seeded.bob,
      toUserId: null,
      editDate: null,
    });
    expect(messages.at(-1)?.dateCreated).toMatch(/^2026-01-10T12:00:00\.000000$/);
    expect(TaskDetail.parse((await api.get(`/task/${taskId}`)).json).users).toContain(seeded.bob);
  });

  it('reply sets the new action-required user (both spellings)', async () => {
    await api.post(`/task/${taskId}/reply`, {
      userId: admin,
      actionRequiredUsedId: seeded.cleo,
      message: 'Your turn',
    });
    expect(TaskDetail.parse((await api.get(`/task/${taskId}`)).json).actionRequiredUserId).toBe(seeded.cleo);
    await api.post(`/task/${taskId}/reply`, { userId: seeded.cleo, actionRequiredUserId: seeded.dan });
    const t = TaskDetail.parse((await api.get(`/task/${taskId}`)).json);
    expect(t.actionRequiredUserId).toBe(seeded.dan);
    const last = TaskMessagesResponse.parse((await api.get(`/task/${taskId}/messages`)).json).at(-1);
    expect(last).toMatchObject({ fromUserId: seeded.cleo, toUserId: seeded.dan });
  });

  it('refuses bad comments and replies', async () => {
    const cases: [string, Record<string, unknown>, number, RegExp][] = [
      [`/task/${taskId}/comment`, { message: 'x' }, 400, /^userId: is required/],
      [`/task/${taskId}/comment`, { userId: admin }, 400, /^message:/],
      [`/task/${taskId}/comment`, { userId: 'ghost', message: 'x' }, 400, /^userId: no user/],
      [`/task/${taskId}/reply`, { userId: admin }, 400, /^actionRequiredUsedId: is required/],
      [
        `/task/${taskId}/reply`,
        { userId: admin, actionRequiredUsedId: 'ghost' },
        400,
        /^actionRequiredUsedId: no user/,
      ],
      [
        `/task/${taskId}/reply`,
        { userId: admin, actionRequiredUserId: 5 },
        400,
        /^actionRequiredUsedId: Invalid input/,
      ],
      ['/task/nope/comment', { userId: admin, message: 'x' }, 404, /task/],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await api.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(errorOf(res)).toMatch(message);
    }
  });
});

describe('attachments', () => {
  it('runs the three-step flow: address, PUT bytes, reference', async () => {
    const [file] = await uploadUrls(['photo.png']);
    expect(file).toMatchObject({ name: 'photo.png', mime: 'image/png' });
    expect(file!.uploadUrl.startsWith(service().baseUrl + '/uploads/')).toBe(true);
    const put = await fetch(file!.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(put.status).toBe(200);
    expect(await put.text()).toBe('');
    const again = await fetch(file!.uploadUrl, { method: 'PUT', body: new Uint8Array([4]) });
    expect(again.status).toBe(404);
    await api.post(`/task/${taskId}/comment`, {
      userId: admin,
      message: 'see file',
      attachments: [
        { fileId: file!.fileId, name: 'photo.png' },
        { fileId: 'never-uploaded', name: 'ghost.txt' },
      ],
    });
    const last = TaskMessagesResponse.parse((await api.get(`/task/${taskId}/messages`)).json).at(-1);
    expect(last?.attachments).toEqual([
      { fileId: file!.fileId, name: 'photo.png', size: 3, mime: 'image/png' },
    ]);
    const bytes = await fetch(`${service().baseUrl}/attachments/${file!.fileId}`, {
      headers: { 'svc-api-token': service().token },
    });
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('accepts an upload without Content-Type and infers mime from the name', async () => {
    const [file] = await uploadUrls(['notes.txt']);
    // A byte array body: fetch sends no Content-Type at all.
    const put = await fetch(file!.uploadUrl, { method: 'PUT', body: new TextEncoder().encode('hello') });
    expect(put.status).toBe(200);
    const created = CreateTaskResponse.parse(
      (
        await api.post('/tasks', {
          projectId: TaskDetail.parse((await api.get(`/task/${taskId}`)).json).projectId,
          title: 'with file',
          fromUserId: admin,
          attachments: [{ fileId: file!.fileId, name: 'notes.txt' }],
        })
      ).json,
    );
    const first = TaskMessagesResponse.parse((await api.get(`/task/${created.id}/messages`)).json)[0];
    expect(first?.attachments?.[0]).toMatchObject({ mime: 'text/plain', size: 5 });
  });

  it('ignores an address that expired before the upload and refuses the late upload', async () => {
    const [file] = await uploadUrls(['late.pdf']);
    now = new Date(now.getTime() + 61 * 60 * 1000);
    const put = await fetch(file!.uploadUrl, { method: 'PUT', body: 'x' });
    expect(put.status).toBe(404);
    await api.post(`/task/${taskId}/comment`, {
      userId: admin,
      message: 'late',
      attachments: [{ fileId: file!.fileId, name: 'late.pdf' }],
    });
    const last = TaskMessagesResponse.parse((await api.get(`/task/${taskId}/messages`)).json).at(-1);
    expect(last?.attachments).toBeUndefined();
  });

  it('enforces the limits: 20 files, names of 255, upload size, unknown addresses', async () => {
    const many = await api.post('/attachments/upload-urls', {
      files: Array.from({ length: 21 }, (_, i) => ({ name: `${i}.txt` })),
    });
    expect(many.status).toBe(400);
    expect(errorOf(many)).toMatch(/^files: at most 20/);
    const long = await api.post('/attachments/upload-urls', { files: [{ name: 'a'.repeat(256) }] });
    expect(long.status).toBe(400);
    expect((await api.post('/attachments/upload-urls', { files: [] })).status).toBe(400);
    expect((await api.post('/attachments/upload-urls', {})).status).toBe(400);
    const [file] = await uploadUrls(['big.bin']);
    const big = await fetch(file!.uploadUrl, { method: 'PUT', body: new Uint8Array(2048) });
    expect(big.status).toBe(413);
    const unknown = await fetch(`${service().baseUrl}/uploads/not-a-real-token`, {
      method: 'PUT',
      body: 'x',
    });
    expect(unknown.status).toBe(404);
    expect((await api.get('/attachments/nope')).status).toBe(404);
  });
});

describe('upload addresses behind a configured base URL', () => {
  it('builds them on the base URL, given with or without /2.0', async () => {
    for (const baseUrl of ['https://work.example.test', 'https://work.example.test/2.0/']) {
      const { app } = buildService({
        dbPath: ':memory:',
        filesDir: service().dataDir + '/other-files',
        tokens: ['t'],
        seed: 'empty',
        baseUrl,
      });
      const res = await app.inject({
        method: 'POST',
        url: '/2.0/attachments/upload-urls',
        headers: { 'svc-api-token': 't' },
        payload: { files: [{ name: 'a.txt' }] },
      });
      const [file] = UploadUrlsResponse.parse(res.json());
      expect(file!.uploadUrl).toMatch(/^https:\/\/work\.example\.test\/2\.0\/uploads\/[\w-]{40,}$/);
      await app.close();
    }
  });
});

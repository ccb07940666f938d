import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UploadUrlsResponse } from '../../../src/shared/api/attachments';
import { CreateTaskResponse, TaskDetail } from '../../../src/shared/api/tasks';
import { TaskMessagesResponse } from '../../../src/shared/api/messages';
import { CreateProjectResponse } from '../../../src/shared/api/projects';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService } from '../../support/service';
import { client } from './client';

const dataDir = mkdtempSync(join(tmpdir(), 'wms-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('restart', () => {
  it('keeps everything written when the server is stopped and started on the same files', async () => {
    const first = await startService({ dataDir, seed: 'empty' });
    const api = client(first);
    const admin = first.users.actingUserId;
    const project = CreateProjectResponse.parse(
      (
        await api.post('/projects/new-project', {
          createdByUserId: admin,
          projectTemplateId: SEED_IDS.templates.project,
          name: 'Durable',
        })
      ).json,
    ).id;
    const task = CreateTaskResponse.parse(
      (
        await api.post('/tasks', {
          projectId: project,
          title: 'Survive',
          fromUserId: admin,
          toUserId: first.users.bob,
        })
      ).json,
    ).id;
    const [file] = UploadUrlsResponse.parse(
      (await api.post('/attachments/upload-urls', { files: [{ name: 'a.txt' }] })).json,
    );
    await fetch(file!.uploadUrl, { method: 'PUT', body: 'bytes' });
    await api.post(`/task/${task}/comment`, {
      userId: admin,
      message: 'kept',
      attachments: [{ fileId: file!.fileId, name: 'a.txt' }],
    });
    await api.post(`/task/${task}/tag/${SEED_IDS.tags.urgent}`, { userId: admin });
    const event = (
      await api.post('/events', {
        createdByUserId: admin,
        eventType: 'company-holiday',
        name: 'Off',
        startDate: '2026-05-01',
        endDate: '2026-05-01',
      })
    ).json as { id: string };
    const beforeTask = (await api.get(`/task/${task}`)).json;
    const beforeMessages = (await api.get(`/task/${task}/messages`)).json;
    await first.close();

    const second = await startService({ dataDir, seed: 'demo' });
    try {
      const again = client(second);
      expect((await again.get(`/task/${task}`)).json).toEqual(beforeTask);
      expect(TaskDetail.parse(beforeTask).tags).toEqual([SEED_IDS.tags.urgent]);
      expect((await again.get(`/task/${task}/messages`)).json).toEqual(beforeMessages);
      expect(TaskMessagesResponse.parse(beforeMessages).at(-1)?.attachments?.[0]?.fileId).toBe(file!.fileId);
      const bytes = await fetch(`${second.baseUrl}/attachments/${file!.fileId}`, {
        headers: { 'svc-api-token': second.token },
      });
      expect(await bytes.text()).toBe('bytes');
      expect((await again.get(`/event/${event.id}`)).status).toBe(200);
      // The existing organization is not re-seeded with the demo.
      expect((await again.get('/project/g7-p1')).status).toBe(404);
    } finally {
      await second.close();
    }
  });
});

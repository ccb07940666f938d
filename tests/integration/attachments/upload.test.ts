// The three-step upload end to end against the real service: stage (copy into the spool),
// queue with a comment / reply / new task / "Attached N files", upload at send time, reference.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { FetchLike } from '../../../src/main/core/api/http';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, type RunningService } from '../../support/service';
import { testEngine } from '../outbox/support';
import { download, makeFiles, newTask, recording, spoolFiles, until } from './support';
import { messageEndpoints } from '../../../src/shared/api/messages';
import { taskEndpoints } from '../../../src/shared/api/tasks';

let svc: RunningService;
let api: ServiceClient;
/** The service's clock runs this far ahead of the wall clock (expired-address tests move it). */
let skewMs = 0;

beforeAll(async () => {
  svc = await startService({ seed: 'empty', clock: () => new Date(Date.now() + skewMs) });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
});
afterAll(async () => {
  await svc?.close();
});

async function engineWith(fetchImpl?: FetchLike, maxFileBytes?: number) {
  const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, {
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    ...(maxFileBytes ? { attachments: { maxFileBytes } } : {}),
  });
  await e.sync.now();
  return e;
}

describe('three-step upload', () => {
  it('stages a dropped file, uploads it at send time and attaches it to the comment', async () => {
    const rec = recording();
    const e = await engineWith(rec.fetch);
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Three steps');
      await e.sync.now();
      const { paths } = makeFiles({ 'report.pdf': 300_000 });
      const staged = await e.stage({ paths: [paths['report.pdf']!] });
      expect(staged.refused).toEqual([]);
      expect(staged.staged[0]).toMatchObject({ name: 'report.pdf', size: 300_000, mime: 'application/pdf' });
      // Copied at once: the spool holds the bytes before anything is sent.
      expect(spoolFiles(e.files.spool.dir)).toContain(staged.staged[0]!.id);

      rec.log.length = 0;
      const queued = await e.call('attachments.comment', {
        taskId,
        message: 'The report',
        files: [staged.staged[0]!.id],
      });
      expect(queued.requests).toBe(1);
      // The draft shows the file at once.
      const draft = (await e.call('tasks.detail', { taskId })).messages.at(-1)!;
      expect(draft.attachments?.map((a) => a.name)).toEqual(['report.pdf']);

      await e.drained();
      expect(rec.log.filter((l) => !l.startsWith('GET'))).toEqual([
        'POST /2.0/attachments/upload-urls',
        'PUT /2.0/uploads/*',
        `POST /2.0/task/${taskId}/comment`,
      ]);
      const messages = await api.call(messageEndpoints.taskMessages, { id: taskId });
      expect(messages).toHaveLength(1);
      expect(messages[0]!.message).toBe('The report');
      const [att] = messages[0]!.attachments!;
      expect(att).toMatchObject({ name: 'report.pdf', size: 300_000, mime: 'application/pdf' });
      expect(
        (await download(svc.baseUrl, svc.token, att!.fileId)).equals(readFileSync(paths['report.pdf']!)),
      ).toBe(true);
      // Removed from the spool once the comment was acknowledged.
      await until(() => spoolFiles(e.files.spool.dir).length === 0);
      expect(e.files.uploads.status().files.map((f) => f.phase)).toEqual(['attached']);
    } finally {
      await e.close();
    }
  });

  it('asks for a new address when the one given expired before the PUT', async () => {
    let expireNext = true;
    const rec = recording(async (input, init) => {
      const res = await fetch(input, init);
      if (expireNext && input.endsWith('/attachments/upload-urls')) {
        expireNext = false;
        skewMs += 2 * 3_600_000; // the address lives one hour
      }
      return res;
    });
    const e = await engineWith(rec.fetch);
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Expired address');
      await e.sync.now();
      const { paths } = makeFiles({ 'photo.png': 50_000 });
      const { staged } = await e.stage({ paths: [paths['photo.png']!] });
      rec.log.length = 0;
      await e.call('attachments.attach', { taskId, files: staged.map((s) => s.id) });
      await e.drained();
      expect(rec.log.filter((l) => !l.startsWith('GET'))).toEqual([
        'POST /2.0/attachments/upload-urls',
        'PUT /2.0/uploads/*',
        'POST /2.0/attachments/upload-urls',
        'PUT /2.0/uploads/*',
        `POST /2.0/task/${taskId}/comment`,
      ]);
      const [message] = await api.call(messageEndpoints.taskMessages, { id: taskId });
      expect(message!.message).toBe('Attached 1 file');
      expect(message!.attachments).toHaveLength(1);
      expect(message!.attachments![0]).toMatchObject({ name: 'photo.png', mime: 'image/png', size: 50_000 });
    } finally {
      await e.close();
    }
  });

  it('asks for a new address when the one given was already used', async () => {
    let stolen: string | undefined;
    const e = await engineWith(async (input, init) => {
      const res = await fetch(input, init);
      if (!stolen && input.endsWith('/attachments/upload-urls')) {
        const body = (await res.json()) as { uploadUrl: string; fileId: string }[];
        stolen = body[0]!.fileId;
        // Someone else uses the address first.
        await fetch(body[0]!.uploadUrl, {
          method: 'PUT',
          body: 'not the file',
          headers: { 'content-type': 'text/plain' },
        });
        return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
      }
      return res;
    });
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Used address');
      await e.sync.now();
      const { paths } = makeFiles({ 'notes.txt': 10_000 });
      const { staged } = await e.stage({ paths: [paths['notes.txt']!] });
      await e.call('attachments.comment', { taskId, files: [staged[0]!.id] });
      await e.drained();
      const [message] = await api.call(messageEndpoints.taskMessages, { id: taskId });
      const att = message!.attachments![0]!;
      expect(att.fileId).not.toBe(stolen);
      expect(
        (await download(svc.baseUrl, svc.token, att.fileId)).equals(readFileSync(paths['notes.txt']!)),
      ).toBe(true);
    } finally {
      await e.close();
    }
  });

  it('replies and creates tasks with files; more than 20 files become more comments', async () => {
    const e = await engineWith();
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Many files');
      await e.sync.now();
      const sizes = Object.fromEntries(Array.from({ length: 23 }, (_, i) => [`f${i}.txt`, 100 + i]));
      const { paths } = makeFiles(sizes);
      const { staged } = await e.stage({ paths: Object.values(paths) });
      expect(staged).toHaveLength(23);
      const reply = await e.call('attachments.reply', {
        taskId,
        actionRequiredUserId: svc.users.bob,
        message: 'All of them',
        files: staged.map((s) => s.id),
      });
      expect(reply.requests).toBe(2);

      const more = await e.stage({ paths: [paths['f0.txt']!] });
      const created = await e.call('attachments.createTask', {
        input: { projectId: SEED_IDS.workspace, title: 'Born with a file' },
        files: more.staged.map((s) => s.id),
      });
      await e.drained();

      const messages = await api.call(messageEndpoints.taskMessages, { id: taskId });
      expect(messages.map((m) => [m.message, m.attachments?.length])).toEqual([
        ['All of them', 20],
        ['Attached 3 files', 3],
      ]);
      expect((await api.call(taskEndpoints.task, { id: taskId })).actionRequiredUserId).toBe(svc.users.bob);
      const realId = e.outbox.realIdOf(created.id);
      const [first] = await api.call(messageEndpoints.taskMessages, { id: realId });
      expect(first!.attachments!.map((a) => a.name)).toEqual(['f0.txt']);
    } finally {
      await e.close();
    }
  });
});

describe('what a drop refuses', () => {
  it('refuses a folder, an unreadable file and one over the cap, and keeps the rest', async () => {
    const e = await engineWith(undefined, 1_000);
    try {
      const long = `${'x'.repeat(300)}.docx`;
      const { dir, paths } = makeFiles({ 'ok.txt': 10, 'big.bin': 5_000 });
      const result = await e.stage({
        paths: [join(dir, 'a-folder'), join(dir, 'missing.txt'), paths['ok.txt']!, paths['big.bin']!],
      });
      expect(result.staged.map((s) => s.name)).toEqual(['ok.txt']);
      expect(result.refused).toEqual([
        { name: 'a-folder', reason: 'is a folder; drop the files inside it instead' },
        { name: 'missing.txt', reason: 'cannot be read' },
        { name: 'big.bin', reason: 'is 5 KiB, larger than the 1000 bytes limit per file' },
      ]);
      // A name over 255 characters keeps its extension (streamed from the web host here).
      const { id } = await e.call('attachments.streamStart', { name: long, size: 3 });
      await e.call('attachments.streamChunk', { id, offset: 0, data: Buffer.from('abc').toString('base64') });
      const streamed = await e.call('attachments.streamEnd', { id });
      expect([...streamed.name]).toHaveLength(255);
      expect(streamed.name.endsWith('….docx')).toBe(true);
      expect(streamed.mime).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    } finally {
      await e.close();
    }
  });
});

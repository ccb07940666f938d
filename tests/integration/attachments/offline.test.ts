// Files dropped while the service cannot be reached arrive once it can; a file can be cancelled
// until its request references it; a kill during the upload leaves it attached exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { startEngineProcess } from '../../support/engine-process';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startService, type RunningService } from '../../support/service';
import { testEngine } from '../outbox/support';
import { makeFiles, newTask, spoolFiles, until, viaProxy } from './support';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { messageEndpoints } from '../../../src/shared/api/messages';

let svc: RunningService;
let api: ServiceClient;
let proxy: FaultProxy;

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  proxy = await startFaultProxy({ target: svc.baseUrl });
});
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
});

const offline = () => proxy.set({ dropBefore: { rate: 1 } });

async function engine(dataDir?: string) {
  const e = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, {
    fetch: viaProxy(new URL(svc.baseUrl).origin, proxy.origin),
    ...(dataDir ? { dataDir } : {}),
  });
  await e.sync.now();
  return e;
}

describe('offline', () => {
  it('a drop while offline is kept in the spool and attached after reconnect', async () => {
    proxy.reset();
    const e = await engine();
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Dropped on a plane');
      await e.sync.now();
      offline();
      const { paths } = makeFiles({ 'a.jpg': 40_000, 'b.csv': 2_000 });
      const { staged } = await e.stage({ paths: Object.values(paths) });
      await e.call('attachments.attach', { taskId, files: staged.map((s) => s.id) });
      // Replay tries and fails while offline; nothing reaches the service, nothing is lost.
      queueOf(e.outbox).kick();
      await queueOf(e.outbox).idle();
      expect(await api.call(messageEndpoints.taskMessages, { id: taskId })).toEqual([]);
      expect(e.outbox.status().pending).toBe(1);
      expect(spoolFiles(e.files.spool.dir).filter((f) => !f.endsWith('.json'))).toHaveLength(2);
      const draft = (await e.call('tasks.detail', { taskId })).messages.at(-1)!;
      expect(draft.message).toBe('Attached 2 files');
      expect(draft.attachments?.map((a) => a.name)).toEqual(['a.jpg', 'b.csv']);

      proxy.reset();
      e.outbox.reconnected();
      await e.drained();
      const messages = await api.call(messageEndpoints.taskMessages, { id: taskId });
      expect(messages).toHaveLength(1);
      expect(messages[0]!.attachments!.map((a) => [a.name, a.size, a.mime])).toEqual([
        ['a.jpg', 40_000, 'image/jpeg'],
        ['b.csv', 2_000, 'text/csv'],
      ]);
      await until(() => spoolFiles(e.files.spool.dir).length === 0);
    } finally {
      proxy.reset();
      await e.close();
    }
  });

  it('cancels a file not yet referenced: the spool copy goes and nothing is posted', async () => {
    proxy.reset();
    const e = await engine();
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Changed my mind');
      await e.sync.now();
      offline();
      const { paths } = makeFiles({ 'keep.txt': 100, 'drop.txt': 100 });
      const { staged } = await e.stage({
        paths: [paths['keep.txt']!, paths['drop.txt']!],
      });
      const [keep, drop] = staged;
      await e.call('attachments.attach', { taskId, files: [drop!.id] });
      await e.call('attachments.comment', { taskId, message: 'Only one', files: [keep!.id] });
      const status = await e.call('attachments.cancel', { id: drop!.id });
      expect(status.files.find((f) => f.id === drop!.id)?.phase).toBe('cancelled');
      // The "Attached 1 file" comment had nothing else: it is gone with its draft.
      const drafts = (await e.call('tasks.detail', { taskId })).messages;
      expect(drafts.map((m) => m.message)).toEqual(['Only one']);
      expect(spoolFiles(e.files.spool.dir).some((f) => f.startsWith(drop!.id))).toBe(false);

      proxy.reset();
      e.outbox.reconnected();
      await e.drained();
      const messages = await api.call(messageEndpoints.taskMessages, { id: taskId });
      expect(messages.map((m) => [m.message, m.attachments?.map((a) => a.name)])).toEqual([
        ['Only one', ['keep.txt']],
      ]);
      // Once referenced and acknowledged, there is nothing left to cancel (the spool copy goes
      // just after the acknowledgement is committed).
      await until(() => !spoolFiles(e.files.spool.dir).some((f) => f.startsWith(keep!.id)));
      await expect(e.call('attachments.unstage', { id: keep!.id })).resolves.toEqual({ removed: false });
    } finally {
      proxy.reset();
      await e.close();
    }
  });
});

describe('kill during upload', () => {
  it('restarted on the same files, the files are attached exactly once', async () => {
    proxy.reset();
    const dataDir = mkdtempSync(join(tmpdir(), 'attach-crash-'));
    try {
      const taskId = await newTask(api, svc.users.actingUserId, 'Killed mid-upload');
      const e = await engine(dataDir);
      await e.outbox.stop();
      const { paths } = makeFiles({ 'one.bin': 3_000_000, 'two.bin': 3_000_000, 'three.bin': 3_000_000 });
      const { staged } = await e.stage({ paths: Object.values(paths) });
      await e.call('attachments.attach', { taskId, files: staged.map((s) => s.id) });
      const spoolDir = e.files.spool.dir;
      await e.close();

      // Slow enough that kills land between the address request, the PUTs and the comment.
      proxy.set({ delayMs: 30 });
      const args = { dataDir, baseUrl: proxy.baseUrl, token: svc.token, userId: svc.users.actingUserId };
      let kills = 0;
      let drained = false;
      for (const wait of [40, 90, 140, 200, 260]) {
        const child = await startEngineProcess(args);
        await child.ready;
        await new Promise((r) => setTimeout(r, wait));
        child.kill();
        const exit = await child.exited;
        if (exit.drained) {
          drained = true;
          break;
        }
        kills++;
      }
      if (!drained) {
        const last = await startEngineProcess(args);
        expect(await last.exited).toEqual({ code: 0, drained: true });
      }
      expect(kills).toBeGreaterThan(0);
      const messages = await api.call(messageEndpoints.taskMessages, { id: taskId });
      expect(messages.map((m) => [m.message, m.attachments?.map((a) => a.name)])).toEqual([
        ['Attached 3 files', ['one.bin', 'two.bin', 'three.bin']],
      ]);
      // The restart after the acknowledgement cleans the spool.
      const after = await engine(dataDir);
      await after.close();
      expect(spoolFiles(spoolDir)).toEqual([]);
    } finally {
      proxy.reset();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

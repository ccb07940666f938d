// Drafts are kept by the core in the account's outbox file (never thrown away): written at once,
// read back after a restart and after a crash (a second engine opened on the same files while the
// first was never closed), after the cache file was thrown away and rebuilt, one per task, and
// per account (another account's files have their own). A draft typed on a task created here
// follows the task to its real id when the service acknowledges the create.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../support/service';
import { testEngine } from '../outbox/support';
import { SEED_IDS } from '../../../src/server/seed/index';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
});
afterAll(async () => {
  await svc?.close();
});

describe('drafts', () => {
  it('survive a crash and a restart, per task and per account', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'drafts-'));
    const first = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
    try {
      await first.call('drafts.set', { key: 'message:T1', text: 'Half a thought about T1' });
      await first.call('drafts.set', { key: 'message:T2', text: 'About T2' });
      await first.call('drafts.set', {
        key: 'new-task',
        text: JSON.stringify({ title: 'Call the printer', message: '' }),
      });
      // A crash: the first engine is never closed; a new one opens the same cache file.
      const second = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
      try {
        expect(await second.call('drafts.get', { key: 'message:T1' })).toMatchObject({
          text: 'Half a thought about T1',
        });
        expect((await second.call('drafts.get', { key: 'message:T2' })).text).toBe('About T2');
        expect(JSON.parse((await second.call('drafts.get', { key: 'new-task' })).text)).toEqual({
          title: 'Call the printer',
          message: '',
        });
        // Sent (or erased): an empty text forgets it.
        expect(await second.call('drafts.set', { key: 'message:T1', text: '  ' })).toEqual({ kept: false });
        expect(await second.call('drafts.get', { key: 'message:T1' })).toEqual({ text: '', updatedAt: null });
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
    // A restart: still there.
    const third = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
    try {
      expect((await third.call('drafts.get', { key: 'message:T2' })).text).toBe('About T2');
    } finally {
      await third.close();
    }
    // Another account (another user here) has its own cache file, and none of these drafts.
    const other = await testEngine(svc.baseUrl, svc.token, svc.users.bob, { dataDir });
    try {
      expect((await other.call('drafts.get', { key: 'message:T2' })).text).toBe('');
    } finally {
      await other.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('survive a cache file thrown away and rebuilt', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'drafts-'));
    try {
      const first = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
      await first.call('drafts.set', { key: 'message:T9', text: 'Kept through a rebuild' });
      await first.close();
      // The cache file goes (as a damaged one is moved aside); the outbox file stays.
      const caches = readdirSync(dataDir).filter((f) => /^cache-.*\.sqlite(-wal|-shm)?$/.test(f));
      expect(caches.length).toBeGreaterThan(0);
      for (const f of caches) rmSync(join(dataDir, f));
      const rebuilt = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
      try {
        expect((await rebuilt.call('drafts.get', { key: 'message:T9' })).text).toBe('Kept through a rebuild');
      } finally {
        await rebuilt.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('follow a task created here to its real id when its create is acknowledged', async () => {
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
    try {
      await e.sync.now();
      await e.outbox.stop();
      const { id: localId } = await e.call('tasks.create', {
        projectId: SEED_IDS.workspace,
        title: 'Drafted on',
      });
      await e.call('drafts.set', { key: `message:${localId}`, text: 'A comment not sent yet' });
      e.outbox.start();
      await e.drained();
      const realId = e.outbox.realIdOf(localId);
      expect(realId).not.toBe(localId);
      expect((await e.call('drafts.get', { key: `message:${realId}` })).text).toBe('A comment not sent yet');
      expect((await e.call('drafts.get', { key: `message:${localId}` })).text).toBe('');
    } finally {
      await e.close();
    }
  });

  it('refuses a key that is not a draft’s, naming it', async () => {
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
    try {
      await expect(e.call('drafts.set', { key: 'message:../x', text: 'x' })).rejects.toThrow(
        /must be message:<task id> or new-task/,
      );
    } finally {
      await e.close();
    }
  });
});

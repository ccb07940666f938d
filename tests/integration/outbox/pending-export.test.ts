// "Export pending changes" and its import: a readable JSON file of the unsent changes, which
// brings them back into the same account after its outbox file was lost, once each; a file of
// another account, or one that is not such a file, is refused with a clear message.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { createDispatch } from '../../../src/main/core/dispatch';
import { SEED_IDS } from '../../../src/server/seed/index';
import type { PendingChangesFile } from '../../../src/shared/ipc/pending-transfer';
import { startService, type RunningService } from '../../support/service';
import { testEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
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

describe('export and import of pending changes', () => {
  it('brings back, once, the changes lost with the outbox file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pending-export-'));
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
    await e.sync.now();
    await e.outbox.stop();
    const { id } = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Exported task' });
    await e.call('tasks.comment', { taskId: id, message: 'exported comment' });
    await e.call('tasks.update', { taskId: id, changes: { priority: 7 } });
    const file = await e.call('outbox.export', {});
    // Readable: plain JSON, the changes in words, the account named.
    const text = JSON.stringify(file, null, 2);
    expect(JSON.parse(text)).toEqual(file);
    expect(file).toMatchObject({
      format: 'workdesk-pending-changes',
      version: 1,
      account: { baseUrl: svc.baseUrl, userId: svc.users.actingUserId },
    });
    expect(file.changes.map((c) => c.kind)).toEqual(['task.create', 'task.comment', 'task.update']);
    expect(file.changes[0]!.label).toMatch(/Exported task/);
    await e.close();

    // The outbox file is lost: the changes are gone from the app.
    for (const name of readdirSync(dataDir).filter((f) => f.startsWith('outbox-'))) {
      rmSync(join(dataDir, name));
    }
    const again = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
    expect(again.notices).toEqual([
      expect.objectContaining({ title: 'The file of unsent changes was emptied or deleted' }),
    ]);
    await again.outbox.stop();
    expect(again.outbox.status().pending).toBe(0);
    expect(await again.call('outbox.import', { file })).toEqual({ imported: 3, skipped: 0, refused: [] });
    // A second import queues nothing twice.
    expect(await again.call('outbox.import', { file })).toEqual({ imported: 0, skipped: 3, refused: [] });
    again.outbox.start();
    await again.drained();
    const tasks = (await api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace })).filter(
      (t) => t.name === 'Exported task',
    );
    expect(tasks).toHaveLength(1);
    expect(tasks[0]!.priority).toBe(7);
    expect(
      (await api.call(messageEndpoints.taskMessages, { id: tasks[0]!.id })).map((m) => m.message),
    ).toEqual(['exported comment']);
    // Once sent, importing the file again sends nothing: the create is known by its real id.
    const third = await again.call('outbox.import', { file });
    expect(third.imported).toBe(0);
    await again.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a file of another account, and a file that is not an export, naming the field', async () => {
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
    await e.outbox.stop();
    const dispatch = createDispatch(e.handlers);
    const file = await e.call('outbox.export', {});
    const other: PendingChangesFile = {
      ...file,
      account: { ...file.account, key: 'another', userId: 'someone' },
    };
    expect(await dispatch('outbox.import', { file: other })).toEqual({
      ok: false,
      error: {
        type: 'conflict',
        field: 'file.account',
        message: expect.stringMatching(/holds the changes of user someone .*not of this account/),
      },
    });
    expect(await dispatch('outbox.import', { file: { ...file, format: 'something-else' } })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'file.format' },
    });
    expect(await dispatch('outbox.import', { file: { hello: 'world' } })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument' },
    });
    expect(e.outbox.status().pending).toBe(0);
    await e.close();
    rmSync(e.dataDir, { recursive: true, force: true });
  });
});

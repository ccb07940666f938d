import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHostSession } from '../../../src/main/core/accounts/host-session';
import type { Session } from '../../../src/main/core/accounts/session';
import { createFileSecretStore } from '../../../src/main/core/accounts/secret-store';
import { createJsonSettingsStore } from '../../../src/main/core/accounts/settings-store';
import { startBundledServer } from '../../../src/main/core/bundled-server';

let dir: string;
let session: Session | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-notify-'));
});
afterEach(async () => {
  await session?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('action-required notifications on the local workspace', () => {
  it('notifies once when a task becomes action-required for the acting user, not at start-up', async () => {
    const notify = vi.fn();
    session = await startHostSession({
      dataDir: dir,
      settings: createJsonSettingsStore(join(dir, 'settings.json')),
      secrets: createFileSecretStore(join(dir, 'secrets.json')),
      startServer: startBundledServer,
      version: 'test',
      transport: 'web',
      log: () => {},
      notifier: { notify },
    });
    const syncNow = async () => {
      const result = await session!.dispatch('sync.now', { wait: true });
      expect(result).toMatchObject({ ok: true, value: { lastError: null } });
    };
    // The first completed run is the baseline: the demo's action-required tasks notify nothing.
    await syncNow();

    // Someone else gives the acting user a task, on the service.
    const connection = session.activeConnection()!;
    const tree = await session.dispatch('projects.tree', {});
    const project = (tree as { value: { nodes: { id: string; isFolder: boolean }[] } }).value.nodes.find(
      (node) => !node.isFolder,
    );
    const created = await fetch(`${connection.baseUrl}/tasks`, {
      method: 'POST',
      headers: { [connection.tokenHeader]: connection.token, 'content-type': 'application/json' },
      body: JSON.stringify({
        projectId: project!.id,
        title: 'Approve the release notes',
        fromUserId: 'u-bob',
        toUserId: connection.userId,
      }),
    });
    expect(created.status).toBe(200);
    const { id: taskId } = (await created.json()) as { id: string };

    await syncNow();
    // The day's "Due today" notice (the demo has tasks due today) is another kind; only the
    // action-required notices are judged here. Reads run in order, so once this one notified,
    // the baseline read has been done too: one such call in all proves the start-up run notified
    // none.
    const actionRequired = () =>
      notify.mock.calls
        .map(([notice]) => notice as { title: string })
        .filter((n) => n.title === 'Your action is required');
    await vi.waitFor(() => expect(actionRequired()).not.toHaveLength(0));
    expect(actionRequired()).toEqual([
      { title: 'Your action is required', body: 'Approve the release notes', taskId },
    ]);
  });
});

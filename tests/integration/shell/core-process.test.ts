// The core in a process of its own, for real: a Node child runs the host session (as Electron's
// utility process does), the test is its host, and the account is the real service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_ACCOUNT_ID } from '../../../src/shared/ipc/accounts';
import { createFileSecretStore } from '../../../src/main/core/accounts/secret-store';
import { createJsonSettingsStore } from '../../../src/main/core/accounts/settings-store';
import { startCoreProcess, type CoreProcess } from '../../../src/main/core/process/core-process';
import { forkCoreChild } from '../../../src/main/core/process/links';
import type { ChildLink } from '../../../src/main/core/process/messages';
import { startService, type RunningService } from '../../support/service';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';

const ENTRY = join(import.meta.dirname, '..', '..', '..', 'src', 'main', 'core', 'process', 'entry.ts');

let dir: string;
let service: RunningService;
let proxy: FaultProxy;
let core: CoreProcess | undefined;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-core-process-'));
  service = await startService({ seed: 'demo' });
  // The account reaches the service through a proxy, so the test can refuse its writes a while.
  proxy = await startFaultProxy({ target: service.baseUrl });
});
afterEach(async () => {
  await core?.close();
  core = undefined;
  await proxy.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serviceTasks(projectId: string): Promise<{ id: string; name: string }[]> {
  const res = await fetch(`${service.baseUrl}/project/${projectId}/tasks`, {
    headers: { 'gd-api-token': service.token },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; name: string }[];
}

describe('the core in its own process', () => {
  it('adds an account, writes and reads through the child, and loses nothing when the child is killed', async () => {
    const children: ChildLink[] = [];
    const settings = createJsonSettingsStore(join(dir, 'settings.json'));
    const secrets = createFileSecretStore(join(dir, 'secrets.json'));
    core = await startCoreProcess({
      spawn: () => {
        const child = forkCoreChild(ENTRY, { execArgv: ['--import', 'tsx'] });
        children.push(child);
        return child;
      },
      start: { dataDir: dir, version: 'test', transport: 'web' },
      secrets,
      secretKeys: () => [LOCAL_ACCOUNT_ID, ...settings.read().accounts.map((a) => a.id)],
      log: () => {},
      restartDelayMs: 10,
    });
    const info = await core.dispatch('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { version: 'test', transport: 'web' } });
    // A bad argument is answered by the child's dispatch, naming the field.
    await expect(core.dispatch('tasks.list', { projectId: 7 })).resolves.toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'projectId' },
    });

    const added = await core.dispatch('accounts.add', {
      label: 'Team',
      baseUrl: proxy.baseUrl,
      token: service.token,
      userId: service.users.actingUserId,
    });
    expect(added).toMatchObject({ ok: true, value: { label: 'Team' } });
    const accountId = (added as { value: { id: string } }).value.id;
    // The token went to the host's store, which keeps it (the child only had a copy).
    expect(secrets.get(accountId)).toBe(service.token);
    expect(await core.dispatch('accounts.switch', { id: accountId })).toMatchObject({ ok: true });
    expect(await core.dispatch('sync.now', { wait: true })).toMatchObject({
      ok: true,
      value: { lastError: null },
    });

    const tree = await core.dispatch('projects.tree', {});
    const project = (tree as { value: { nodes: { id: string; isFolder: boolean }[] } }).value.nodes.find(
      (node) => !node.isFolder,
    )!;
    const events: string[] = [];
    core.events.onAny((name) => events.push(name));
    // The service refuses writes for now (429, Retry-After 3 s): the change waits in the outbox.
    proxy.set({ tooMany: { rate: 1, match: /^POST /, retryAfterSeconds: 3 } });
    const created = await core.dispatch('tasks.create', {
      projectId: project.id,
      title: 'Written through the child',
    });
    expect(created).toMatchObject({ ok: true });
    // The write is in the cache at once (a read through the child sees it) and its events came back.
    const list = await core.dispatch('tasks.list', { projectId: project.id });
    expect((list as { value: { rows: { name: string }[] } }).value.rows.map((r) => r.name)).toContain(
      'Written through the child',
    );
    await vi.waitFor(() => expect(events).toContain('outbox.onDidChange'));
    await vi.waitFor(() => expect(proxy.stats().injected.tooMany).toBeGreaterThan(0), {
      timeout: 30_000,
    });
    expect(await core.dispatch('outbox.status', {})).toMatchObject({ ok: true, value: { pending: 1 } });

    // The child dies with the change unsent; the host starts another, which reopens the account
    // with the token the host kept and finds the change in its outbox (on disk).
    children[0]!.kill();
    await vi.waitFor(() => expect(events).toContain('app.onDidNotice'), { timeout: 30_000 });
    expect(await core.dispatch('outbox.status', {})).toMatchObject({ ok: true, value: { pending: 1 } });
    expect(children).toHaveLength(2);
    expect(core.restarts).toBe(1);
    const again = await core.dispatch('tasks.list', { projectId: project.id });
    expect((again as { value: { rows: { name: string }[] } }).value.rows.map((r) => r.name)).toContain(
      'Written through the child',
    );
    // The service takes writes again: the new core sends the change when its wait after the 429s
    // is over (a wait that grows with each refused attempt, so a slow machine that retried more
    // often waits longer), exactly once.
    proxy.reset();
    expect(await core.dispatch('sync.now', { wait: true })).toMatchObject({
      ok: true,
      value: { lastError: null },
    });
    await vi.waitFor(
      async () => {
        const onService = (await serviceTasks(project.id)).filter(
          (t) => t.name === 'Written through the child',
        );
        expect(onService).toHaveLength(1);
      },
      { timeout: 90_000, interval: 250 },
    );
    await vi.waitFor(
      async () => expect(await core!.dispatch('outbox.status', {})).toMatchObject({ value: { pending: 0 } }),
      { timeout: 30_000 },
    );
    // Two cores compiled from TypeScript at start, and the waits after 429s: on a loaded machine
    // (the whole suite beside it) this takes far longer than the 5-13 s it takes alone.
  }, 180_000);
});

// Rule 4, 401: the service refuses the token, sending pauses and `sync.status` says a token is
// needed; `accounts.setToken` checks and stores a new one, and the queue drains with it. The
// session, core, outbox and probe are the real ones, against the real service (which refuses
// the stale token stored at first) behind the fault proxy (which answers 401 while told to).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/main/core/api/client';
import { createProbe } from '../../../src/main/core/accounts/probe';
import { createMemorySecretStore } from '../../../src/main/core/accounts/secret-store';
import { startSession, type Session } from '../../../src/main/core/accounts/session';
import { createMemorySettingsStore } from '../../../src/main/core/accounts/settings-store';
import { createCore } from '../../../src/main/core/core';
import { SEED_IDS } from '../../../src/server/seed/index';
import { DEFAULT_SETTINGS } from '../../../src/shared/ipc/settings';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startService, type RunningService } from '../../support/service';
import { taskEndpoints } from '../../../src/shared/api/tasks';

let svc: RunningService;
let proxy: FaultProxy;
let session: Session;
let dir: string;
const logs: string[] = [];

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  proxy = await startFaultProxy({ target: svc.baseUrl });
  dir = mkdtempSync(join(tmpdir(), 'token-test-'));
  const secrets = createMemorySecretStore();
  secrets.set('team', 'stale-token-value');
  session = await startSession({
    dataDir: dir,
    settings: createMemorySettingsStore({
      ...DEFAULT_SETTINGS,
      accounts: [
        {
          id: 'team',
          kind: 'remote',
          label: 'Team',
          baseUrl: proxy.baseUrl,
          tokenHeader: 'svc-api-token',
          userId: svc.users.actingUserId,
        },
      ],
      activeAccountId: 'team',
    }),
    secrets,
    probe: createProbe(),
    startLocalService: () => Promise.reject(new Error('the local service is not used here')),
    openCore: ({ connection, dataDir }) =>
      createCore({
        version: 'test',
        transport: 'web',
        dataDir,
        connection: { ...connection, timeoutMs: 2_000 },
        log: (line) => logs.push(line),
      }),
    newId: () => 'unused',
    log: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await session?.close();
  await proxy?.close();
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(channel: string, arg: unknown): Promise<unknown> {
  const result = await session.dispatch(channel, arg);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('401: token needed, then accounts.setToken', () => {
  it('pauses with "token needed" and drains once a new token is given', async () => {
    // The stored token is stale: the service refuses the start-up pull.
    await until('token needed by sync', async () => {
      const s = (await call('sync.status', {})) as { running: boolean; tokenNeeded: boolean };
      return !s.running && s.tokenNeeded;
    });
    const good = await session.dispatch('accounts.setToken', { id: 'team', token: svc.token });
    expect(good).toMatchObject({ ok: true });
    await until('the first pull', async () => {
      const s = (await call('sync.status', {})) as { running: boolean; lastSyncedAt: string | null };
      return !s.running && s.lastSyncedAt !== null;
    });
    expect(await call('sync.status', {})).toMatchObject({ tokenNeeded: false });
    // The service starts refusing the token.
    proxy.set({ unauthorized: { rate: 1 } });
    await call('tasks.create', { projectId: SEED_IDS.workspace, title: 'after the 401' });
    await until('token needed', async () => {
      const s = (await call('sync.status', {})) as { tokenNeeded: boolean; pendingCount: number };
      return s.tokenNeeded && s.pendingCount === 1;
    });
    expect(await call('outbox.status', {})).toMatchObject({ paused: 'token-needed', pending: 1 });

    // A token the service refuses is not taken.
    const refused = await session.dispatch('accounts.setToken', { id: 'team', token: 'also-refused' });
    expect(refused).toMatchObject({ ok: false, error: { type: 'unauthorized', field: 'token' } });

    proxy.reset();
    const answer = await session.dispatch('accounts.setToken', { id: 'team', token: svc.token });
    expect(answer).toMatchObject({ ok: true, value: { activeId: 'team' } });
    await until('the queue drained', async () => {
      const s = (await call('outbox.status', {})) as { pending: number; paused: string | null };
      return s.pending === 0 && s.paused === null;
    });
    expect(await call('sync.status', {})).toMatchObject({ tokenNeeded: false });

    const api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    const tasks = await api.call(taskEndpoints.projectTasks, {
      id: SEED_IDS.workspace,
      query: { closed: true },
    });
    expect(tasks.filter((t) => t.name === 'after the 401')).toHaveLength(1);
    // Neither token travels back or reaches a log line.
    for (const token of [svc.token, 'stale-token-value']) {
      expect(JSON.stringify([good, answer])).not.toContain(token);
      expect(logs.join('\n')).not.toContain(token);
    }
    expect(logs.join('\n')).not.toContain('also-refused');
  });
});

import { mkdtempSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatch } from '../dispatch';
import { HandlerError } from '../errors';
import { EventHub } from '../event-hub';
import type { Core } from '../core';
import { appHandlers } from '../handlers/app';
import { createMemorySecretStore } from './secret-store';
import { createMemorySettingsStore } from './settings-store';
import { startSession, type SessionDeps } from './session';
import { DEFAULT_NOTIFICATIONS } from '../../../shared/ipc/settings';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-session-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup(overrides: Partial<SessionDeps> = {}) {
  const opened: {
    accountId: string;
    baseUrl: string;
    core: Core;
    close: ReturnType<typeof vi.fn>;
    setting: string | undefined;
  }[] = [];
  const localClose = vi.fn(async () => {});
  const deps: SessionDeps = {
    dataDir: dir,
    settings: createMemorySettingsStore(),
    secrets: createMemorySecretStore(),
    probe: async () => {},
    startLocalService: vi.fn(async () => ({
      connection: {
        baseUrl: 'http://127.0.0.1:5555/2.0',
        token: 'local-tok',
        tokenHeader: 'svc-api-token',
        userId: 'demo',
      },
      close: localClose,
    })),
    openCore: async ({ account, connection, dataDir, serviceClock }) => {
      mkdirSync(dataDir, { recursive: true });
      const close = vi.fn(async () => {});
      const core: Core = {
        dispatch: createDispatch(appHandlers({ version: account.id, transport: 'web' })),
        events: new EventHub(),
        engine: null,
        close,
      };
      opened.push({
        accountId: account.id,
        baseUrl: connection.baseUrl,
        core,
        close,
        setting: serviceClock.setting,
      });
      return core;
    },
    newId: () => 'remote-1',
    ...overrides,
  };
  return { deps, opened, localClose };
}

// A team's server on the local network, over http: confirmed as the form asks.
const remote = {
  label: 'Team',
  baseUrl: 'http://10.0.0.2:8080/',
  token: 'remote-tok',
  userId: 'u9',
  insecureConfirmed: true,
};

describe('session', () => {
  it("answers the window's first reads with those read ahead, until the cache changes", async () => {
    let n = 0;
    const dispatch = vi.fn(async (channel: unknown) => ({ ok: true as const, value: { channel, n: ++n } }));
    const events = new EventHub();
    const { deps } = setup({
      openCore: async ({ dataDir }) => {
        mkdirSync(dataDir, { recursive: true });
        return { dispatch, events, engine: null, close: vi.fn(async () => {}) };
      },
    });
    const session = await startSession(deps);
    session.readAhead();
    await vi.waitFor(() => expect(dispatch).toHaveBeenCalledWith('updates.list', {}));
    const calls = dispatch.mock.calls.length;
    // Read ahead: answered without another read.
    const tree = await session.dispatch('projects.tree', { includeArchived: true });
    expect(tree).toEqual({ ok: true, value: { channel: 'projects.tree', n: 3 } });
    expect(dispatch).toHaveBeenCalledTimes(calls);
    // A change in the cache: what was read ahead is read again.
    events.emit('cache.onDidChange', { entities: ['users'] });
    expect(await session.dispatch('org.users', {})).toEqual({
      ok: true,
      value: { channel: 'org.users', n: calls + 1 },
    });
    await session.close();
  });

  it('starts the local service and opens its workspace when no account is configured', async () => {
    const { deps, opened } = setup();
    const session = await startSession(deps);
    expect(deps.startLocalService).toHaveBeenCalledOnce();
    expect(opened.map((o) => [o.accountId, o.baseUrl])).toEqual([['local', 'http://127.0.0.1:5555/2.0']]);
    expect(await session.dispatch('accounts.list', {})).toEqual({
      ok: true,
      value: {
        accounts: [{ id: 'local', kind: 'local', label: 'Local workspace', userId: 'demo' }],
        activeId: 'local',
      },
    });
    // Other channels go to the active account's core.
    expect(await session.dispatch('app.info', {})).toMatchObject({ ok: true, value: { version: 'local' } });
    expect(await session.dispatch('nope.verb', {})).toMatchObject({
      ok: false,
      error: { type: 'unknown-channel' },
    });
    await session.close();
  });

  it('adds a remote account, switches to it (stopping the local service) and back', async () => {
    const { deps, opened, localClose } = setup();
    const session = await startSession(deps);
    const changes: unknown[] = [];
    session.events.onAny((name, payload) => name === 'accounts.onDidChange' && changes.push(payload));

    const added = await session.dispatch('accounts.add', remote);
    expect(added).toMatchObject({ ok: true, value: { id: 'remote-1', baseUrl: 'http://10.0.0.2:8080/2.0' } });
    const switched = await session.dispatch('accounts.switch', { id: 'remote-1' });
    expect(switched).toMatchObject({ ok: true, value: { activeId: 'remote-1' } });
    expect(opened[0]?.close).toHaveBeenCalledOnce();
    expect(localClose).toHaveBeenCalledOnce();
    expect(session.activeConnection()).toEqual({
      baseUrl: 'http://10.0.0.2:8080/2.0',
      token: 'remote-tok',
      tokenHeader: 'svc-api-token',
      userId: 'u9',
    });
    expect(await session.dispatch('app.info', {})).toMatchObject({
      ok: true,
      value: { version: 'remote-1' },
    });

    await session.dispatch('accounts.switch', { id: 'local' });
    expect(deps.startLocalService).toHaveBeenCalledTimes(2);
    expect(opened.map((o) => o.accountId)).toEqual(['local', 'remote-1', 'local']);
    expect(changes).toHaveLength(3);
    await session.close();
  });

  it('after a switch of account, the new account\u2019s waiting tasks are a baseline for the system notifications', async () => {
    const lists: Record<string, { id: string; name: string }[]> = {
      local: [{ id: 't1', name: 'Ship it' }],
      'remote-1': [{ id: 't7', name: 'Review the budget' }],
    };
    const notified: string[] = [];
    const { deps, opened } = setup({ notifier: { notify: (n) => notified.push(n.body) } });
    const openCore = deps.openCore;
    deps.openCore = async (options) => {
      const core = await openCore(options);
      const appDispatch = core.dispatch;
      const dispatch: Core['dispatch'] = (channel, arg) =>
        channel === 'tasks.myWorkNames'
          ? Promise.resolve({ ok: true, value: [...lists[options.account.id]!] })
          : appDispatch(channel, arg);
      return { ...core, dispatch };
    };
    const session = await startSession(deps);
    const synced = (core: Core, at: string) => {
      core.events.emit('cache.onDidChange', { entities: ['tasks'] });
      core.events.emit('sync.onDidChangeStatus', { running: false, lastSyncedAt: at } as never);
    };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    synced(opened[0]!.core, '2026-11-27T12:00:00Z');
    await settle();
    await session.dispatch('accounts.add', remote);
    await session.dispatch('accounts.switch', { id: 'remote-1' });
    synced(opened[1]!.core, '2026-11-27T12:01:00Z');
    await settle();
    expect(notified).toEqual([]);
    lists['remote-1']!.push({ id: 't8', name: 'Call the supplier' });
    synced(opened[1]!.core, '2026-11-27T12:02:00Z');
    await settle();
    expect(notified).toEqual(['Call the supplier']);
    await session.close();
  });

  it('forwards the active core\u2019s events to its listeners', async () => {
    const { deps, opened } = setup();
    const session = await startSession(deps);
    const seen: string[] = [];
    session.events.onAny((name) => seen.push(name));
    opened[0]?.core.events.emit('app.onDidLog', { level: 'info', message: 'hi' });
    expect(seen).toEqual(['app.onDidLog']);
    await session.close();
  });

  it('signs out of the active account after confirmation, removes its cache and returns to local', async () => {
    const { deps, opened } = setup({ pendingChanges: async () => 2 });
    const session = await startSession(deps);
    await session.dispatch('accounts.add', remote);
    await session.dispatch('accounts.switch', { id: 'remote-1' });
    const cache = join(dir, 'accounts', 'remote-1');
    expect(existsSync(cache)).toBe(true);

    const refused = await session.dispatch('accounts.remove', { id: 'remote-1' });
    expect(refused).toMatchObject({ ok: false, error: { type: 'conflict', field: 'confirmed' } });
    expect(existsSync(cache)).toBe(true);
    expect(opened[1]?.close).not.toHaveBeenCalled();

    const removed = await session.dispatch('accounts.remove', { id: 'remote-1', confirmed: true });
    expect(removed).toMatchObject({ ok: true, value: { activeId: 'local' } });
    expect(opened[1]?.close).toHaveBeenCalledOnce();
    expect(existsSync(cache)).toBe(false);
    expect(opened.at(-1)?.accountId).toBe('local');
    await session.close();
  });

  it('keeps preferences in the settings store and announces changes', async () => {
    const { deps } = setup();
    const session = await startSession(deps);
    const seen: unknown[] = [];
    session.events.onAny((name, payload) => name === 'settings.onDidChange' && seen.push(payload));
    expect(await session.dispatch('settings.update', { theme: 'dark' })).toEqual({
      ok: true,
      value: {
        syncIntervalSeconds: 60,
        theme: 'dark',
        notifications: DEFAULT_NOTIFICATIONS,
        conflictPolicy: 'mine',
      },
    });
    expect(deps.settings.read().preferences.theme).toBe('dark');
    expect(seen).toEqual([
      {
        syncIntervalSeconds: 60,
        theme: 'dark',
        notifications: DEFAULT_NOTIFICATIONS,
        conflictPolicy: 'mine',
      },
    ]);
    // A change of one notice leaves the rest alone, and a later change of another field keeps it.
    const quiet = { ...DEFAULT_NOTIFICATIONS, comment: { toast: true, system: false } };
    await session.dispatch('settings.update', { notifications: quiet });
    await session.dispatch('settings.update', { syncIntervalSeconds: 120 });
    expect(deps.settings.read().preferences).toEqual({
      syncIntervalSeconds: 120,
      theme: 'dark',
      notifications: quiet,
      conflictPolicy: 'mine',
    });
    expect(await session.dispatch('settings.update', { conflictPolicy: 'ask' })).toMatchObject({
      ok: true,
      value: { conflictPolicy: 'ask' },
    });
    expect(deps.settings.read().preferences.conflictPolicy).toBe('ask');
    expect(await session.dispatch('settings.update', { theme: 'neon' })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'theme' },
    });
    await session.close();
  });

  it('opens the active remote account without a token when it went missing: the 401 flow asks for it', async () => {
    const first = setup();
    const session = await startSession(first.deps);
    await session.dispatch('accounts.add', remote);
    await session.dispatch('accounts.switch', { id: 'remote-1' });
    await session.close();
    // The token went missing between runs (a damaged secrets file, one that no longer decrypts).
    first.deps.secrets.delete('remote-1');

    const again = await startSession(first.deps);
    expect(again.accounts.state().activeId).toBe('remote-1');
    expect(again.activeConnection()).toMatchObject({ baseUrl: 'http://10.0.0.2:8080/2.0', token: '' });
    await again.close();
  });

  it('falls back to the local workspace when the active remote account cannot be opened, and says so', async () => {
    const log = vi.fn();
    const first = setup();
    const session = await startSession(first.deps);
    await session.dispatch('accounts.add', remote);
    await session.dispatch('accounts.switch', { id: 'remote-1' });
    await session.close();

    const failing = setup({
      ...first.deps,
      log,
      openCore: async (args) => {
        if (args.account.id === 'remote-1') throw new Error('EACCES: permission denied');
        return first.deps.openCore(args);
      },
    });
    const again = await startSession(failing.deps);
    expect(again.accounts.state().activeId).toBe('local');
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/Could not open "Team": EACCES/));
    const notices = await again.dispatch('app.notices', {});
    expect(notices).toMatchObject({
      ok: true,
      value: [
        { level: 'error', title: '"Team" could not be opened', message: expect.stringContaining('EACCES') },
      ],
    });
    await again.close();
  });

  it("gathers the host's notices and each opened core's, and announces new ones", async () => {
    const hostNotice = {
      id: 'settings',
      level: 'warning',
      title: 'Settings',
      message: 'm',
      file: null,
    } as const;
    const coreNotice = {
      id: 'cache',
      level: 'warning',
      title: 'Cache',
      message: 'm',
      file: '/x.corrupt',
    } as const;
    const { deps } = setup({ notices: [hostNotice] });
    const openCore = deps.openCore;
    const session = await startSession({
      ...deps,
      openCore: async (args) => {
        const core = await openCore(args);
        return { ...core, engine: { notices: [coreNotice] } as unknown as NonNullable<Core['engine']> };
      },
    });
    expect(await session.dispatch('app.notices', {})).toEqual({ ok: true, value: [hostNotice, coreNotice] });
    await session.close();
  });

  it('takes a new token for the open account: checked, stored, the core reopened with it', async () => {
    const probe = vi.fn(async () => {});
    const { deps, opened } = setup({ probe });
    const session = await startSession(deps);
    await session.dispatch('accounts.add', remote);
    await session.dispatch('accounts.switch', { id: 'remote-1' });
    const changes: unknown[] = [];
    session.events.onAny((name, payload) => name === 'accounts.onDidChange' && changes.push(payload));

    const result = await session.dispatch('accounts.setToken', { id: 'remote-1', token: ' fresh-tok ' });
    expect(result).toMatchObject({ ok: true, value: { activeId: 'remote-1' } });
    // The answer and the event carry no token.
    expect(JSON.stringify([result, changes])).not.toMatch(/fresh-tok/);
    expect(changes).toHaveLength(1);
    expect(probe).toHaveBeenLastCalledWith(expect.objectContaining({ token: 'fresh-tok', userId: 'u9' }));
    expect(deps.secrets.get('remote-1')).toBe('fresh-tok');
    expect(opened.map((o) => o.accountId)).toEqual(['local', 'remote-1', 'remote-1']);
    expect(opened[1]?.close).toHaveBeenCalledOnce();
    expect(session.activeConnection()?.token).toBe('fresh-tok');
    await session.close();
  });

  it('keeps the old token and the open core when the service refuses the new one', async () => {
    const { deps, opened } = setup();
    const session = await startSession(deps);
    await session.dispatch('accounts.add', remote);
    await session.dispatch('accounts.switch', { id: 'remote-1' });
    deps.probe = async () => {
      throw new HandlerError('unauthorized', 'The service refused the token', 'token');
    };
    const again = await startSession(deps);
    expect(await again.dispatch('accounts.setToken', { id: 'remote-1', token: 'bad' })).toMatchObject({
      ok: false,
      error: { type: 'unauthorized', field: 'token' },
    });
    expect(deps.secrets.get('remote-1')).toBe('remote-tok');
    expect(opened.at(-1)?.close).not.toHaveBeenCalled();
    expect(await again.dispatch('accounts.setToken', { id: 'local', token: 'x' })).toMatchObject({
      ok: false,
      error: { type: 'rejected', field: 'id' },
    });
    expect(await again.dispatch('accounts.setToken', { id: 'remote-1', token: ' ' })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'token' },
    });
    await again.close();
    await session.close();
  });

  it('stays on the open account when the one switched to cannot be opened', async () => {
    const { deps, opened } = setup();
    const openCore = deps.openCore;
    deps.openCore = async (args) => {
      if (args.account.id === 'remote-1') throw new HandlerError('internal', 'The data folder is read-only');
      return openCore(args);
    };
    const session = await startSession(deps);
    await session.dispatch('accounts.add', remote);
    const result = await session.dispatch('accounts.switch', { id: 'remote-1' });
    expect(result).toMatchObject({ ok: false, error: { type: 'internal' } });
    expect(session.accounts.state().activeId).toBe('local');
    // The local workspace was closed for the switch, and opened again.
    expect(opened.map((o) => o.accountId)).toEqual(['local', 'local']);
    expect(await session.dispatch('app.info', {})).toMatchObject({ ok: true, value: { version: 'local' } });
    await session.close();
  });

  it('opens the local workspace on local time, and reopens a remote account on the clock chosen for it', async () => {
    const { deps, opened } = setup();
    const session = await startSession(deps);
    expect(opened.map((o) => [o.accountId, o.setting])).toEqual([['local', 'local']]);
    await session.dispatch('accounts.add', remote);
    await session.dispatch('accounts.switch', { id: 'remote-1' });
    const chosen = await session.dispatch('accounts.setServiceClock', {
      id: 'remote-1',
      serviceClock: 'utc',
    });
    expect(chosen).toMatchObject({
      ok: true,
      value: { accounts: [{}, { id: 'remote-1', serviceClock: 'utc' }] },
    });
    expect(opened.map((o) => [o.accountId, o.setting])).toEqual([
      ['local', 'local'],
      ['remote-1', 'auto'],
      ['remote-1', 'utc'],
    ]);
    expect(opened[1]?.close).toHaveBeenCalledOnce();
    expect(
      await session.dispatch('accounts.setServiceClock', { id: 'local', serviceClock: 'utc' }),
    ).toMatchObject({
      ok: false,
      error: { type: 'rejected', field: 'serviceClock' },
    });
    await session.close();
  });
});

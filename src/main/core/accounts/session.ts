import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { LOCAL_ACCOUNT_ID, type Account } from '../../../shared/ipc/accounts';
import { isChannelName } from '../../../shared/ipc/contract';
import type { Core } from '../core';
import { createDispatch, type Dispatch } from '../dispatch';
import { EventHub } from '../event-hub';
import { mergeHandlerMaps } from '../handlers/registry';
import type { HandlerMap } from '../handlers/types';
import { createAccounts, type Accounts } from './accounts';
import type { Connection, Probe } from './probe';
import type { SecretStore } from './secret-store';
import type { SettingsStore } from './settings-store';

/** The running embedded service (src/main/core/local-service.ts) as the session sees it. */
export interface RunningLocalService {
  connection: Connection;
  close(): Promise<void>;
}

export interface SessionDeps {
  /** The user-data folder: account caches go under `accounts/<id>/`. */
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  probe: Probe;
  /** Starts the bundled service; called only when the local workspace is used. */
  startLocalService(): Promise<RunningLocalService>;
  /** Opens the core (cache, outbox, sync, handlers) of one account. */
  openCore(args: { account: Account; connection: Connection; dataDir: string }): Promise<Core>;
  pendingChanges?(accountId: string): Promise<number>;
  newId(): string;
  log?(message: string): void;
}

export interface Session extends Core {
  accounts: Accounts;
  /** The connection of the active account (tests and the shell's notifications use it). */
  activeConnection(): Connection | undefined;
}

/**
 * Holds the accounts and the core of the active one, and presents them to the transports as one
 * `Core`: `accounts.*` and `settings.*` are answered here, every other channel by the active
 * account's core. With no account configured it starts the embedded local service and
 * connects to it exactly as to a remote one (DESIGN.md "The embedded default").
 */
export async function startSession(deps: SessionDeps): Promise<Session> {
  const events = new EventHub();
  const accountDir = (id: string): string => join(deps.dataDir, 'accounts', id);
  let inner: { accountId: string; core: Core; connection: Connection; unsubscribe(): void } | undefined;
  let local: RunningLocalService | undefined;
  // Switches, removals and close run one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  };

  async function closeInner(): Promise<void> {
    if (!inner) return;
    const closing = inner;
    inner = undefined;
    closing.unsubscribe();
    await closing.core.close();
  }

  const accounts = createAccounts({
    settings: deps.settings,
    secrets: deps.secrets,
    probe: deps.probe,
    pendingChanges: deps.pendingChanges ?? (async () => 0),
    newId: deps.newId,
    async dropAccountData(id) {
      if (inner?.accountId === id) await closeInner();
      await rm(accountDir(id), { recursive: true, force: true });
    },
  });

  async function startLocal(): Promise<RunningLocalService> {
    local ??= await deps.startLocalService();
    accounts.ensureLocal(local.connection.userId);
    return local;
  }

  /** Opens the active account's core, starting the local service when that is the one. */
  async function openActive(): Promise<void> {
    let account = accounts.active();
    if (!account) {
      await startLocal();
      accounts.setActive(LOCAL_ACCOUNT_ID);
      account = accounts.active();
    }
    if (!account) throw new Error('No active account after starting the local workspace');
    if (inner?.accountId === account.id) return;
    await closeInner();
    const connection =
      account.kind === 'local' ? (await startLocal()).connection : accounts.remoteConnection(account);
    if (account.kind !== 'local' && local) {
      // The bundled service runs only while the local workspace is in use.
      await local.close();
      local = undefined;
    }
    const core = await deps.openCore({ account, connection, dataDir: accountDir(account.id) });
    const unsubscribe = core.events.onAny((name, payload) => events.emit(name, payload as never));
    inner = { accountId: account.id, core, connection, unsubscribe };
  }

  const emitAccounts = (): void => events.emit('accounts.onDidChange', accounts.state());

  const own: Partial<HandlerMap> = mergeHandlerMaps([
    {
      'accounts.list': () => accounts.state(),
      'accounts.add': async (arg) => {
        const account = await accounts.add(arg);
        emitAccounts();
        return account;
      },
      'accounts.switch': (arg) =>
        serial(async () => {
          const state = accounts.setActive(arg.id);
          await openActive();
          emitAccounts();
          return state;
        }),
      'accounts.remove': (arg) =>
        serial(async () => {
          const state = await accounts.remove(arg.id, arg.confirmed);
          await openActive();
          emitAccounts();
          return state;
        }),
    } satisfies HandlerMap<'accounts.list' | 'accounts.add' | 'accounts.switch' | 'accounts.remove'>,
    {
      'settings.get': () => deps.settings.read().preferences,
      'settings.update': (arg) => {
        const current = deps.settings.read();
        const preferences = { ...current.preferences, ...arg };
        deps.settings.write({ ...current, preferences });
        events.emit('settings.onDidChange', preferences);
        return preferences;
      },
    } satisfies HandlerMap<'settings.get' | 'settings.update'>,
  ]);
  const ownDispatch = createDispatch(own, deps.log);

  const dispatch: Dispatch = async (channel, arg) => {
    if (typeof channel === 'string' && Object.prototype.hasOwnProperty.call(own, channel)) {
      return ownDispatch(channel, arg);
    }
    // The active core validates its own channels; an undeclared name is refused either way.
    if (!isChannelName(channel) || !inner) {
      if (!isChannelName(channel)) return ownDispatch(channel, arg);
      return { ok: false, error: { type: 'offline', message: 'No workspace is open' } };
    }
    return inner.core.dispatch(channel, arg);
  };

  await serial(openActive);

  return {
    dispatch,
    events,
    accounts,
    activeConnection: () => inner?.connection,
    close: () =>
      serial(async () => {
        await closeInner();
        if (local) await local.close();
        local = undefined;
      }),
  };
}

import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { LOCAL_ACCOUNT_ID, type Account } from '../../../shared/ipc/accounts';
import { DEFAULT_DOWNLOAD_CACHE_MIB, type Preferences } from '../../../shared/ipc/settings';
import type { DataNotice } from '../../../shared/ipc/app';
import type { StageResult } from '../../../shared/ipc/attachments';
import type { IpcResult } from '../../../shared/ipc/channel';
import { isChannelName } from '../../../shared/ipc/contract';
import type { Core } from '../core';
import type { Sync } from '../sync/sync';
import type { CoreFacade } from '../web-host';
import { watchActionRequired, watchUpdateNotices, type Notifier } from '../notifier';
import { createDispatch, type Dispatch } from '../dispatch';
import { EventHub } from '../event-hub';
import { valueWithin } from '../wait-at-most';
import { mergeHandlerMaps } from '../handlers/registry';
import type { HandlerMap } from '../handlers/types';
import { readAhead, type ReadAhead } from './read-ahead';
import {
  forgetFirstScreen,
  readFirstScreen,
  writeFirstScreen,
  type WriteFirstScreenArgs,
} from './first-screen-write';
import { cacheFileFor } from '../engine';
import { scheduleFirstPull, type FirstPull } from './first-pull';
import { createAccounts, refuseUnconfirmedClearText, type Accounts } from './accounts';
import { createUserLister, type Connection, type Probe, type UserLister } from './probe';
import type { SecretStore } from './secret-store';
import type { SettingsStore } from './settings-store';
import type { ServiceClockOptions } from '../api/service-clock';

/** The received files' cap in bytes, from the preferences (the default when unset). */
export function downloadCapBytes(preferences: Preferences): number {
  return (preferences.downloadCacheMiB ?? DEFAULT_DOWNLOAD_CACHE_MIB) * 1024 * 1024;
}

/** The running embedded service (src/main/core/local-service.ts) as the session sees it. */
export interface RunningLocalService {
  connection: Connection;
  close(): Promise<void>;
}

/** The longest the first screen's reads may take at close before the record is left out. */
const FIRST_SCREEN_READ_MS = 5_000;

export interface SessionDeps {
  /** The user-data folder: account caches go under `accounts/<id>/`. */
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  probe: Probe;
  /** Reads a service's users for the add-account form (default: GET /users over `fetch`). */
  listUsers?: UserLister;
  /** Starts the bundled service; called only when the local workspace is used. */
  startLocalService(): Promise<RunningLocalService>;
  /**
   * Opens the core (cache, outbox, sync, handlers) of one account, on its service clock. Its
   * sync need not be started: the session starts its first pull (`scheduleFirstPull`).
   */
  openCore(args: {
    account: Account;
    connection: Connection;
    dataDir: string;
    serviceClock: Omit<ServiceClockOptions, 'log'>;
  }): Promise<Core>;
  /** Unsent changes of an account; without it the count is unknown and signing out asks first. */
  pendingChanges?(accountId: string): Promise<number | null>;
  /** Told when a task becomes action-required for the active account's user. */
  notifier?: Notifier;
  newId(): string;
  log?(message: string): void;
  /** What the host found damaged before the session started (settings and secrets files). */
  notices?: readonly DataNotice[];
  /**
   * Given, the session writes the first-screen record (first-screen.ts) when it closes: the
   * window's first reads from the active account's cache, for the next start's host to answer
   * while the core loads. `version` is the app's (a record is served to the same version only).
   */
  firstScreen?: { version: string };
}

/** What the transports (Electron IPC, the web host's WebSocket) need of the core. */
export type Session = CoreFacade & {
  accounts: Accounts;
  /** The active account's core (its engine: cache, client, sync), once opened. */
  activeCore(): Core | undefined;
  /** The connection of the active account (tests and the shell's notifications use it). */
  activeConnection(): Connection | undefined;
  /**
   * Reads the window's first views from the active account's cache now, and answers its first
   * calls with them (unless the cache changed meanwhile): a host calls it once its window has
   * the page's script (the web host's `onPageServed`), so the reads are done while the window
   * evaluates it. See `read-ahead.ts`.
   */
  readAhead(): void;
  /** The Electron shell's dropped files, for the active account (see `Core.stageDroppedPaths`). */
  stageDroppedPaths(paths: readonly string[]): Promise<IpcResult<StageResult>>;
  close(): Promise<void>;
};

/**
 * Holds the accounts and the core of the active one, and presents them to the transports as one
 * `Core`: `accounts.*` and `settings.*` are answered here, every other channel by the active
 * account's core. With no account configured it starts the embedded local service and
 * connects to it exactly as to a remote one (DESIGN.md "The embedded default").
 */
export async function startSession(deps: SessionDeps): Promise<Session> {
  const events = new EventHub(deps.log);
  const accountDir = (id: string): string => join(deps.dataDir, 'accounts', id);
  let inner:
    | {
        accountId: string;
        core: Core;
        connection: Connection;
        firstPull?: FirstPull;
        /** The window's first reads, read while it loads (`readAhead`). */
        ahead?: ReadAhead;
        unsubscribe(): void;
      }
    | undefined;
  let local: RunningLocalService | undefined;
  // Switches, removals and close run one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  };

  /** Closes the open account; `beforeDbClose` as `Core.close` has it. */
  async function closeInner(
    beforeDbClose?: (closing: NonNullable<typeof inner>) => Promise<void>,
  ): Promise<void> {
    if (!inner) return;
    const closing = inner;
    inner = undefined;
    closing.unsubscribe();
    await closing.core.close(beforeDbClose && (() => beforeDbClose(closing)));
  }

  const accounts = createAccounts({
    settings: deps.settings,
    secrets: deps.secrets,
    probe: deps.probe,
    // The active account's outbox count comes from its sync status; another account's from
    // the host's port, else it is unknown.
    pendingChanges: async (id) =>
      inner?.accountId === id && inner.core.engine
        ? inner.core.engine.sync.status().pendingCount
        : ((await deps.pendingChanges?.(id)) ?? null),
    newId: deps.newId,
    async dropAccountData(id) {
      if (inner?.accountId === id) await closeInner();
      // The record of the first screen may hold this account's rows: it goes with its data.
      forgetFirstScreen(deps.dataDir);
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
    // Resolved before anything is closed: a missing token leaves the open account as it was.
    const connection =
      account.kind === 'local' ? (await startLocal()).connection : accounts.remoteConnection(account);
    await closeInner();
    if (account.kind !== 'local' && local) {
      // The bundled service runs only while the local workspace is in use.
      await local.close();
      local = undefined;
    }
    const core = await deps.openCore({
      account,
      connection,
      dataDir: accountDir(account.id),
      serviceClock: withAccountsEvent(accounts.serviceClockOf(account)),
    });
    for (const notice of core.engine?.notices ?? []) addNotice(notice);
    const forward = core.events.onAny((name, payload) => events.emit(name, payload as never));
    const log = deps.log ?? (() => {});
    const notices = () => deps.settings.read().preferences.notifications;
    const stopWatching = deps.notifier
      ? watchActionRequired(core, deps.notifier, log, () => notices().actionRequired.system)
      : () => {};
    const stopUpdates = deps.notifier ? watchUpdateNotices(core, deps.notifier, log, notices) : () => {};
    // Opened without its pull (see `openCore`): the pull waits for the window's first views.
    // (A core given without its sync, as some hosts' tests give one, has no pull to start.)
    const sync: Sync | undefined = core.engine?.sync;
    const firstPull = sync ? scheduleFirstPull(sync) : undefined;
    const unsubscribe = (): void => {
      firstPull?.cancel();
      forward();
      stopWatching();
      stopUpdates();
    };
    inner = { accountId: account.id, core, connection, unsubscribe, ...(firstPull ? { firstPull } : {}) };
  }

  /**
   * The window's first reads from the account about to close, the record of an earlier close
   * removed first (a crash or a failed close then leaves none). Undefined when they cannot be
   * read: the next start waits for its core, as without a record.
   */
  async function captureFirstScreen(open: {
    accountId: string;
    core: Core;
    connection: Connection;
  }): Promise<WriteFirstScreenArgs | undefined> {
    try {
      return {
        dataDir: deps.dataDir,
        version: deps.firstScreen!.version,
        accountId: open.accountId,
        cacheFile: cacheFileFor(accountDir(open.accountId), open.connection),
        // A read that does not end (none should: they read the cache) never holds the close up.
        answers: await valueWithin(
          readFirstScreen((channel, arg) => open.core.dispatch(channel, arg)),
          FIRST_SCREEN_READ_MS,
          () => new Error(`its reads took over ${FIRST_SCREEN_READ_MS} ms`),
        ),
      };
    } catch (err) {
      deps.log?.(`First screen: not recorded (${err instanceof Error ? err.message : String(err)})`);
      return undefined;
    }
  }

  /** Writes the record once the cache is closed; a failure is logged, the close goes on. */
  function keepFirstScreen(screen: WriteFirstScreenArgs): void {
    try {
      if (!writeFirstScreen(screen))
        deps.log?.(`First screen: not recorded (the cache ${screen.cacheFile} was not closed cleanly)`);
    } catch (err) {
      deps.log?.(`First screen: not recorded (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  const emitAccounts = (): void => events.emit('accounts.onDidChange', accounts.state());

  /** A learnt clock is saved into the account: the views showing accounts hear of it. */
  function withAccountsEvent(clock: ReturnType<Accounts['serviceClockOf']>): typeof clock {
    const { save } = clock;
    if (!save) return clock;
    return {
      ...clock,
      save(learnt) {
        save(learnt);
        emitAccounts();
      },
    };
  }

  // Notices about the user's files (a damaged cache, outbox, settings or secrets file), kept for
  // the session so a window opened later still shows them.
  const notices: DataNotice[] = [];
  const addNotice = (notice: DataNotice): void => {
    if (notices.some((n) => n.id === notice.id)) return;
    notices.push(notice);
    events.emit('app.onDidNotice', notice);
  };
  for (const notice of deps.notices ?? []) addNotice(notice);
  // Tokens not to be remembered are taken off the disk from the start.
  if (deps.settings.read().preferences.rememberTokens === false) deps.secrets.remember?.(false);

  const own: Partial<HandlerMap> = mergeHandlerMaps([
    {
      'accounts.list': () => accounts.state(),
      'accounts.users': (arg) => {
        refuseUnconfirmedClearText(arg);
        return (deps.listUsers ?? createUserLister())(arg);
      },
      'accounts.add': async (arg) => {
        const account = await accounts.add(arg);
        emitAccounts();
        return account;
      },
      'accounts.switch': (arg) =>
        serial(async () => {
          const previous = accounts.active()?.id;
          const state = accounts.setActive(arg.id);
          try {
            await openActive();
          } catch (err) {
            // Stay on (or go back to) the account that was open.
            if (previous) accounts.setActive(previous);
            await openActive();
            throw err;
          }
          emitAccounts();
          return state;
        }),
      'accounts.setToken': (arg) =>
        serial(async () => {
          const account = await accounts.setToken(arg);
          // The open account's client holds the old token: reopen it with the new one. Its
          // outbox starts unpaused and replays what waits (rule 3: start-up), sync runs again.
          if (inner?.accountId === account.id) {
            await closeInner();
            await openActive();
          }
          emitAccounts();
          return accounts.state();
        }),
      'accounts.setServiceClock': (arg) =>
        serial(async () => {
          const account = accounts.setServiceClock(arg);
          // The open account's engine holds the clock it was opened with: reopen it on the new one.
          if (inner?.accountId === account.id) {
            await closeInner();
            await openActive();
          }
          emitAccounts();
          return accounts.state();
        }),
      'accounts.remove': (arg) =>
        serial(async () => {
          const state = await accounts.remove(arg.id, arg.confirmed);
          await openActive();
          emitAccounts();
          return state;
        }),
    } satisfies HandlerMap<
      | 'accounts.list'
      | 'accounts.users'
      | 'accounts.add'
      | 'accounts.switch'
      | 'accounts.setToken'
      | 'accounts.setServiceClock'
      | 'accounts.remove'
    >,
    {
      'app.notices': () => [...notices],
    } satisfies HandlerMap<'app.notices'>,
    {
      'settings.get': () => deps.settings.read().preferences,
      'settings.tokenStorage': () => ({
        protection: deps.secrets.protection,
        remember: deps.settings.read().preferences.rememberTokens ?? true,
      }),
      'settings.update': (arg) => {
        const current = deps.settings.read();
        const preferences = { ...current.preferences, ...arg };
        deps.settings.write({ ...current, preferences });
        if (arg.downloadCacheMiB !== undefined)
          void inner?.core.engine?.downloads
            .setMaxBytes(downloadCapBytes(preferences))
            .catch((err: unknown) => deps.log?.(`downloads: the new cap was not applied: ${String(err)}`));
        if (arg.rememberTokens !== undefined) deps.secrets.remember?.(arg.rememberTokens);
        events.emit('settings.onDidChange', preferences);
        return preferences;
      },
    } satisfies HandlerMap<'settings.get' | 'settings.update' | 'settings.tokenStorage'>,
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
    const answer = inner.ahead?.take(channel, arg) ?? inner.core.dispatch(channel, arg);
    const { firstPull } = inner;
    if (firstPull) void answer.finally(() => firstPull.read(channel));
    return answer;
  };

  await serial(async () => {
    try {
      await openActive();
    } catch (err) {
      // A remote account that cannot be opened (a data folder that cannot be written, say) must
      // not keep the app from starting: the local workspace opens, and the user is told which
      // account could not be opened and why (its changes stay in its files). A damaged cache or
      // a token that no longer decrypts does not come here: the first is made again, the second
      // asked for (the 401 flow).
      const failed = accounts.active();
      if (failed?.kind !== 'remote') throw err;
      const reason = err instanceof Error ? err.message : String(err);
      deps.log?.(`Could not open "${failed.label}": ${reason}`);
      addNotice({
        id: `open-failed:${failed.id}`,
        level: 'error',
        title: `"${failed.label}" could not be opened`,
        message: `${reason}. The local workspace is open instead; the account's unsent changes stay in its files under ${accountDir(failed.id)} and are sent once it opens.`,
        file: null,
      });
      await startLocal();
      accounts.setActive(LOCAL_ACCOUNT_ID);
      await openActive();
    }
  });

  // Read by now: a damaged settings or secrets file was recovered on its first read.
  for (const notice of [...(deps.settings.notices?.() ?? []), ...(deps.secrets.notices?.() ?? [])])
    addNotice(notice);

  return {
    dispatch,
    events,
    accounts,
    activeConnection: () => inner?.connection,
    activeCore: () => inner?.core,
    readAhead() {
      if (!inner || inner.ahead) return;
      const { core } = inner;
      const ahead = readAhead((channel, arg) => core.dispatch(channel, arg));
      const off = core.events.onAny((name) => {
        if (name === 'cache.onDidChange') ahead.changed();
      });
      const { unsubscribe } = inner;
      inner.ahead = ahead;
      inner.unsubscribe = () => {
        // The account closes: nothing more is read ahead from its cache.
        ahead.changed();
        off();
        unsubscribe();
      };
    },
    async stageDroppedPaths(paths) {
      const stage = inner?.core.stageDroppedPaths;
      if (!stage) return { ok: false, error: { type: 'offline', message: 'No workspace is open' } };
      try {
        return { ok: true, value: await stage(paths) };
      } catch (err) {
        return {
          ok: false,
          error: { type: 'internal', message: err instanceof Error ? err.message : String(err) },
        };
      }
    },
    close: () =>
      serial(async () => {
        // Read once the outbox and the sync have stopped, before the cache file closes: the
        // record is what the closed file holds (a pull or a send answered during the close
        // would otherwise be in the file and not in the record).
        let screen: WriteFirstScreenArgs | undefined;
        // An earlier close's record goes first: a close that fails leaves none.
        if (deps.firstScreen) forgetFirstScreen(deps.dataDir);
        await closeInner(
          deps.firstScreen
            ? async (closing) => {
                screen = await captureFirstScreen(closing);
              }
            : undefined,
        );
        if (screen) keepFirstScreen(screen);
        if (local) await local.close();
        local = undefined;
      }),
  };
}

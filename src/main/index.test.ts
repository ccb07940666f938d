import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CORE_HEAP_FLAGS } from './core/process/heap';
import { stampClosed } from './core/cache/recovery';
import { writeFirstScreen } from './core/accounts/first-screen-write';

type Listener = (...args: unknown[]) => void;

const h = vi.hoisted(() => {
  const appListeners = new Map<string, Listener>();
  const state = { lock: true, ready: Promise.resolve(), holdCoreReady: false };
  const windows: { webContents: { send: ReturnType<typeof vi.fn> } }[] = [];
  const preferences: { quickCaptureShortcut?: boolean } = {};
  const trays: { menu: unknown; destroy: ReturnType<typeof vi.fn> }[] = [];
  const shortcuts = new Map<string, () => void>();
  /**
   * Electron's utility process, played here: it runs no core, but answers as the core's entry
   * does (src/main/core/process/core-child.ts): ready after start, each call by its id.
   */
  class FakeUtility {
    readonly #listeners = new Map<string, ((arg: unknown) => void)[]>();
    on(name: string, listener: (arg: unknown) => void): this {
      this.#listeners.set(name, [...(this.#listeners.get(name) ?? []), listener]);
      return this;
    }
    emit(name: string, arg: unknown): void {
      for (const listener of this.#listeners.get(name) ?? []) listener(arg);
    }
    readonly received: { type: string; id?: number; [key: string]: unknown }[] = [];
    readonly kill = vi.fn(() => {
      this.emit('exit', null);
      return true;
    });
    answer = (message: { type: string; id?: number; channel?: string }): unknown => {
      if (message.type === 'stage') return { ok: true, value: { staged: [], refused: [] } };
      if (message.type === 'localPath') return { ok: true, value: '/cache/F1/plan.pdf' };
      return { ok: true, value: 1 };
    };
    postMessage(message: { type: string; id?: number; channel?: string }): void {
      this.received.push(message);
      queueMicrotask(() => {
        if (message.type === 'start') {
          // Held: the test says when the core is ready (`ready()`).
          if (!state.holdCoreReady) this.ready();
          return;
        }
        this.emit('message', { type: 'result', id: message.id, result: this.answer(message) });
        if (message.type === 'close') this.emit('exit', 0);
      });
    }
    ready(): void {
      this.emit('message', { type: 'ready' });
    }
    /** The core emits an event. */
    event(name: string, payload: unknown): void {
      this.emit('message', { type: 'event', name, payload });
    }
    calls(type = 'call') {
      return this.received.filter((m) => m.type === type);
    }
  }
  const utilities: FakeUtility[] = [];
  return {
    appListeners,
    state,
    windows,
    utilities,
    utilityProcess: {
      fork: vi.fn((_entry: string) => {
        const child = new FakeUtility();
        utilities.push(child);
        return child;
      }),
    },
    preferences,
    trays,
    shortcuts,
    dialog: { showErrorBox: vi.fn(), showSaveDialog: vi.fn() },
    app: {
      setAsDefaultProtocolClient: vi.fn(() => true),
      requestSingleInstanceLock: vi.fn(() => state.lock),
      quit: vi.fn(),
      exit: vi.fn(),
      on: vi.fn((name: string, listener: Listener) => appListeners.set(name, listener)),
      whenReady: vi.fn(() => state.ready),
      getPath: vi.fn((name: string): string => (name === 'downloads' ? '/downloads' : '/user-data')),
      getVersion: () => '9.9.9',
      getName: () => 'Workdesk',
      getAppPath: () => '/app',
      isPackaged: false,
    },
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
    defaultSession: { id: 'default-session' },
    hardenSession: vi.fn(),
    hardenWebContents: vi.fn(),
    registerIpc: vi.fn(),
    handleAppProtocol: vi.fn(),
    registerAppScheme: vi.fn(),
    installMenu: vi.fn(),
    createMainWindow: vi.fn(() => ({
      webContents: { send: vi.fn() },
      isDestroyed: () => false,
      isMinimized: () => false,
      show: vi.fn(),
      focus: vi.fn(),
    })),
    createSystemNotifier: vi.fn((_focus: () => void, _openTask: (taskId: string) => void) => ({
      notify: vi.fn(),
    })),
    openPath: vi.fn(async () => ''),
  };
});

vi.mock('electron', () => ({
  app: h.app,
  ipcMain: h.ipcMain,
  BrowserWindow: { getAllWindows: () => h.windows },
  screen: {
    getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }),
    getAllDisplays: () => [],
  },
  session: { defaultSession: h.defaultSession },
  shell: { openExternal: vi.fn(), openPath: h.openPath },
  utilityProcess: h.utilityProcess,
  dialog: h.dialog,
  globalShortcut: {
    register: vi.fn((accelerator: string, callback: () => void) => {
      h.shortcuts.set(accelerator, callback);
      return true;
    }),
    unregister: vi.fn((accelerator: string) => h.shortcuts.delete(accelerator)),
  },
  Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })) },
  nativeImage: { createFromPath: vi.fn(() => ({ resize: () => ({ icon: true }) })) },
  Tray: class {
    readonly destroy = vi.fn();
    menu: unknown;
    constructor() {
      h.trays.push(this as never);
    }
    setToolTip() {}
    setContextMenu(menu: unknown) {
      this.menu = menu;
    }
    on() {}
  },
}));
vi.mock('./security', () => ({
  hardenSession: h.hardenSession,
  hardenWebContents: h.hardenWebContents,
  isAppUrl: () => true,
}));
vi.mock('./ipc', () => ({ registerIpc: h.registerIpc, isTrustedSender: vi.fn() }));
vi.mock('./protocol', () => ({
  handleAppProtocol: h.handleAppProtocol,
  registerAppScheme: h.registerAppScheme,
}));
vi.mock('./menu', () => ({ installMenu: h.installMenu }));
vi.mock('./window', () => ({ createMainWindow: h.createMainWindow }));
vi.mock('./notifications', () => ({ createSystemNotifier: h.createSystemNotifier }));
vi.mock('./settings', () => ({
  createElectronSettingsStore: () => ({
    read: () => ({ window: null, preferences: h.preferences, accounts: [{ id: 'acc-1' }] }),
    write: vi.fn(),
  }),
}));
vi.mock('./secret-store', () => ({
  createSafeStorageSecretStore: vi.fn(() => ({
    protection: 'os',
    get: (key: string) => (key === 'acc-1' ? 'token-1' : undefined),
    set: vi.fn(),
    delete: vi.fn(),
  })),
}));
vi.mock('./core/bundled-server', () => ({ startBundledServer: vi.fn() }));

beforeEach(() => {
  vi.resetModules();
  vi.clearAllMocks();
  h.appListeners.clear();
  h.trays.length = 0;
  h.shortcuts.clear();
  h.utilities.length = 0;
  delete h.preferences.quickCaptureShortcut;
});

async function boot(): Promise<void> {
  await import('./index');
  // Let start() run past whenReady and the core's process being ready.
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** The core's process the shell started (the latest one). */
function core() {
  const child = h.utilities.at(-1);
  if (!child) throw new Error('the shell started no core process');
  return child;
}

describe('Electron entry', () => {
  it('leaves at once when another instance holds the lock', async () => {
    h.state.lock = false;
    await boot();
    expect(h.app.quit).toHaveBeenCalled();
    expect(h.app.whenReady).not.toHaveBeenCalled();
    expect(h.utilityProcess.fork).not.toHaveBeenCalled();
    h.state.lock = true;
  });

  it('the packaged app ignores a WORKDESK_SQLITE_NATIVE_BINDING set where it starts', async () => {
    process.env['WORKDESK_SQLITE_NATIVE_BINDING'] = '/tmp/evil.node';
    (h.app as { isPackaged: boolean }).isPackaged = true;
    try {
      await boot();
      expect(h.utilityProcess.fork).toHaveBeenCalled();
      expect(process.env['WORKDESK_SQLITE_NATIVE_BINDING']).toBeUndefined();
    } finally {
      (h.app as { isPackaged: boolean }).isPackaged = false;
      delete process.env['WORKDESK_SQLITE_NATIVE_BINDING'];
    }
  });

  it("starts the core's utility process with V8's heap settings for the core", async () => {
    await boot();
    expect(h.utilityProcess.fork).toHaveBeenCalledWith(
      expect.stringMatching(/core\.js$/),
      [],
      expect.objectContaining({ execArgv: [...CORE_HEAP_FLAGS] }),
    );
    expect(CORE_HEAP_FLAGS).toContain('--heap-growing-percent=50');
  });

  it('registers the scheme before ready, hardens every web contents and the session, then opens the window', async () => {
    await boot();
    expect(h.registerAppScheme).toHaveBeenCalledOnce();
    expect(h.appListeners.has('second-instance')).toBe(true);
    const contents = { id: 1 };
    h.appListeners.get('web-contents-created')?.({}, contents);
    expect(h.hardenWebContents).toHaveBeenCalledWith(contents, expect.any(Object));
    expect(h.hardenSession).toHaveBeenCalledWith(h.defaultSession);
    expect(h.handleAppProtocol).toHaveBeenCalledWith(expect.stringMatching(/renderer$/));
    // The core starts in a utility process, on the user's data folder, with the keychain's tokens.
    expect(h.utilityProcess.fork).toHaveBeenCalledWith(
      expect.stringMatching(/core\.js$/),
      [],
      expect.any(Object),
    );
    expect(core().received[0]).toEqual({
      type: 'start',
      start: {
        dataDir: '/user-data',
        transport: 'electron',
        version: '9.9.9',
        secrets: { protection: 'os', entries: [['acc-1', 'token-1']], notices: [] },
      },
    });
    expect(h.registerIpc).toHaveBeenCalledWith(
      h.ipcMain,
      expect.any(Function),
      expect.any(Function),
      expect.any(Function),
    );
    // The preload's dropped files reach the open session.
    const stage = h.registerIpc.mock.calls[0]![3] as (paths: string[]) => Promise<unknown>;
    await expect(stage(['/home/me/a.txt'])).resolves.toEqual({
      ok: true,
      value: { staged: [], refused: [] },
    });
    expect(core().calls('stage')).toEqual([
      { type: 'stage', id: expect.any(Number), paths: ['/home/me/a.txt'] },
    ]);
    expect(h.installMenu).toHaveBeenCalledWith(expect.objectContaining({ platform: process.platform }));
    expect(h.createMainWindow).toHaveBeenCalledWith(
      expect.objectContaining({
        preload: expect.stringMatching(/preload[/\\]index\.cjs$/),
        state: { width: 1280, height: 800, maximized: false },
      }),
    );
  });

  it('closes the session before quitting', async () => {
    await boot();
    const event = { preventDefault: vi.fn() };
    h.appListeners.get('will-quit')?.(event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(core().calls('close')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.app.quit).toHaveBeenCalled();
  });

  it('sends the task of a clicked notification to the window, which opens it', async () => {
    await boot();
    const openTask = h.createSystemNotifier.mock.calls[0]?.[1];
    const window = h.createMainWindow.mock.results[0]?.value as {
      webContents: { send: ReturnType<typeof vi.fn> };
    };
    openTask?.('t-42');
    expect(window.webContents.send).toHaveBeenCalledExactlyOnceWith('app.onDidRequestOpenTask', {
      taskId: 't-42',
    });
  });

  it('hands a second instance’s link to the window, after the window took the ones from before', async () => {
    await boot();
    const window = h.createMainWindow.mock.results[0]?.value as {
      webContents: { send: ReturnType<typeof vi.fn> };
      focus: ReturnType<typeof vi.fn>;
    };
    const dispatch = h.registerIpc.mock.calls[0]?.[1] as (channel: string, arg: unknown) => Promise<unknown>;
    // Before the page listens, a link is held for it; the page takes it through the shell.
    h.appListeners.get('second-instance')?.({}, ['/usr/bin/workdesk', 'workdesk://task/GfPrjC']);
    expect(window.webContents.send).not.toHaveBeenCalledWith('app.onDidOpenLink', expect.anything());
    await expect(dispatch('links.takePending', {})).resolves.toEqual({
      ok: true,
      value: { links: ['workdesk://task/GfPrjC'] },
    });
    expect(
      core()
        .calls()
        .map((m) => m['channel']),
    ).not.toContain('links.takePending');
    h.appListeners.get('second-instance')?.({}, ['/usr/bin/workdesk', 'workdesk://project/P1']);
    expect(window.focus).toHaveBeenCalled();
    expect(window.webContents.send).toHaveBeenCalledWith('app.onDidOpenLink', {
      link: 'workdesk://project/P1',
    });
    // A bad link opens nothing and says why.
    window.webContents.send.mockClear();
    h.appListeners.get('second-instance')?.({}, ['/usr/bin/workdesk', 'workdesk://wipe/all']);
    expect(window.webContents.send).not.toHaveBeenCalled();
    expect(h.dialog.showErrorBox).toHaveBeenCalledWith(
      'Workdesk cannot open this link',
      'Not a Workdesk link: expected workdesk://task/<id> or workdesk://project/<id>',
    );
    // Other channels still reach the session.
    await expect(dispatch('tasks.list', { projectId: 'p' })).resolves.toEqual({ ok: true, value: 1 });
    expect(core().calls()).toEqual([
      { type: 'call', id: expect.any(Number), channel: 'tasks.list', arg: { projectId: 'p' } },
    ]);
  });

  it('registers the workdesk: scheme with the OS', async () => {
    await boot();
    // Packaged (no defaultApp here): the OS starts the app itself with the link.
    expect(h.app.setAsDefaultProtocolClient).toHaveBeenCalledExactlyOnceWith('workdesk');
    expect(h.appListeners.has('open-url')).toBe(true);
  });

  it('puts a tray icon up, and the quick-capture shortcut only when the setting is on', async () => {
    await boot();
    expect(h.trays).toHaveLength(1);
    expect(h.shortcuts.size).toBe(0);
    // The setting turned on: the shortcut opens the window's New task dialog.
    const onAny = (name: string, payload: unknown): void => core().event(name, payload);
    onAny('settings.onDidChange', { syncIntervalSeconds: 60, theme: 'system', quickCaptureShortcut: true });
    expect([...h.shortcuts.keys()]).toEqual(['CommandOrControl+Alt+Space']);
    const window = h.createMainWindow.mock.results[0]?.value as {
      webContents: { send: ReturnType<typeof vi.fn> };
    };
    h.shortcuts.get('CommandOrControl+Alt+Space')?.();
    expect(window.webContents.send).toHaveBeenCalledWith('app.onDidRequestCommand', { command: 'new-task' });
    onAny('settings.onDidChange', { syncIntervalSeconds: 60, theme: 'system', quickCaptureShortcut: false });
    expect(h.shortcuts.size).toBe(0);
  });

  it('starts with the shortcut on when the setting says so', async () => {
    h.preferences.quickCaptureShortcut = true;
    await boot();
    expect([...h.shortcuts.keys()]).toEqual(['CommandOrControl+Alt+Space']);
  });

  it('sends the core’s events to every window', async () => {
    await boot();
    const window = { webContents: { send: vi.fn() } };
    h.windows.push(window);
    try {
      core().event('outbox.onDidChange', { pending: 3 });
      expect(window.webContents.send).toHaveBeenCalledWith('outbox.onDidChange', { pending: 3 });
      // A name outside the contract never reaches a window.
      core().event('app.onDidWipe', {});
      expect(window.webContents.send).toHaveBeenCalledOnce();
    } finally {
      h.windows.length = 0;
    }
  });

  it('opens a received file at the path the core made it local at', async () => {
    await boot();
    const dispatch = h.registerIpc.mock.calls[0]?.[1] as (channel: string, arg: unknown) => Promise<unknown>;
    await expect(dispatch('attachments.openExternal', { fileId: 'F1', name: 'plan.pdf' })).resolves.toEqual({
      ok: true,
      value: { opened: true },
    });
    expect(core().calls('localPath')).toEqual([
      { type: 'localPath', id: expect.any(Number), arg: { fileId: 'F1', name: 'plan.pdf' } },
    ]);
    expect(h.openPath).toHaveBeenCalledExactlyOnceWith('/cache/F1/plan.pdf');
  });

  it('starts the core again when its process dies, tells the window, and the next call reaches the new one', async () => {
    await boot();
    const window = { webContents: { send: vi.fn() } };
    h.windows.push(window);
    try {
      const first = core();
      first.emit('exit', 133);
      expect(window.webContents.send).toHaveBeenCalledWith(
        'app.onDidNotice',
        expect.objectContaining({ level: 'warning', title: expect.stringMatching(/core stopped/) }),
      );
      const dispatch = h.registerIpc.mock.calls[0]?.[1] as (
        channel: string,
        arg: unknown,
      ) => Promise<unknown>;
      await expect(dispatch('tasks.list', { projectId: 'p' })).resolves.toEqual({ ok: true, value: 1 });
      expect(h.utilityProcess.fork).toHaveBeenCalledTimes(2);
      expect(core()).not.toBe(first);
      expect(core().received[0]).toMatchObject({ type: 'start' });
      // The new core is asked for the states the window keeps (sent to it as their events).
      await expect
        .poll(() =>
          core()
            .calls()
            .map((m) => m['channel']),
        )
        .toEqual(expect.arrayContaining(['tasks.list', 'accounts.list', 'sync.status', 'outbox.status']));
      expect(window.webContents.send).toHaveBeenCalledWith('outbox.onDidChange', 1);
    } finally {
      h.windows.length = 0;
    }
  });
  it("opens the window before the core's process is ready when a first-screen record is there, answering its first reads from it", async () => {
    // A data folder as the core left it at its last close: the cache stamped, the record beside.
    const dataDir = mkdtempSync(join(tmpdir(), 'workdesk-shell-first-screen-'));
    const window = { webContents: { send: vi.fn() } };
    try {
      writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ activeAccountId: 'acc-1' }));
      const cacheFile = join(dataDir, 'accounts', 'acc-1', 'cache-1.sqlite');
      mkdirSync(join(dataDir, 'accounts', 'acc-1'), { recursive: true });
      writeFileSync(cacheFile, 'cache');
      stampClosed(cacheFile);
      const info = { name: 'Workdesk', version: '9.9.9', coreRuntime: 'Node', transport: 'electron' };
      writeFirstScreen({
        dataDir,
        version: '9.9.9',
        accountId: 'acc-1',
        cacheFile,
        answers: [{ channel: 'app.info', arg: {}, value: info }],
      });
      h.app.getPath.mockImplementation((name: string) => (name === 'downloads' ? '/downloads' : dataDir));
      h.state.holdCoreReady = true;
      h.windows.push(window);
      await boot();
      // The core's process started, not ready yet: the window is open all the same.
      expect(core().received[0]).toMatchObject({ type: 'start' });
      expect(h.createMainWindow).toHaveBeenCalledOnce();
      const dispatch = h.registerIpc.mock.calls[0]?.[1] as (
        channel: string,
        arg: unknown,
      ) => Promise<unknown>;
      await expect(dispatch('app.info', {})).resolves.toEqual({ ok: true, value: info });
      expect(core().calls()).toEqual([]);
      // A read the record does not hold waits for the core.
      const waiting = dispatch('tasks.list', { projectId: 'p' });
      core().ready();
      await expect(waiting).resolves.toEqual({ ok: true, value: 1 });
      // Ready: every view reads again, now from the core.
      expect(window.webContents.send).toHaveBeenCalledWith(
        'cache.onDidChange',
        expect.objectContaining({ entities: expect.arrayContaining(['tasks', 'projects']) }),
      );
      await expect(dispatch('app.info', {})).resolves.toEqual({ ok: true, value: 1 });
      expect(
        core()
          .calls()
          .map((m) => m['channel']),
      ).toEqual(['tasks.list', 'app.info']);
    } finally {
      h.state.holdCoreReady = false;
      h.windows.length = 0;
      h.app.getPath.mockImplementation((name: string) =>
        name === 'downloads' ? '/downloads' : '/user-data',
      );
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

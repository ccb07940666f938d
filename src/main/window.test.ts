import { describe, expect, it, vi, beforeEach } from 'vitest';

const created = vi.hoisted(() => [] as FakeWindow[]);
interface FakeWindow {
  options: Record<string, unknown>;
  loaded: string[];
  handlers: Map<string, () => void>;
  maximize: ReturnType<typeof vi.fn>;
}

vi.mock('electron', () => ({
  BrowserWindow: class {
    readonly options: Record<string, unknown>;
    readonly loaded: string[] = [];
    readonly handlers = new Map<string, () => void>();
    readonly maximize = vi.fn();
    constructor(options: Record<string, unknown>) {
      this.options = options;
      created.push(this as unknown as FakeWindow);
    }
    on(name: string, handler: () => void) {
      this.handlers.set(name, handler);
    }
    once(name: string, handler: () => void) {
      this.handlers.set(name, handler);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    loadFile(): Promise<void> {
      throw new Error('the window must not load files directly');
    }
    isDestroyed = () => false;
    isMaximized = () => true;
    getNormalBounds = () => ({ x: 10.4, y: 20, width: 1000, height: 700 });
  },
}));

const { createMainWindow } = await import('./window');

beforeEach(() => {
  created.length = 0;
});

describe('main window', () => {
  it('is created with the secure web preferences and the preload only', () => {
    createMainWindow({
      preload: '/app/out/preload/index.cjs',
      state: { width: 900, height: 600, maximized: false },
      saveState: vi.fn(),
    });
    const options = created[0]?.options as { webPreferences: Record<string, unknown>; show: boolean };
    expect(options.webPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
      preload: '/app/out/preload/index.cjs',
    });
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.show).toBe(false);
  });

  it('loads the renderer from the app scheme (or the dev server), never a file or remote URL', () => {
    createMainWindow({
      preload: 'p',
      state: { width: 900, height: 600, maximized: false },
      saveState: vi.fn(),
    });
    expect(created[0]?.loaded).toEqual(['app://workdesk/index.html']);
    createMainWindow({
      preload: 'p',
      state: { width: 900, height: 600, maximized: false },
      devServerUrl: 'http://localhost:5173',
      saveState: vi.fn(),
    });
    expect(created[1]?.loaded).toEqual(['http://localhost:5173']);
  });

  it('opens at the remembered bounds and saves them when closed', () => {
    const saveState = vi.fn();
    createMainWindow({
      preload: 'p',
      state: { x: 50, y: 60, width: 900, height: 600, maximized: true },
      saveState,
    });
    const window = created[0];
    expect(window?.options).toMatchObject({ x: 50, y: 60, width: 900, height: 600 });
    expect(window?.maximize).toHaveBeenCalled();
    window?.handlers.get('close')?.();
    expect(saveState).toHaveBeenCalledWith({ x: 10, y: 20, width: 1000, height: 700, maximized: true });
  });
});

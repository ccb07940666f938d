import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  const exposed = new Map<string, unknown>();
  return {
    exposed,
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: vi.fn(async () => ({ ok: true, value: 'from main' })),
      on: vi.fn(),
      removeListener: vi.fn(),
      send: vi.fn(),
    },
    webUtils: { getPathForFile: vi.fn(() => '/home/me/report.pdf') },
  };
});
vi.mock('electron', () => ({
  contextBridge: electron.contextBridge,
  ipcRenderer: electron.ipcRenderer,
  webUtils: electron.webUtils,
}));

await import('./index');

interface Api {
  invoke(channel: string, arg: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  pathForFile(file: unknown): string;
}
const api = electron.exposed.get('workdesk') as Api;

beforeEach(() => vi.clearAllMocks());

describe('preload', () => {
  it('exposes window.workdesk with invoke, on and pathForFile, and nothing else', () => {
    expect([...electron.exposed.keys()]).toEqual(['workdesk']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on', 'pathForFile']);
  });

  it("resolves a dropped file's path with webUtils, so its bytes never cross IPC", () => {
    const file = { name: 'report.pdf' };
    expect(api.pathForFile(file)).toBe('/home/me/report.pdf');
    expect(electron.webUtils.getPathForFile).toHaveBeenCalledWith(file);
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('forwards a contract channel', async () => {
    await expect(api.invoke('app.info', {})).resolves.toEqual({ ok: true, value: 'from main' });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith('app.info', {});
  });

  it('refuses a channel outside the contract without reaching the main process', async () => {
    for (const channel of ['fs.readFile', 'ELECTRON_BROWSER_REQUIRE', '__proto__', 'constructor']) {
      await expect(api.invoke(channel, {})).resolves.toMatchObject({
        ok: false,
        error: { type: 'unknown-channel' },
      });
    }
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('subscribes to declared events only, hands the listener the payload alone, and unsubscribes', () => {
    expect(() => api.on('ipc-internal', () => {})).toThrow(/Unknown event/);
    expect(electron.ipcRenderer.on).not.toHaveBeenCalled();

    const listener = vi.fn();
    const off = api.on('accounts.onDidChange', listener);
    const [name, wrapped] = electron.ipcRenderer.on.mock.calls[0] as unknown as [
      string,
      (...a: unknown[]) => void,
    ];
    expect(name).toBe('accounts.onDidChange');
    wrapped({ sender: 'the ipcRenderer event' }, { accounts: [], activeId: null });
    expect(listener).toHaveBeenCalledExactlyOnceWith({ accounts: [], activeId: null });
    off();
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledWith('accounts.onDidChange', wrapped);
  });
});

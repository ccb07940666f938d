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
    // Electron answers '' for a File with no file on disk behind it (one the page made).
    webUtils: {
      getPathForFile: vi.fn((file: { name: string; onDisk?: boolean }) =>
        file.onDisk ? `/home/me/${file.name}` : '',
      ),
    },
  };
});

/** Stands in for the DOM's File in Node: a name, and whether a file on disk is behind it. */
class FakeFile {
  constructor(
    readonly name: string,
    readonly onDisk = true,
  ) {}
}
vi.stubGlobal('File', FakeFile);
vi.mock('electron', () => ({
  contextBridge: electron.contextBridge,
  ipcRenderer: electron.ipcRenderer,
  webUtils: electron.webUtils,
}));

await import('./index');

interface Api {
  invoke(channel: string, arg: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  stageFiles(files: unknown): Promise<unknown>;
}
const api = electron.exposed.get('workdesk') as Api;

beforeEach(() => vi.clearAllMocks());

describe('preload', () => {
  it('exposes window.workdesk with invoke, on and stageFiles, and nothing else', () => {
    expect([...electron.exposed.keys()]).toEqual(['workdesk']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on', 'stageFiles']);
  });

  it("resolves dropped files' paths itself and sends them on its private channel, never the bytes", async () => {
    electron.ipcRenderer.invoke.mockResolvedValueOnce({
      ok: true,
      value: {
        staged: [{ id: 'spool-1', name: 'report.pdf', size: 3, mime: 'application/pdf' }],
        refused: [],
      },
    } as never);
    const result = await api.stageFiles([new FakeFile('report.pdf')]);
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith('workdesk:stage-dropped-files', {
      paths: ['/home/me/report.pdf'],
    });
    expect(result).toMatchObject({ ok: true, value: { staged: [{ id: 'spool-1' }], refused: [] } });
  });

  it('refuses what the page made itself: a File with nothing on disk, a path given as a string', async () => {
    const result = await api.stageFiles([
      new FakeFile('/etc/passwd', false),
      '/etc/passwd',
      { name: '/etc/passwd' },
    ]);
    expect(result).toEqual({
      ok: true,
      value: {
        staged: [],
        refused: [
          { name: '/etc/passwd', reason: 'is not a file on this computer' },
          { name: '/etc/passwd', reason: 'is not a file on this computer' },
          { name: '[object Object]', reason: 'is not a file on this computer' },
        ],
      },
    });
    expect(await api.stageFiles('/etc/passwd')).toEqual({ ok: true, value: { staged: [], refused: [] } });
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('does not forward the old path channel: the page cannot name a file', async () => {
    await expect(api.invoke('attachments.stagePaths', { paths: ['/etc/passwd'] })).resolves.toMatchObject({
      ok: false,
      error: { type: 'unknown-channel' },
    });
    await expect(
      api.invoke('workdesk:stage-dropped-files', { paths: ['/etc/passwd'] }),
    ).resolves.toMatchObject({
      ok: false,
      error: { type: 'unknown-channel' },
    });
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

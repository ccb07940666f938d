// No page can make the core read a file the user did not drop or pick. The old
// `attachments.stagePaths` channel, called with `/etc/passwd` over both transports (Electron's
// IPC through the real preload with a mocked electron, and the web host's WebSocket), is refused
// and nothing reaches the spool; a real drop (a File backed by a file on disk) still stages
// through the preload's private channel, and the web host takes dropped files as bytes.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createDispatch, type Dispatch } from '../../../src/main/core/dispatch';
import { appHandlers } from '../../../src/main/core/handlers/app';
import { stageDroppedPaths } from '../../../src/main/core/handlers/attachments';
import { mergeHandlerMaps } from '../../../src/main/core/handlers/registry';
import { startWebHost, type WebHost } from '../../../src/main/core/web-host';
import { registerIpc } from '../../../src/main/ipc';
import type { IpcResult } from '../../../src/shared/ipc/channel';
import { startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from '../outbox/support';

type Handler = (event: never, arg: unknown) => Promise<unknown>;
const electron = vi.hoisted(() => {
  const exposed = new Map<string, unknown>();
  const handlers = new Map<string, Handler>();
  const ownFrame = { url: 'app://workdesk/index.html' };
  const event = { sender: { mainFrame: ownFrame }, senderFrame: ownFrame };
  return {
    exposed,
    handlers,
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    // ipcRenderer.invoke reaches ipcMain's handler, as Electron does; no handler is an error.
    ipcRenderer: {
      invoke: async (channel: string, arg: unknown) => {
        const handler = handlers.get(channel);
        if (!handler) throw new Error(`No handler registered for '${channel}'`);
        return handler(event as never, structuredClone(arg));
      },
      on: () => {},
      removeListener: () => {},
    },
    ipcMain: {
      handle: (name: string, handler: Handler) => void handlers.set(name, handler),
      removeHandler: (name: string) => void handlers.delete(name),
    },
    // A File the user dropped has a path; one a script made has none ('').
    webUtils: { getPathForFile: (file: { path?: string }) => file.path ?? '' },
  };
});
vi.mock('electron', () => ({
  contextBridge: electron.contextBridge,
  ipcRenderer: electron.ipcRenderer,
  webUtils: electron.webUtils,
}));

/** Stands in for the DOM's File under Node: a dropped one carries the path Electron knows. */
class DroppedFile {
  constructor(
    readonly name: string,
    readonly path?: string,
  ) {}
}
vi.stubGlobal('File', DroppedFile);

interface PreloadApi {
  invoke(channel: string, arg: unknown): Promise<IpcResult<unknown>>;
  stageFiles(
    files: unknown,
  ): Promise<IpcResult<{ staged: { id: string; name: string }[]; refused: unknown[] }>>;
}

let svc: RunningService;
let e: TestEngine;
let dispatch: Dispatch;
let host: WebHost;
let ws: WebSocket;
let rendererDir: string;
let preload: PreloadApi;

let nextId = 1;
const waiting = new Map<number, (r: unknown) => void>();
function overSocket(channel: string, arg: unknown): Promise<IpcResult<unknown>> {
  const id = nextId++;
  return new Promise((done) => {
    waiting.set(id, done as (r: unknown) => void);
    ws.send(JSON.stringify({ id, channel, arg }));
  });
}

const spooled = (): string[] => {
  try {
    return readdirSync(e.files.spool.dir);
  } catch {
    return [];
  }
};
const spoolHolds = (text: string): boolean =>
  spooled().some((name) => readFileSync(join(e.files.spool.dir, name), 'utf8').includes(text));

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
  dispatch = createDispatch(
    mergeHandlerMaps([appHandlers({ version: 't', transport: 'electron' }), e.handlers]),
  );
  registerIpc(
    electron.ipcMain,
    dispatch,
    () => true,
    async (paths) => ({ ok: true, value: await stageDroppedPaths(e.files, paths) }),
  );
  await import('../../../src/preload/index');
  preload = electron.exposed.get('workdesk') as PreloadApi;

  rendererDir = join(tmpdir(), `staging-renderer-${process.pid}`);
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
  host = await startWebHost({ core: { dispatch, events: e.events }, rendererDir });
  const page = new URL(host.url);
  const secret = new URLSearchParams(page.hash.slice(1)).get('secret')!;
  ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?secret=${secret}`, { origin: page.origin });
  ws.on('message', (data: WebSocket.RawData) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done());
    ws.once('error', fail);
  });
});

afterAll(async () => {
  ws?.close();
  await host?.close();
  await e?.close();
  await svc?.close();
  rmSync(rendererDir, { recursive: true, force: true });
  rmSync(e.dataDir, { recursive: true, force: true });
});

describe('a page cannot make the core read a file of its choosing', () => {
  it('Electron: the old channel with /etc/passwd is refused by the preload, and the main side has no handler for it', async () => {
    expect(await preload.invoke('attachments.stagePaths', { paths: ['/etc/passwd'] })).toMatchObject({
      ok: false,
      error: { type: 'unknown-channel' },
    });
    // Even a caller past the preload finds no handler: the channel is gone from the contract.
    await expect(
      electron.ipcRenderer.invoke('attachments.stagePaths', { paths: ['/etc/passwd'] }),
    ).rejects.toThrow(/No handler registered/);
    expect(await dispatch('attachments.stagePaths', { paths: ['/etc/passwd'] })).toMatchObject({
      ok: false,
      error: { type: 'unknown-channel' },
    });
    // The private channel is not reachable through invoke either, and takes File objects only.
    expect(await preload.invoke('workdesk:stage-dropped-files', { paths: ['/etc/passwd'] })).toMatchObject({
      ok: false,
      error: { type: 'unknown-channel' },
    });
    expect(await preload.stageFiles(['/etc/passwd', new DroppedFile('/etc/passwd')])).toMatchObject({
      ok: true,
      value: { staged: [] },
    });
    expect(spoolHolds('root:')).toBe(false);
  });

  it('the web host: the old channel and the private one with /etc/passwd are refused', async () => {
    for (const channel of ['attachments.stagePaths', 'workdesk:stage-dropped-files']) {
      expect(await overSocket(channel, { paths: ['/etc/passwd'] })).toMatchObject({
        ok: false,
        error: { type: 'unknown-channel' },
      });
    }
    expect(spoolHolds('root:')).toBe(false);
  });

  it('a file the user dropped still stages: through the preload in Electron, as bytes over the web host', async () => {
    const dir = join(e.dataDir, 'desktop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'dropped by the user');
    const viaIpc = await preload.stageFiles([new DroppedFile('notes.txt', join(dir, 'notes.txt'))]);
    expect(viaIpc).toMatchObject({ ok: true, value: { staged: [{ name: 'notes.txt' }], refused: [] } });

    const bytes = Buffer.from('streamed by the page');
    const start = (await overSocket('attachments.streamStart', {
      name: 'page.txt',
      size: bytes.length,
    })) as IpcResult<{
      id: string;
    }>;
    if (!start.ok) throw new Error(start.error.message);
    await overSocket('attachments.streamChunk', {
      id: start.value.id,
      offset: 0,
      data: bytes.toString('base64'),
    });
    expect(await overSocket('attachments.streamEnd', { id: start.value.id })).toMatchObject({
      ok: true,
      value: { name: 'page.txt', size: bytes.length },
    });
    expect(spoolHolds('dropped by the user')).toBe(true);
    expect(spoolHolds('streamed by the page')).toBe(true);
  });
});

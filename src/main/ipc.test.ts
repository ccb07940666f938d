import { describe, expect, it, vi } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { channelNames, channels, type ChannelName } from '../shared/ipc/contract';
import { createDispatch } from './core/dispatch';
import type { HandlerMap } from './core/handlers/types';
import { isTrustedSender, registerIpc } from './ipc';

vi.mock('electron', () => ({}));

type InvokeHandler = (event: IpcMainInvokeEvent, arg: unknown) => Promise<unknown>;

/** ipcMain as Electron behaves: one handler per channel, a second registration throws. */
function fakeIpcMain() {
  const handlers = new Map<string, InvokeHandler>();
  return {
    handlers,
    handle: vi.fn((name: string, handler: InvokeHandler) => {
      if (handlers.has(name)) throw new Error(`Attempted to register a second handler for '${name}'`);
      handlers.set(name, handler);
    }),
    removeHandler: vi.fn((name: string) => void handlers.delete(name)),
    /** What ipcRenderer.invoke gets back, including Electron's refusal of unknown channels. */
    async invoke(name: string, event: IpcMainInvokeEvent, arg: unknown) {
      const handler = handlers.get(name);
      if (!handler) throw new Error(`No handler registered for '${name}'`);
      return handler(event, arg);
    },
  };
}

function spyHandlers() {
  const spies = Object.fromEntries(channelNames.map((name) => [name, vi.fn(async () => ({}))])) as Record<
    ChannelName,
    ReturnType<typeof vi.fn>
  >;
  return { spies, dispatch: createDispatch(spies as unknown as HandlerMap) };
}

const ownFrame = { url: 'app://workdesk/index.html' };
const ownContents = { mainFrame: ownFrame };
const trustedEvent = { sender: ownContents, senderFrame: ownFrame } as unknown as IpcMainInvokeEvent;

describe('registerIpc', () => {
  it('registers exactly the contract channels, and unknown channels have no handler', async () => {
    const ipcMain = fakeIpcMain();
    const { dispatch, spies } = spyHandlers();
    registerIpc(ipcMain, dispatch, () => true);
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...channelNames].sort());
    await expect(ipcMain.invoke('fs.readFile', trustedEvent, {})).rejects.toThrow(/No handler registered/);
    expect(await dispatch('fs.readFile', {})).toMatchObject({
      ok: false,
      error: { type: 'unknown-channel' },
    });
    for (const spy of Object.values(spies)) expect(spy).not.toHaveBeenCalled();
  });

  it('fails at start-up when a channel is registered twice', () => {
    const ipcMain = fakeIpcMain();
    const { dispatch } = spyHandlers();
    registerIpc(ipcMain, dispatch, () => true);
    expect(() => registerIpc(ipcMain, dispatch, () => true)).toThrow(/second handler/);
  });

  it('refuses a call from a foreign sender before anything runs', async () => {
    const ipcMain = fakeIpcMain();
    const dispatch = vi.fn(createDispatch({}));
    registerIpc(ipcMain, dispatch, () => false);
    expect(await ipcMain.invoke('app.info', trustedEvent, {})).toEqual({
      ok: false,
      error: { type: 'unauthorized', message: 'IPC from a frame that is not the app was refused' },
    });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('unregisters every channel', () => {
    const ipcMain = fakeIpcMain();
    const dispose = registerIpc(ipcMain, spyHandlers().dispatch, () => true);
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });
});

describe('isTrustedSender', () => {
  const isOwn = (contents: unknown) => contents === ownContents;
  const isApp = (url: string) => url.startsWith('app://workdesk/');

  it('accepts the main frame of an own window at the app origin', () => {
    expect(isTrustedSender(trustedEvent, isOwn, isApp)).toBe(true);
  });

  it('refuses other windows, sub-frames, navigated pages and destroyed frames', () => {
    const otherContents = { mainFrame: ownFrame };
    const cases = [
      { sender: otherContents, senderFrame: ownFrame },
      { sender: ownContents, senderFrame: { url: 'app://workdesk/index.html' } },
      {
        sender: { mainFrame: { url: 'https://evil.example/' } },
        senderFrame: { url: 'https://evil.example/' },
      },
      { sender: ownContents, senderFrame: null },
    ];
    for (const event of cases) {
      expect(isTrustedSender(event as unknown as IpcMainInvokeEvent, isOwn, isApp)).toBe(false);
    }
    const navigated = { url: 'https://evil.example/' };
    const navigatedContents = { mainFrame: navigated };
    expect(
      isTrustedSender(
        { sender: navigatedContents, senderFrame: navigated } as unknown as IpcMainInvokeEvent,
        (c) => c === navigatedContents,
        isApp,
      ),
    ).toBe(false);
  });
});

/**
 * Written over the whole contract, so channels other domains add are covered too: every
 * channel refuses malformed input with an error naming the field, and calls no handler.
 */
describe.each(channelNames)('channel %s', (name) => {
  const schema = channels[name].input as z.ZodType;

  async function call(arg: unknown) {
    const ipcMain = fakeIpcMain();
    const { dispatch, spies } = spyHandlers();
    registerIpc(ipcMain, dispatch, () => true);
    const result = (await ipcMain.invoke(name, trustedEvent, arg)) as {
      ok: boolean;
      error?: { type: string; field?: string; message: string };
    };
    for (const spy of Object.values(spies)) expect(spy).not.toHaveBeenCalled();
    return result;
  }

  it.each([null, 'text', 42, true, [1, 2]])('refuses %j as its argument', async (arg) => {
    const result = await call(arg);
    expect(result.ok).toBe(false);
    expect(result.error?.type).toBe('invalid-argument');
    expect(result.error?.field).toBe('argument');
    expect(result.error?.message).toMatch(/^argument: /);
  });

  it('refuses an unexpected field or a wrong type, naming the field', async () => {
    const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
    const malformed: Record<string, unknown>[] = [
      ...Object.keys(shape).map((key) => ({ [key]: { wrong: ['type'] } })),
      { __unexpected__: 1 },
    ];
    let refused = 0;
    for (const arg of malformed) {
      if (schema.safeParse(arg).success) continue;
      refused++;
      const result = await call(arg);
      expect(result.error?.type).toBe('invalid-argument');
      const field = result.error?.field ?? '';
      expect(field.length).toBeGreaterThan(0);
      expect(result.error?.message.startsWith(`${field}: `)).toBe(true);
      const key = Object.keys(arg)[0] ?? '';
      // The error names the bad field itself, or (for a missing required one) the field it lacks.
      expect(field === key || field in shape || result.error?.message.includes(key)).toBe(true);
    }
    expect(refused).toBeGreaterThan(0);
  });
});

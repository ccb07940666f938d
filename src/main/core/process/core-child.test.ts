import { describe, expect, it, vi } from 'vitest';
import type { SecretStore } from '../accounts/secret-store';
import type { HostSessionOptions } from '../accounts/host-session';

const h = vi.hoisted(() => {
  const listeners: ((name: string, payload: unknown) => void)[] = [];
  const session = {
    dispatch: vi.fn(async (channel: unknown) => ({ ok: true, value: `answer of ${String(channel)}` })),
    events: {
      onAny: vi.fn((listener: (name: string, payload: unknown) => void) => listeners.push(listener)),
    },
    stageDroppedPaths: vi.fn(async () => ({ ok: true, value: { staged: [], refused: [] } })),
    activeCore: vi.fn(() => undefined),
    readAhead: vi.fn(),
    close: vi.fn(async () => {}),
  };
  return { session, listeners, options: [] as unknown[] };
});
vi.mock('../accounts/host-session', () => ({
  startHostSession: vi.fn(async (options: unknown) => {
    h.options.push(options);
    return h.session;
  }),
}));

const { runCoreChild } = await import('./core-child');

function setUp() {
  const sent: unknown[] = [];
  let deliver: (message: unknown) => void = () => {};
  const exit = vi.fn();
  const log = vi.fn();
  runCoreChild(
    { send: (m) => void sent.push(m), onMessage: (listener) => (deliver = listener) },
    { startServer: vi.fn(), log, exit },
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { sent, deliver: (m: unknown) => deliver(m), exit, log, settle };
}

const start = {
  type: 'start',
  start: {
    dataDir: '/data',
    version: '1',
    transport: 'electron',
    secrets: { protection: 'os', entries: [['acc-1', 'token-1']], notices: [] },
  },
};

describe('the core in a process of its own (child side)', () => {
  it('starts the session with a copy of the host’s secrets, whose changes go back to the host', async () => {
    const { sent, deliver, settle } = setUp();
    deliver(start);
    await settle();
    expect(sent).toEqual([{ type: 'ready' }]);
    // Ready: the window loads its page, and the child reads its first views meanwhile.
    expect(h.session.readAhead).toHaveBeenCalled();
    const options = h.options.at(-1) as HostSessionOptions;
    expect(options).toMatchObject({ dataDir: '/data', version: '1', transport: 'electron' });
    const secrets: SecretStore = options.secrets;
    expect(secrets.get('acc-1')).toBe('token-1');
    secrets.set('acc-2', 'token-2');
    secrets.delete('acc-1');
    expect(secrets.get('acc-2')).toBe('token-2');
    expect(secrets.get('acc-1')).toBeUndefined();
    options.notifier?.notify({ title: 'T', body: 'B' });
    expect(sent.slice(1)).toEqual([
      { type: 'host', request: { op: 'secret.set', key: 'acc-2', value: 'token-2' } },
      { type: 'host', request: { op: 'secret.delete', key: 'acc-1' } },
      { type: 'host', request: { op: 'notify', title: 'T', body: 'B' } },
    ]);
  });

  it('answers calls by id, forwards events, and closes on request', async () => {
    const { sent, deliver, settle, exit } = setUp();
    deliver(start);
    deliver({ type: 'call', id: 7, channel: 'app.info', arg: {} });
    await settle();
    expect(sent).toContainEqual({ type: 'result', id: 7, result: { ok: true, value: 'answer of app.info' } });
    h.listeners.at(-1)?.('outbox.onDidChange', { pending: 1 });
    expect(sent.at(-1)).toEqual({ type: 'event', name: 'outbox.onDidChange', payload: { pending: 1 } });
    deliver({ type: 'close', id: 8 });
    await settle();
    expect(h.session.close).toHaveBeenCalled();
    expect(sent.at(-1)).toEqual({ type: 'result', id: 8, result: { ok: true, value: null } });
    expect(exit).toHaveBeenCalledOnce();
  });

  it('answers a bad message with an error naming its field, and drops one with no id', async () => {
    const { sent, deliver, settle, log } = setUp();
    deliver(start);
    await settle();
    deliver({ type: 'stage', id: 3, paths: 'not a list' });
    deliver({ type: 'launch' });
    await settle();
    expect(sent).toContainEqual({
      type: 'result',
      id: 3,
      result: { ok: false, error: { type: 'invalid-argument', message: expect.stringMatching(/^paths: /) } },
    });
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/from the host was dropped \(type: /));
    expect(sent.filter((m) => (m as { type: string }).type === 'result')).toHaveLength(1);
  });
});

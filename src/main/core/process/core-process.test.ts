import { describe, expect, it, vi } from 'vitest';
import { startCoreProcess, type CoreProcessOptions } from './core-process';
import type { ChildLink, HostMessage } from './messages';
import type { SecretStore } from '../accounts/secret-store';

/** A child played by the test: it sees what the host sends and answers what the test says. */
class FakeChild implements ChildLink {
  readonly received: HostMessage[] = [];
  #onMessage: ((message: unknown) => void) | undefined;
  #onExit: ((code: number | null) => void)[] = [];
  answer: (message: HostMessage, child: FakeChild) => void = () => {};
  send(message: HostMessage): void {
    this.received.push(message);
    queueMicrotask(() => this.answer(message, this));
  }
  onMessage(listener: (message: unknown) => void): void {
    this.#onMessage = listener;
  }
  onExit(listener: (code: number | null) => void): void {
    this.#onExit.push(listener);
  }
  kill(): void {
    this.die(null);
  }
  post(message: unknown): void {
    this.#onMessage?.(message);
  }
  die(code: number | null): void {
    for (const listener of this.#onExit) listener(code);
  }
}

function memorySecrets(): SecretStore & { values: Map<string, string> } {
  const values = new Map([['acc-1', 'token-1']]);
  return {
    values,
    protection: 'os',
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    delete: (key) => void values.delete(key),
  };
}

/** Answers start with ready, and each call with `{ok: true, value: channel}`. */
function echo(message: HostMessage, child: FakeChild): void {
  if (message.type === 'start') child.post({ type: 'ready' });
  if (message.type === 'call')
    child.post({ type: 'result', id: message.id, result: { ok: true, value: message.channel } });
  if (message.type === 'close') {
    child.post({ type: 'result', id: message.id, result: { ok: true, value: null } });
    child.die(0);
  }
}

async function setUp(overrides: Partial<CoreProcessOptions> = {}) {
  const children: FakeChild[] = [];
  const log = vi.fn();
  const secrets = memorySecrets();
  const notify = vi.fn();
  const core = await startCoreProcess({
    spawn: () => {
      const child = new FakeChild();
      child.answer = echo;
      children.push(child);
      return child;
    },
    start: { dataDir: '/data', version: '1.2.3', transport: 'electron' },
    secrets,
    secretKeys: () => ['acc-1', 'local'],
    notifier: { notify },
    log,
    restartDelayMs: 1,
    ...overrides,
  });
  return { core, children, log, secrets, notify };
}

describe('the core in a process of its own (host side)', () => {
  it('starts the child with the host’s secrets and settings folder, and answers each call by its id', async () => {
    const { core, children } = await setUp();
    expect(children[0]!.received[0]).toEqual({
      type: 'start',
      start: {
        dataDir: '/data',
        version: '1.2.3',
        transport: 'electron',
        secrets: { protection: 'os', entries: [['acc-1', 'token-1']], notices: [] },
      },
    });
    // Answers out of order still reach their own callers.
    children[0]!.answer = () => {};
    const a = core.dispatch('app.info', {});
    const b = core.dispatch('tasks.list', { projectId: 'p' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const [callA, callB] = children[0]!.received.slice(1) as Extract<HostMessage, { type: 'call' }>[];
    expect(callA).toMatchObject({ type: 'call', channel: 'app.info', arg: {} });
    expect(callB).toMatchObject({ type: 'call', channel: 'tasks.list', arg: { projectId: 'p' } });
    expect(callA!.id).not.toBe(callB!.id);
    children[0]!.post({ type: 'result', id: callB!.id, result: { ok: true, value: 'B' } });
    children[0]!.post({
      type: 'result',
      id: callA!.id,
      result: { ok: false, error: { type: 'not-found', message: 'No such thing', field: 'id' } },
    });
    await expect(b).resolves.toEqual({ ok: true, value: 'B' });
    await expect(a).resolves.toEqual({
      ok: false,
      error: { type: 'not-found', message: 'No such thing', field: 'id' },
    });
  });

  it('forwards the core’s events, and its keychain and notification requests to the host', async () => {
    const { core, children, secrets, notify } = await setUp();
    const seen: unknown[] = [];
    core.events.onAny((name, payload) => seen.push([name, payload]));
    children[0]!.post({ type: 'event', name: 'outbox.onDidChange', payload: { pending: 2 } });
    expect(seen).toEqual([['outbox.onDidChange', { pending: 2 }]]);
    children[0]!.post({ type: 'host', request: { op: 'secret.set', key: 'acc-2', value: 'token-2' } });
    children[0]!.post({ type: 'host', request: { op: 'secret.delete', key: 'acc-1' } });
    expect([...secrets.values]).toEqual([['acc-2', 'token-2']]);
    children[0]!.post({ type: 'host', request: { op: 'notify', title: 'T', body: 'B', taskId: 't1' } });
    expect(notify).toHaveBeenCalledExactlyOnceWith({ title: 'T', body: 'B', taskId: 't1' });
  });

  it('drops a bad message naming its field, and answers the call it belonged to with an error', async () => {
    const { core, children, log } = await setUp();
    const seen: unknown[] = [];
    core.events.onAny((name) => seen.push(name));
    children[0]!.post({ type: 'event', name: 'tasks.onDidExplode', payload: {} });
    children[0]!.post({ type: 'host', request: { op: 'secret.set', key: 'x' } });
    expect(seen).toEqual([]);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/tasks\.onDidExplode.*not in the contract/));
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/dropped \(request\.value: /));

    children[0]!.answer = (message, child) => {
      if (message.type === 'call') child.post({ type: 'result', id: message.id, result: { ok: 'yes' } });
    };
    await expect(core.dispatch('app.info', {})).resolves.toEqual({
      ok: false,
      error: { type: 'internal', message: expect.stringMatching(/bad message \(result/) },
    });
    // An answer for no call is said and dropped.
    children[0]!.post({ type: 'result', id: 999, result: { ok: true, value: 1 } });
    expect(log).toHaveBeenCalledWith('core process: an answer with id 999 matches no call; dropped');
  });

  it('starts a child that died again, tells the window, and loses no call made meanwhile', async () => {
    const { core, children } = await setUp();
    const notices: unknown[] = [];
    core.events.onAny((name, payload) => name === 'app.onDidNotice' && notices.push(payload));
    children[0]!.answer = () => {};
    const inFlight = core.dispatch('tasks.update', { id: 't1' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    children[0]!.die(1);
    await expect(inFlight).resolves.toMatchObject({
      ok: false,
      error: { type: 'offline', message: expect.stringMatching(/stopped while answering/) },
    });
    expect(notices).toEqual([
      expect.objectContaining({ level: 'warning', title: expect.stringMatching(/starting again/) }),
    ]);
    // A call made while the child is down waits for the next one.
    const later = core.dispatch('app.info', {});
    await expect(later).resolves.toEqual({ ok: true, value: 'app.info' });
    expect(children).toHaveLength(2);
    expect(core.restarts).toBe(1);
    expect(children[1]!.received[0]).toMatchObject({ type: 'start' });
  });

  it('keeps calls waiting while a restarted child fails to start, and has every view read again once one is ready', async () => {
    let failNext = false;
    const children: FakeChild[] = [];
    const core = await startCoreProcess({
      spawn: () => {
        const child = new FakeChild();
        const fail = failNext;
        failNext = false;
        child.answer = (message, c) =>
          fail && message.type === 'start' ? c.post({ type: 'failed', message: 'locked' }) : echo(message, c);
        children.push(child);
        return child;
      },
      start: { dataDir: '/data', version: '1', transport: 'web' },
      secrets: memorySecrets(),
      secretKeys: () => [],
      log: () => {},
      restartDelayMs: 1,
    });
    const changes: unknown[] = [];
    const resent: unknown[] = [];
    core.events.onAny((name, payload) =>
      name === 'cache.onDidChange'
        ? changes.push(payload)
        : name !== 'app.onDidNotice' && resent.push([name, payload]),
    );
    failNext = true;
    children[0]!.die(1);
    const waiting = core.dispatch('app.info', {});
    await expect(waiting).resolves.toEqual({ ok: true, value: 'app.info' });
    expect(children).toHaveLength(3);
    expect(changes).toEqual([{ entities: expect.arrayContaining(['tasks', 'projects']) }]);
    // The states the window keeps from events are read from the new core and sent anew.
    await vi.waitFor(() =>
      expect(resent).toEqual([
        ['accounts.onDidChange', 'accounts.list'],
        ['sync.onDidChangeStatus', 'sync.status'],
        ['outbox.onDidChange', 'outbox.status'],
      ]),
    );
  });

  it('closes the child through its session, and does not start it again', async () => {
    const { core, children } = await setUp();
    await core.close();
    expect(children[0]!.received.at(-1)).toMatchObject({ type: 'close' });
    expect(children).toHaveLength(1);
    await expect(core.dispatch('app.info', {})).resolves.toMatchObject({
      ok: false,
      error: { type: 'offline' },
    });
  });

  it('with a first screen, sends a change made while the child started before closing it, not refused', async () => {
    let ready = (): void => {};
    const children: FakeChild[] = [];
    const core = await startCoreProcess({
      spawn: () => {
        const child = new FakeChild();
        // Ready only when the test says: the window is open (the first screen) meanwhile.
        child.answer = (message, c) => {
          if (message.type === 'start') ready = () => c.post({ type: 'ready' });
          else echo(message, c);
        };
        children.push(child);
        return child;
      },
      start: { dataDir: '/data', version: '1', transport: 'electron' },
      secrets: memorySecrets(),
      secretKeys: () => [],
      log: () => {},
      firstScreen: { file: '/data/first-screen.json', answer: () => undefined, coreOpened: () => undefined },
    });
    const change = core.dispatch('tasks.update', { taskId: 't1', changes: { name: 'Kept' } });
    const closed = core.close();
    // The user quits before the core is ready: it gets ready, then the change, then the close.
    await Promise.resolve();
    ready();
    await closed;
    await expect(change).resolves.toEqual({ ok: true, value: 'tasks.update' });
    expect(children[0]!.received.map((m) => m.type)).toEqual(['start', 'call', 'close']);
  });

  it('fails to start when the first child cannot start its core', async () => {
    await expect(
      startCoreProcess({
        spawn: () => {
          const child = new FakeChild();
          child.answer = (message, c) =>
            message.type === 'start' && c.post({ type: 'failed', message: 'disk full' });
          return child;
        },
        start: { dataDir: '/data', version: '1', transport: 'web' },
        secrets: memorySecrets(),
        secretKeys: () => [],
        log: () => {},
      }),
    ).rejects.toThrow('The core could not start: disk full');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';

/** A browser WebSocket the test opens, answers and closes by hand. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readonly sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
    // The host is gone or runs again under another secret: every new socket is refused.
    if (FakeSocket.refuse) queueMicrotask(() => this.onclose?.());
  }
  static refuse = false;
  send(text: string): void {
    this.sent.push(text);
  }
}

/** The bridge module as a page in a browser loads it (the web host's page, no preload). */
async function loadBridgeInPage(host: 'runs' | 'gone' | 'other' = 'runs') {
  vi.resetModules();
  FakeSocket.made = [];
  FakeSocket.refuse = false;
  asked.length = 0;
  vi.stubGlobal('window', {});
  vi.stubGlobal('location', {
    hash: '#secret=s3cr%2Ft',
    host: '127.0.0.1:4100',
    origin: 'http://127.0.0.1:4100',
  });
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('fetch', (url: string) => {
    asked.push(url);
    // 'other': another program answers on the port, not with the page.
    if (host === 'other') return Promise.resolve(new Response('not found', { status: 404 }));
    return host === 'runs'
      ? Promise.resolve(new Response('<html>'))
      : Promise.reject(new TypeError('refused'));
  });
  return import('./bridge');
}

/** The addresses the page fetched (its own, asked whether the host still runs). */
const asked: string[] = [];

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the web page's bridge", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens its socket when the page loads it, before any call, and the first call uses that socket', async () => {
    const { bridge } = await loadBridgeInPage();
    // Opened while the rest of the page's script runs, not at the first call after it.
    expect(FakeSocket.made.map((s) => s.url)).toEqual(['ws://127.0.0.1:4100/bridge?secret=s3cr%2Ft']);
    const socket = FakeSocket.made[0]!;
    const answer = bridge.invoke('app.info', {});
    await settle();
    expect(socket.sent).toEqual([]);
    socket.onopen?.();
    await settle();
    expect(FakeSocket.made).toHaveLength(1);
    expect(socket.sent.map((text) => JSON.parse(text) as unknown)).toEqual([
      { id: 1, channel: 'app.info', arg: {} },
    ]);
    socket.onmessage?.({
      data: JSON.stringify({ id: 1, result: { ok: true, value: { name: 'Workdesk' } } }),
    });
    await expect(answer).resolves.toEqual({ name: 'Workdesk' });
  });

  it('opens another socket at the next call when the early one was refused', async () => {
    const { bridge } = await loadBridgeInPage();
    FakeSocket.made[0]!.onclose?.();
    await settle();
    const answer = bridge.invoke('app.info', {});
    await settle();
    expect(FakeSocket.made).toHaveLength(2);
    const again = FakeSocket.made[1]!;
    again.onopen?.();
    await settle();
    again.onmessage?.({ data: JSON.stringify({ id: 1, result: { ok: true, value: 'yes' } }) });
    await expect(answer).resolves.toBe('yes');
  });

  it('announces a lost connection once, and the reconnect when a socket opens again', async () => {
    const { bridge } = await loadBridgeInPage();
    const heard: boolean[] = [];
    bridge.onConnection((connected) => heard.push(connected));
    // A socket refused before any was open is no loss: the page never had the core.
    FakeSocket.made[0]!.onclose?.();
    void bridge.invoke('app.info', {}).catch(() => undefined);
    await settle();
    const first = FakeSocket.made[1]!;
    first.onopen?.();
    await settle();
    expect(heard).toEqual([]);
    // The socket drops (in web mode the host exits with its core, or runs again under another
    // secret): the open socket closes, and the next try is refused too.
    first.onclose?.();
    void bridge.invoke('app.info', {}).catch(() => undefined);
    await settle();
    FakeSocket.made[2]!.onclose?.();
    await settle();
    // The refused try asked the page's address, which answered: a host started again.
    expect(heard).toEqual([false, false]);
    void bridge.invoke('app.info', {}).catch(() => undefined);
    await settle();
    FakeSocket.made[3]!.onopen?.();
    await settle();
    expect(heard).toEqual([false, false, true]);
  });

  it('tags the calls it fails itself for a lost connection, not the core answering offline', async () => {
    const { bridge, BridgeError } = await loadBridgeInPage();
    const socket = FakeSocket.made[0]!;
    socket.onopen?.();
    await settle();
    const offline = bridge.invoke('app.info', {});
    const pending = bridge.invoke('app.info', {});
    await settle();
    // The core answers the first itself (the connection kept); the socket drops under the second.
    socket.onmessage?.({
      data: JSON.stringify({
        id: 1,
        result: { ok: false, error: { type: 'offline', message: 'Not held.' } },
      }),
    });
    socket.onclose?.();
    const answered = await offline.catch((err: unknown) => err);
    const dropped = await pending.catch((err: unknown) => err);
    expect(answered).toBeInstanceOf(BridgeError);
    expect(answered).toMatchObject({ type: 'offline', lostConnection: false });
    expect(dropped).toMatchObject({ type: 'offline', lostConnection: true });
    // A call while the retry is refused fails the same way, tagged.
    FakeSocket.refuse = true;
    const refused = await bridge.invoke('app.info', {}).catch((err: unknown) => err);
    expect(refused).toMatchObject({ type: 'offline', lostConnection: true });
  });

  it('after a refused retry, tells a host gone from one started again, and keeps retrying', async () => {
    for (const host of ['gone', 'runs', 'other'] as const) {
      vi.useFakeTimers();
      const { bridge } = await loadBridgeInPage(host);
      const heard: [boolean, string | undefined][] = [];
      bridge.onConnection((connected, lost) => heard.push([connected, lost]));
      bridge.on('cache.onDidChange', () => undefined);
      FakeSocket.made[0]!.onopen?.();
      FakeSocket.refuse = true;
      FakeSocket.made[0]!.onclose?.();
      expect(heard).toEqual([[false, 'unknown']]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(asked).toEqual(['http://127.0.0.1:4100/']);
      expect(heard).toEqual([
        [false, 'unknown'],
        [false, host === 'runs' ? 'restarted' : 'gone'],
      ]);
      // Still tried (in case it comes back at this address), and heard once it does.
      FakeSocket.refuse = false;
      await vi.advanceTimersByTimeAsync(2_000);
      FakeSocket.made.at(-1)!.onopen?.();
      expect(heard.at(-1)).toEqual([true, undefined]);
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it('keeps one retry timer with backoff however many calls are made while lost', async () => {
    vi.useFakeTimers();
    const { bridge } = await loadBridgeInPage('gone');
    bridge.on('cache.onDidChange', () => undefined);
    FakeSocket.made[0]!.onopen?.();
    FakeSocket.refuse = true;
    FakeSocket.made[0]!.onclose?.();
    const openedBy = async (ms: number) => {
      const before = FakeSocket.made.length;
      await vi.advanceTimersByTimeAsync(ms);
      return FakeSocket.made.length - before;
    };
    // Retries at 1, 3, 7, 15, 25, 35 s after the loss, with five calls (each a socket of its own).
    for (let i = 0; i < 5; i++) void bridge.invoke('app.info', {}).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.made).toHaveLength(2);
    expect(await openedBy(1_000)).toBe(1);
    expect(await openedBy(2_000)).toBe(1);
    // A call while lost adds its own try, not another timer.
    const beforeCall = FakeSocket.made.length;
    void bridge.invoke('app.info', {}).catch(() => undefined);
    expect(FakeSocket.made.length - beforeCall).toBe(1);
    expect(await openedBy(4_000)).toBe(1);
    expect(await openedBy(8_000)).toBe(1);
    expect(await openedBy(10_000)).toBe(1);
    expect(await openedBy(30_000)).toBe(3);
  });
});

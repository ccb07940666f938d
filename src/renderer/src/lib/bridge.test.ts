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
  }
  send(text: string): void {
    this.sent.push(text);
  }
}

/** The bridge module as a page in a browser loads it (the web host's page, no preload). */
async function loadBridgeInPage() {
  vi.resetModules();
  FakeSocket.made = [];
  vi.stubGlobal('window', {});
  vi.stubGlobal('location', { hash: '#secret=s3cr%2Ft', host: '127.0.0.1:4100' });
  vi.stubGlobal('WebSocket', FakeSocket);
  return import('./bridge');
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the web page's bridge", () => {
  afterEach(() => vi.unstubAllGlobals());

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
    // The core restarts: the open socket closes, and the next try is refused too.
    first.onclose?.();
    void bridge.invoke('app.info', {}).catch(() => undefined);
    await settle();
    FakeSocket.made[2]!.onclose?.();
    expect(heard).toEqual([false]);
    void bridge.invoke('app.info', {}).catch(() => undefined);
    await settle();
    FakeSocket.made[3]!.onopen?.();
    await settle();
    expect(heard).toEqual([false, true]);
  });
});

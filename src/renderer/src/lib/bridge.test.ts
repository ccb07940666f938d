import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_ELEMENT, pageFirstScreenText } from '@shared/ipc/first-screen-page';

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

/**
 * The bridge module as a page in a browser loads it (the web host's page, no preload);
 * `firstScreen`: the text of the element holding the record's answers, if the html had one.
 */
async function loadBridgeInPage(firstScreen?: string) {
  vi.resetModules();
  FakeSocket.made = [];
  vi.stubGlobal('window', {});
  vi.stubGlobal('document', {
    getElementById: (id: string) =>
      id === FIRST_SCREEN_ELEMENT && firstScreen !== undefined ? { textContent: firstScreen } : null,
  });
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

  it("answers the first reads from the record's answers in its html at once, each once, until a call that is not a read", async () => {
    const info = { name: 'Workdesk', version: 'recorded' };
    const inbox = { rows: [{ name: 'Fix </script> handling' }], total: 1, unread: 0 };
    const { bridge } = await loadBridgeInPage(
      pageFirstScreenText({
        answers: [
          { channel: 'app.info', arg: {}, value: info },
          { channel: 'inbox.list', arg: { first: 60 }, value: inbox },
          { channel: 'org.tags', arg: {}, value: [] },
        ],
        reads: ['app.info', 'inbox.list', 'org.tags', 'settings.get'],
      }),
    );
    // The host is told the page took them, so a socket opened after its core is told to read again.
    expect(FakeSocket.made.map((s) => s.url)).toEqual([
      'ws://127.0.0.1:4100/bridge?secret=s3cr%2Ft&firstScreen=1',
    ]);
    const socket = FakeSocket.made[0]!;
    // The socket not open yet: answered from the html.
    await expect(bridge.invoke('app.info', {})).resolves.toEqual(info);
    await expect(bridge.invoke('inbox.list', { first: 60 })).resolves.toEqual(inbox);
    // Asked again: the socket's, as a read not recorded (another argument) is.
    const again = bridge.invoke('app.info', {});
    const more = bridge.invoke('inbox.list', { first: 120 });
    // A write: the answers left (org.tags) are no longer given.
    const write = bridge.invoke('inbox.markAllRead', {});
    const tags = bridge.invoke('org.tags', {});
    socket.onopen?.();
    await settle();
    const sent = socket.sent.map((text) => JSON.parse(text) as { id: number; channel: string; arg: unknown });
    expect(sent.map(({ channel, arg }) => [channel, arg])).toEqual([
      ['app.info', {}],
      ['inbox.list', { first: 120 }],
      ['inbox.markAllRead', {}],
      ['org.tags', {}],
    ]);
    for (const { id } of sent)
      socket.onmessage?.({ data: JSON.stringify({ id, result: { ok: true, value: `answer ${id}` } }) });
    await expect(Promise.all([again, more, write, tags])).resolves.toEqual(
      sent.map(({ id }) => `answer ${id}`),
    );
  });

  it('reads everything over its socket when the record in its html is damaged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { bridge } = await loadBridgeInPage('{"answers": [{"channel": "app.info"}], "reads": []}');
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('answers[0]: expected { channel, arg, value }'),
    );
    warn.mockRestore();
    const socket = FakeSocket.made[0]!;
    expect(socket.url).toBe('ws://127.0.0.1:4100/bridge?secret=s3cr%2Ft');
    const answer = bridge.invoke('app.info', {});
    socket.onopen?.();
    await settle();
    expect(socket.sent).toHaveLength(1);
    socket.onmessage?.({ data: JSON.stringify({ id: 1, result: { ok: true, value: 'core' } }) });
    await expect(answer).resolves.toBe('core');
  });
});

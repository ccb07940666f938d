// The renderer's only way to the core. In Electron the preload exposes `window.workdesk`; in a
// browser (the web host) the same contract travels over a WebSocket whose secret is in the page
// URL's fragment. Callers see one typed API either way.
import type { ChannelInput, ChannelName, ChannelOutput } from '@shared/ipc/contract';
import type { EventName, EventPayload } from '@shared/ipc/events';
import type { IpcResult } from '@shared/ipc/channel';
import type { StageResult } from '@shared/ipc/attachments';
import { BridgeError, lostConnectionError } from './bridge-error';

export interface Transport {
  invoke(channel: string, arg: unknown): Promise<IpcResult<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  /**
   * Electron only: copies dropped or picked files into the spool. The preload resolves their
   * paths itself (bytes stay off IPC, and the page never names a path).
   */
  stageFiles?(files: readonly File[]): Promise<IpcResult<StageResult>>;
  /**
   * The web host only: calls `listener` with false when the connection to the core is lost and
   * with true when it is made again; returns the unsubscribe. While lost it may call it with
   * false again naming what became of the host (`LostHost`). A transport without it (Electron's
   * IPC, which the main process keeps while it restarts the core, holding the calls meanwhile)
   * is always connected.
   */
  onConnection?(listener: ConnectionListener): () => void;
}

/**
 * What the page learnt of its web host while the connection is lost: 'unknown' until a retry has
 * failed; then 'gone' (the page's own address answers nothing: the host exited, as it does when
 * its core stops) or 'restarted' (the address answers but the socket is still refused: a new host
 * run, whose secret, and by default port, differ from this page's). Neither comes back by itself
 * at this address, so nothing should promise a re-read; the page keeps retrying all the same.
 */
export type LostHost = 'unknown' | 'gone' | 'restarted';

export type ConnectionListener = (connected: boolean, lost?: LostHost) => void;

declare global {
  interface Window {
    workdesk?: Transport;
  }
}

export { BridgeError };

export class Bridge {
  readonly kind: 'electron' | 'web';
  readonly #transport: Transport;

  constructor(transport: Transport, kind: 'electron' | 'web') {
    this.#transport = transport;
    this.kind = kind;
  }

  /**
   * Follows the connection to the core: `listener(false)` when it is lost, `listener(true)`
   * when it is back (a reconnect: the core's events sent meanwhile were missed, so what is on
   * screen should be read again). While lost, `listener(false, lost)` again each time more is
   * learnt of the host (see `LostHost`). Returns the unsubscribe.
   */
  onConnection(listener: ConnectionListener): () => void {
    return this.#transport.onConnection?.(listener) ?? (() => undefined);
  }

  /** Copies dropped files into the spool (Electron); undefined in a browser, where the bytes are streamed. */
  get stageFiles(): ((files: readonly File[]) => Promise<StageResult>) | undefined {
    const transport = this.#transport;
    if (!transport.stageFiles) return undefined;
    return async (files) => {
      const result = await transport.stageFiles!(files);
      if (!result.ok) throw new BridgeError(result.error);
      return result.value;
    };
  }

  async invoke<C extends ChannelName>(channel: C, arg: ChannelInput<C>): Promise<ChannelOutput<C>> {
    const result = await this.#transport.invoke(channel, arg);
    if (!result.ok) throw new BridgeError(result.error);
    return result.value as ChannelOutput<C>;
  }

  /** Subscribes to a core event; returns the unsubscribe. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    return this.#transport.on(event, listener as (payload: unknown) => void);
  }
}

/** The first retry's wait after a loss, doubled at each failed retry up to `RETRY_MAX_MS`. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 10_000;

/**
 * WebSocket transport for the web host. Once a socket has been open, a lost connection is tried
 * again by one retry timer with backoff (calls made meanwhile try at once, but add no timer), and
 * after each failed retry the page's own address is asked whether the host still runs.
 */
export class WebSocketTransport implements Transport {
  readonly #url: string;
  /** The page's own address: a plain fetch of it tells a host gone from a host started again. */
  readonly #hostUrl: string | undefined;
  #opened: Promise<WebSocket> | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, (result: IpcResult<unknown>) => void>();
  readonly #listeners = new Map<string, Set<(payload: unknown) => void>>();
  readonly #connectionListeners = new Set<ConnectionListener>();
  /** Whether a socket was open and has been lost since (a close before any open is not news). */
  #lost = false;
  #everOpened = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #retryMs = RETRY_FIRST_MS;
  #lostHost: LostHost = 'unknown';
  #askingHost = false;

  constructor(url: string, hostUrl?: string) {
    this.#url = url;
    this.#hostUrl = hostUrl;
  }

  /**
   * Opens the socket now, before any call: the bridge does it when the page's script starts, so
   * the handshake runs while the browser evaluates the rest of the script and draws the frame
   * (at start-up both take longer than the handshake) instead of after them. A socket that fails
   * to open here is opened again by the next call.
   */
  preconnect(): void {
    void this.#connect().catch(() => {});
  }

  #connect(): Promise<WebSocket> {
    if (this.#opened) return this.#opened;
    this.#opened = new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(this.#url);
      let opened = false;
      socket.onopen = () => {
        opened = true;
        resolve(socket);
        this.#everOpened = true;
        this.#retryMs = RETRY_FIRST_MS;
        this.#lostHost = 'unknown';
        if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
        this.#retryTimer = undefined;
        if (this.#lost) {
          this.#lost = false;
          this.#announce(true);
        }
      };
      socket.onmessage = (message) => this.#receive(String(message.data));
      socket.onclose = () => {
        this.#opened = undefined;
        if (this.#everOpened && !this.#lost) {
          this.#lost = true;
          this.#announce(false, 'unknown');
        } else if (this.#lost && !opened) {
          // A retry refused: ask whether the host still runs.
          this.#askHost();
        }
        for (const [id, settle] of this.#pending) {
          settle({ ok: false, error: lostConnectionError('The connection to the Workdesk core was lost.') });
          this.#pending.delete(id);
        }
        reject(new Error('The connection to the Workdesk core was refused or lost.'));
        if (this.#listeners.size || this.#lost) this.#scheduleRetry();
      };
    });
    return this.#opened;
  }

  /** One retry timer at most, however many calls and closes happen meanwhile. */
  #scheduleRetry(): void {
    if (this.#retryTimer !== undefined) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.#connect().catch(() => {});
    }, wait);
  }

  #askHost(): void {
    if (!this.#hostUrl || this.#askingHost) return;
    this.#askingHost = true;
    // Only the page served again says Workdesk runs there: another answer (a 403 or 404) is
    // another program on that port, so Workdesk is gone from it.
    fetch(this.#hostUrl, { cache: 'no-store' }).then(
      (response) => this.#learnHost(response.ok ? 'restarted' : 'gone'),
      () => this.#learnHost('gone'),
    );
  }

  #learnHost(lostHost: LostHost): void {
    this.#askingHost = false;
    // The socket may have opened again while the host was asked.
    if (!this.#lost || lostHost === this.#lostHost) return;
    this.#lostHost = lostHost;
    this.#announce(false, lostHost);
  }

  onConnection(listener: ConnectionListener): () => void {
    this.#connectionListeners.add(listener);
    return () => this.#connectionListeners.delete(listener);
  }

  #announce(connected: boolean, lostHost?: LostHost): void {
    for (const listener of [...this.#connectionListeners]) listener(connected, lostHost);
  }

  #receive(text: string): void {
    const message = JSON.parse(text) as {
      id?: number;
      result?: IpcResult<unknown>;
      event?: string;
      payload?: unknown;
    };
    if (typeof message.id === 'number' && message.result) {
      this.#pending.get(message.id)?.(message.result);
      this.#pending.delete(message.id);
    } else if (message.event) {
      for (const listener of this.#listeners.get(message.event) ?? []) listener(message.payload);
    }
  }

  async invoke(channel: string, arg: unknown): Promise<IpcResult<unknown>> {
    let socket: WebSocket;
    try {
      socket = await this.#connect();
    } catch (err) {
      return { ok: false, error: lostConnectionError((err as Error).message) };
    }
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      socket.send(JSON.stringify({ id, channel, arg }));
    });
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    void this.#connect().catch(() => {});
    return () => set.delete(listener);
  }
}

function createBridge(): Bridge {
  if (window.workdesk) return new Bridge(window.workdesk, 'electron');
  const secret = new URLSearchParams(location.hash.slice(1)).get('secret') ?? '';
  const url = `ws://${location.host}/bridge?secret=${encodeURIComponent(secret)}`;
  const transport = new WebSocketTransport(url, `${location.origin}/`);
  transport.preconnect();
  return new Bridge(transport, 'web');
}

export const bridge = createBridge();

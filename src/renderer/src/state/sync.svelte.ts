// Sync status for the status bar: online, running phase and progress, last sync, pending count.
import type { SyncStatus } from '@shared/ipc/sync';
import type { ServiceClock } from '@shared/service-clock';
import type { Bridge, LostHost } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';

export class SyncState {
  #status = $state<SyncStatus | undefined>();
  #coreReachable = $state(true);
  #lostHost = $state<LostHost>('unknown');
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get status(): SyncStatus | undefined {
    return this.#status;
  }

  /**
   * Whether the window reaches its core (the bridge's connection): while it does not, the sync
   * status held is the one from before the loss and says nothing true about now.
   */
  get coreReachable(): boolean {
    return this.#coreReachable;
  }

  /** While the core is unreachable, what the page learnt of its web host (see `LostHost`). */
  get lostHost(): LostHost {
    return this.#lostHost;
  }

  /**
   * The clock the active account's service stamps its moments on: every displayed service time
   * (`formatRelative`, `formatMoment`) is read on it. The core names it in the sync status.
   */
  get serviceClock(): ServiceClock {
    return this.#status?.serviceClock ?? 'local';
  }

  start(): () => void {
    const off = this.#bridge.on('sync.onDidChangeStatus', (status) => (this.#status = status));
    /** Counts losses: a read again that settles after a later loss says nothing of now. */
    let losses = 0;
    const offConnection = this.#bridge.onConnection((connected, lost) => {
      if (!connected) {
        losses += 1;
        this.#coreReachable = false;
        this.#lostHost = lost ?? 'unknown';
        return;
      }
      // The status changes sent while the connection was lost were missed: the core counts as
      // reached once the status is read again (or its read fails), so the bar never shows the
      // status from before the loss as if it were now.
      const since = losses;
      void this.load().then(() => {
        if (since !== losses) return;
        this.#coreReachable = true;
        this.#lostHost = 'unknown';
      });
    });
    void this.load();
    return () => {
      off();
      offConnection();
    };
  }

  load(): Promise<void> {
    return this.#bridge
      .invoke('sync.status', {})
      .then((status) => (this.#status = status))
      .then(() => undefined)
      .catch(() => {
        // The status bar then says "Sync status unknown"; nothing else depends on it.
      });
  }

  async syncNow(): Promise<void> {
    try {
      this.#status = await this.#bridge.invoke('sync.now', { wait: false });
    } catch (err) {
      toasts.error('Could not start a sync', err);
    }
  }
}

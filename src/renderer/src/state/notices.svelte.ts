// What the core found damaged among the user's files (a cache, the outbox, settings, tokens) and
// did about it: shown once as a notice that stays a while, and listed in Changes.
import type { DataNotice } from '@shared/ipc/app';
import type { Bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';

/** A notice about lost or moved data stays long enough to be read (and held while pointed at). */
const NOTICE_MS = 60_000;

export class NoticesState {
  #items = $state.raw<DataNotice[]>([]);
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get items(): readonly DataNotice[] {
    return this.#items;
  }

  #add(notice: DataNotice): void {
    if (this.#items.some((n) => n.id === notice.id)) return;
    this.#items = [...this.#items, notice];
    toasts.show(`${notice.title}. ${notice.message}`, notice.level === 'info' ? 'info' : 'error', NOTICE_MS);
  }

  start(): () => void {
    const off = this.#bridge.on('app.onDidNotice', (notice) => this.#add(notice));
    this.#bridge
      .invoke('app.notices', {})
      .then((list) => list.forEach((n) => this.#add(n)))
      .catch(() => {});
    return off;
  }
}

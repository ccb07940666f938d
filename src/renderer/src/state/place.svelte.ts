// Where the window reopens: the last place the core kept for the active account, read as the
// page starts (beside `app.info`) and opened before the first view is drawn, and the current
// place kept as the user moves (see `views/last-place.ts` for what is kept and checked).
import type { Place } from '@shared/ipc/app';
import type { Bridge } from '../lib/bridge';
import type { Navigation } from '../lib/navigation.svelte';
import { placeOf, routeOfPlace } from '../views/last-place';
import type { Route } from '../views/routes';

export class PlaceState {
  #placed = $state(false);
  readonly #bridge: Bridge;
  /** The place the core holds (read or last sent), as text: the same place is not sent again. */
  #kept: string | undefined;
  #sending = false;
  /** The place to send once the one on its way is answered (only the latest counts). */
  #next: Place | undefined;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  /** Whether the place to open is known (the kept one opened, or Home): the views wait for it. */
  get placed(): boolean {
    return this.#placed;
  }

  /**
   * Reads the kept place and opens it in place of the first one (Home) without a history
   * entry, unless the window went elsewhere meanwhile. A place not kept, not valid or no longer held, or a read that fails, leaves Home.
   */
  async reopen(nav: Navigation, now?: Date): Promise<void> {
    try {
      const place = await this.#bridge.invoke('app.lastPlace', {});
      // None kept opens Home: Home need not be kept then.
      this.#kept = JSON.stringify(place ?? placeOf({ kind: 'home' }));
      const route = routeOfPlace(place, now);
      // Only over the first place: one the window went to meanwhile (a link the OS handed over)
      // is where the user wants to be.
      if (route && nav.route.kind === 'home' && !nav.canGoBack) nav.replace(route);
    } catch {
      // No place to go back to: Home, as before places were kept.
    } finally {
      this.#placed = true;
    }
  }

  /** Keeps the current place; until the kept one is opened, nothing is kept (it would be Home). */
  remember(route: Route): void {
    if (!this.#placed) return;
    this.#next = placeOf(route);
    void this.#send();
  }

  async #send(): Promise<void> {
    if (this.#sending) return;
    this.#sending = true;
    try {
      while (this.#next) {
        const place = this.#next;
        this.#next = undefined;
        const text = JSON.stringify(place);
        if (text === this.#kept) continue;
        try {
          await this.#bridge.invoke('app.rememberPlace', place);
          this.#kept = text;
        } catch {
          // Not kept (the core closing, an account switching): the next move tries again; at
          // worst the app reopens on an earlier place.
        }
      }
    } finally {
      this.#sending = false;
    }
  }
}

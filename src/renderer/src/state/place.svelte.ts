// Where the window reopens: the last place the core kept for the active account, read as the
// page starts (beside `app.info`) and opened before the first view is drawn, and the current
// place kept as the user moves (see `views/last-place.ts` for what is kept and checked).
import type { Place } from '@shared/ipc/app';
import type { Bridge } from '../lib/bridge';
import type { Navigation } from '../lib/navigation.svelte';
import { placeOf, placeText, routeOfPlace } from '../views/last-place';
import type { Route } from '../views/routes';

/**
 * How long the window waits for the kept place before it opens Home. It is answered at once from
 * the first-screen record or the reads ahead; a core that is slow to open (or a record without
 * it) must not hold the window on "Connecting…": past this, Home is drawn, and the place, if it
 * comes, is opened only while the user is still on that first Home.
 */
export const REOPEN_WAIT_MS = 1_000;

/**
 * How long the place settles before it is kept: moving through a few views in a row writes
 * the last one once. Sent at once when the page goes (`flush`).
 */
export const REMEMBER_DELAY_MS = 500;

const HOME_TEXT = placeText(placeOf({ kind: 'home' }));

export class PlaceState {
  #placed = $state(false);
  readonly #bridge: Bridge;
  /** The place the core holds (read or last sent), as text: the same place is not sent again. */
  #kept: string | undefined;
  #sending = false;
  /** The place to send once the one on its way is answered (only the latest counts). */
  #next: Place | undefined;
  /** The pending send of `#next`, while the place settles. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A place was sent since the last read began: a late answer is no longer what the core holds. */
  #sentSinceRead = false;
  /** Counts account switches: a send answered after one does not say what this account holds. */
  #account = 0;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  /** Whether the place to open is known (the kept one opened, or Home): the views wait for it. */
  get placed(): boolean {
    return this.#placed;
  }

  /**
   * Reads the kept place and opens it in place of the first one (Home) without a history entry,
   * unless the window went elsewhere meanwhile. A place not kept, not valid or no longer held,
   * or a read that fails, leaves Home; so does one not answered within `REOPEN_WAIT_MS` (then
   * opened when it comes, if the window is still on that first Home).
   */
  async reopen(nav: Navigation, now?: Date): Promise<void> {
    this.#sentSinceRead = false;
    const reading = this.#bridge.invoke('app.lastPlace', {}).then(
      (place) => ({ place }),
      // No place to go back to: Home, as before places were kept.
      () => undefined,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), REOPEN_WAIT_MS)),
    );
    try {
      const first = await Promise.race([reading, late]);
      if (first !== 'late') {
        if (first) this.#open(first.place, nav, now);
        return;
      }
      // Home is drawn meanwhile; Home need not be kept over the place on its way. The place is
      // opened when it comes only if the user has not moved since (back to Home after opening a
      // task is a move) and the account is the same (another account's place names its ids).
      this.#kept ??= HOME_TEXT;
      const account = this.#account;
      const moves = nav.moves;
      void reading.then((answer) => {
        if (answer && account === this.#account && moves === nav.moves) this.#open(answer.place, nav, now);
      });
    } finally {
      clearTimeout(timer);
      this.#placed = true;
    }
  }

  /** Opens a place read back, over the first Home only: one the window went to is where the user wants to be. */
  #open(place: Place | null, nav: Navigation, now: Date | undefined): void {
    if (nav.route.kind !== 'home' || nav.canGoBack) return;
    // None kept opens Home: Home need not be kept then.
    if (!this.#sentSinceRead) this.#kept = place ? placeText(place) : HOME_TEXT;
    const route = routeOfPlace(place, now);
    if (route) nav.replace(route);
  }

  /**
   * Keeps the current place once it settled (`REMEMBER_DELAY_MS`); until the kept one is open,
   * nothing is kept (it would be Home).
   */
  remember(route: Route): void {
    if (!this.#placed) return;
    this.#next = placeOf(route);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#send();
    }, REMEMBER_DELAY_MS);
  }

  /**
   * Sends the place waiting to settle now (the page is going). One behind a send still on its way
   * is sent at once too, not after that send's answer (the page is gone by then); the calls reach
   * the core in order, so the last one is what it keeps.
   */
  flush(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#sending) {
      void this.#send();
      return;
    }
    const place = this.#next;
    this.#next = undefined;
    if (place && placeText(place) !== this.#kept)
      this.#bridge.invoke('app.rememberPlace', place).catch(() => undefined);
  }

  /**
   * Another account is active: what the core held is the other account's, and a place waiting
   * to be kept was seen in that account (it is not kept in this one).
   */
  switched(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#next = undefined;
    this.#kept = undefined;
    this.#account += 1;
  }

  async #send(): Promise<void> {
    if (this.#sending) return;
    this.#sending = true;
    try {
      while (this.#next) {
        const place = this.#next;
        this.#next = undefined;
        const text = placeText(place);
        if (text === this.#kept) continue;
        this.#sentSinceRead = true;
        const account = this.#account;
        try {
          await this.#bridge.invoke('app.rememberPlace', place);
          if (account === this.#account) this.#kept = text;
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

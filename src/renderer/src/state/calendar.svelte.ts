// The calendar: events of the weeks on screen (or the agenda's month), which types show
// (remembered), read again when the cache says events changed.
import { z } from 'zod';
import type { CalendarEvent, EventType } from '@shared/api/events';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { ListReadError } from '../lib/list-read-error.svelte';
import { loadPref, savePref } from '../lib/storage';
import { EVENT_TYPE_LIST, isEventType, monthGrid } from '../lib/calendar';

export class CalendarState {
  #events = $state.raw<CalendarEvent[]>([]);
  #loaded = $state(false);
  readonly #readError = new ListReadError();
  /** The month whose events are held ('' before any answer). */
  #answered = '';
  #hidden = $state<string[]>(loadPref('calendar.hiddenTypes', z.array(z.string()), []));
  #month = $state('');
  #seq = 0;
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get events(): readonly CalendarEvent[] {
    return this.#events;
  }
  /** The events of the types shown, by start date. */
  get visible(): CalendarEvent[] {
    return this.#events.filter((event) => !this.#hidden.includes(event.eventType));
  }
  get loaded(): boolean {
    return this.#loaded;
  }
  /** The error in place of the calendar: its first read of the month failed (Try again). */
  get error(): string | undefined {
    return this.#readError.shown;
  }
  /**
   * Reading the month's events again failed (the core lost for a moment, a refresh that failed):
   * its events stay on screen with this note above them.
   */
  get keptError(): string | undefined {
    return this.#readError.kept;
  }

  shows(type: EventType): boolean {
    return !this.#hidden.includes(type);
  }
  toggle(type: EventType): void {
    this.#hidden = this.shows(type) ? [...this.#hidden, type] : this.#hidden.filter((t) => t !== type);
    savePref('calendar.hiddenTypes', this.#hidden);
  }
  get shownTypes(): EventType[] {
    return EVENT_TYPE_LIST.filter((type) => this.shows(type));
  }

  /** Follows cache changes; call `show` for the month on screen. Returns the unsubscribe. */
  start(): () => void {
    return onCacheChange(this.#bridge, ['events'], () => void this.load());
  }

  show(month: string): void {
    if (month === this.#month) return;
    this.#month = month;
    void this.load();
  }

  async load(): Promise<void> {
    const month = this.#month;
    if (!month) return;
    const seq = ++this.#seq;
    const grid = monthGrid(month);
    try {
      const events = await this.#bridge.invoke('events.list', {
        from: grid[0] ?? `${month}-01`,
        to: grid[grid.length - 1] ?? `${month}-28`,
      });
      if (seq !== this.#seq) return;
      this.#events = [...events]
        .filter((event) => isEventType(event.eventType))
        .sort((a, b) => a.startDate.localeCompare(b.startDate) || a.name.localeCompare(b.name));
      this.#answered = month;
      this.#readError.cleared();
    } catch (err) {
      // Events kept only when they are this month's: another month's under this title would
      // read as its events.
      if (seq === this.#seq) this.#readError.failed(err, this.#answered === month);
    } finally {
      if (seq === this.#seq) this.#loaded = true;
    }
  }
}

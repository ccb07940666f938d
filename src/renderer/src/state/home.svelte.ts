// Home's reads: my late and due-soon tasks, today's events and the time logged this week, each
// from the cache (so at once, and offline), read again when the cache says its entities changed.
import type { CalendarEvent } from '@shared/api/events';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { failedReadNote } from '../lib/errors';
import {
  DUE_PER_GROUP,
  dueSections,
  eventsOn,
  homeDays,
  loggedMinutes,
  systemClock,
  untilNextDay,
  windowWakes,
  type DueSection,
  type OnWake,
} from './home';

type ReadKind = 'due' | 'events' | 'time';

export class HomeState {
  #due = $state.raw<DueSection[] | undefined>();
  #events = $state.raw<CalendarEvent[] | undefined>();
  #logged = $state.raw<{ today: number; week: number } | undefined>();
  #today = $state('');
  #eventsDay = $state('');
  #errors = $state.raw<Partial<Record<ReadKind, string>>>({});
  readonly #bridge: Bridge;
  readonly #clock: () => Date;
  readonly #wakes: OnWake;
  /** The local day the last full read was asked for: a later day reads all three again. */
  #day = '';
  /** Each read's latest ask: an older answer arriving after a newer one is dropped. */
  readonly #seq: Record<ReadKind, number> = { due: 0, events: 0, time: 0 };

  constructor(bridge: Bridge, clock: () => Date = systemClock, wakes: OnWake = windowWakes) {
    this.#bridge = bridge;
    this.#clock = clock;
    this.#wakes = wakes;
  }

  /** The three groups of my dated open tasks; undefined until the first answer. */
  get due(): DueSection[] | undefined {
    return this.#due;
  }
  get events(): CalendarEvent[] | undefined {
    return this.#events;
  }
  /** The day the events were read for (Home's day then: it moves at midnight, not per draw). */
  get eventsDay(): string {
    return this.#eventsDay;
  }
  get logged(): { today: number; week: number } | undefined {
    return this.#logged;
  }
  /** A read's failure, if its last read failed (the other parts still show). */
  error(kind: ReadKind): string | undefined {
    return this.#errors[kind];
  }
  /** The day the groups were last read for (the app may stay open past midnight). */
  get today(): string {
    return this.#today;
  }

  /**
   * Reads all, then again on each change of what it shows, at each local midnight, and when the
   * window comes back on another day than the one read (the cache may not change overnight:
   * offline, nothing syncs). Returns the leave, which stops all of them.
   */
  start(): () => void {
    void this.load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const atMidnight = (): void => {
      timer = setTimeout(() => {
        void this.load();
        atMidnight();
      }, untilNextDay(this.#clock()));
    };
    atMidnight();
    const offs = [
      onCacheChange(this.#bridge, ['tasks', 'projects'], () => void this.#onChange(() => this.loadDue())),
      onCacheChange(this.#bridge, ['events'], () => void this.#onChange(() => this.loadEvents())),
      onCacheChange(this.#bridge, ['timeReports', 'tasks'], () => void this.#onChange(() => this.loadTime())),
      this.#wakes(() => {
        if (this.#isNewDay()) void this.load();
      }),
    ];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }

  /** Reads all three for the current day: the heading, the groups, events and minutes move together. */
  load(): Promise<unknown> {
    this.#day = homeDays(this.#clock()).today;
    return Promise.all([this.loadDue(), this.loadEvents(), this.loadTime()]);
  }

  #isNewDay(): boolean {
    return homeDays(this.#clock()).today !== this.#day;
  }

  /** One part read again after a cache change; all three when the day moved on since. */
  #onChange(readOne: () => Promise<void>): Promise<unknown> {
    return this.#isNewDay() ? this.load() : readOne();
  }

  async loadDue(): Promise<void> {
    const seq = ++this.#seq.due;
    const { today, sunday } = homeDays(this.#clock());
    await this.#read(seq, 'due', async () => {
      const due = await this.#bridge.invoke('tasks.due', { today, through: sunday, perGroup: DUE_PER_GROUP });
      return () => {
        this.#due = dueSections(due);
        this.#today = today;
      };
    });
  }

  async loadEvents(): Promise<void> {
    const seq = ++this.#seq.events;
    const { today } = homeDays(this.#clock());
    await this.#read(seq, 'events', async () => {
      const events = await this.#bridge.invoke('events.list', { from: today, to: today });
      return () => {
        this.#events = eventsOn(events, today);
        this.#eventsDay = today;
      };
    });
  }

  async loadTime(): Promise<void> {
    const seq = ++this.#seq.time;
    const { today, monday, sunday } = homeDays(this.#clock());
    await this.#read(seq, 'time', async () => {
      const reports = await this.#bridge.invoke('time.mine', { from: monday, to: sunday });
      return () => (this.#logged = loggedMinutes(reports, today));
    });
  }

  /** Whether the part shows an earlier answer of this kind (it is kept on a failed read). */
  #held(kind: ReadKind): boolean {
    if (kind === 'due') return this.#due !== undefined;
    if (kind === 'events') return this.#events !== undefined;
    return this.#logged !== undefined;
  }

  /** Runs a read; its result is kept only when no later read of the same kind was asked. */
  async #read(seq: number, kind: ReadKind, read: () => Promise<() => void>): Promise<void> {
    let failed: string | undefined;
    try {
      const apply = await read();
      if (seq !== this.#seq[kind]) return;
      apply();
    } catch (err) {
      if (seq !== this.#seq[kind]) return;
      failed = failedReadNote(err, this.#held(kind));
    }
    if (this.#errors[kind] !== failed) this.#errors = { ...this.#errors, [kind]: failed };
  }
}

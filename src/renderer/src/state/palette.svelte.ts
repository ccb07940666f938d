// The command palette and the shortcuts help: which overlay is open, what was typed, and the
// full-text hits for it, grouped by kind. Searches run on every keystroke; an answer that
// arrives after a newer keystroke is dropped, so the list always matches the input.
import type { SearchHit } from '@shared/ipc/search';
import type { Bridge } from '../lib/bridge';
import { bridge } from '../lib/bridge';
import { describeError } from '../lib/errors';
import { searchEachKind } from '../lib/search-each-kind';

/** Hits asked for per kind (lib/search-each-kind), as many as the palette lists per group. */
const HITS_PER_KIND = 8;

export class PaletteState {
  #query = $state('');
  #hits = $state.raw<SearchHit[]>([]);
  #error = $state<string | undefined>();
  #searching = $state(false);
  #seq = 0;
  readonly #bridge: Bridge;

  constructor(bridgeToUse: Bridge) {
    this.#bridge = bridgeToUse;
  }

  get query(): string {
    return this.#query;
  }
  get hits(): readonly SearchHit[] {
    return this.#hits;
  }
  get error(): string | undefined {
    return this.#error;
  }
  get searching(): boolean {
    return this.#searching;
  }

  reset(): void {
    this.#seq++;
    this.#query = '';
    this.#hits = [];
    this.#error = undefined;
    this.#searching = false;
  }

  /** Searches for `text`; `near` is the project being looked at, whose items come first. */
  async search(text: string, near?: string): Promise<void> {
    this.#query = text;
    const seq = ++this.#seq;
    const trimmed = text.trim();
    if (!trimmed) {
      this.#hits = [];
      this.#searching = false;
      return;
    }
    this.#searching = true;
    try {
      const hits = await searchEachKind(this.#bridge, trimmed, HITS_PER_KIND, near);
      if (seq !== this.#seq) return;
      this.#hits = hits;
      this.#error = undefined;
    } catch (err) {
      if (seq !== this.#seq) return;
      this.#hits = [];
      this.#error = describeError(err);
    } finally {
      if (seq === this.#seq) this.#searching = false;
    }
  }
}

/** Which app-wide overlay is open: the palette or the shortcuts help (never both). */
export class Overlays {
  #open = $state<'palette' | 'help' | undefined>();
  /** What had the focus when the palette opened: its commands act on the task selected there. */
  #focusBefore: Element | null = null;

  get palette(): boolean {
    return this.#open === 'palette';
  }
  get help(): boolean {
    return this.#open === 'help';
  }
  get focusBefore(): Element | null {
    return this.#focusBefore;
  }
  openPalette(): void {
    if (this.#open !== 'palette')
      this.#focusBefore = typeof document === 'undefined' ? null : document.activeElement;
    this.#open = 'palette';
  }
  openHelp(): void {
    this.#open = 'help';
  }
  close(): void {
    this.#open = undefined;
  }
}

export const overlays = new Overlays();
export const palette = new PaletteState(bridge);

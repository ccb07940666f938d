// Short notices at the bottom corner: confirmations, and every failed bridge call in words.
import { describeError } from './errors';

/** A button on a toast that leads to what it tells of (the toast goes when it is pressed). */
export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error';
  message: string;
  action?: ToastAction | undefined;
}

export class Toasts {
  #items = $state<Toast[]>([]);
  #next = 1;
  /** Each toast's time on screen and its running timer (none while it is held); nothing draws from it. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #timers = new Map<number, { ms: number; timer: ReturnType<typeof setTimeout> | undefined }>();

  get items(): readonly Toast[] {
    return this.#items;
  }

  show(
    message: string,
    kind: Toast['kind'] = 'info',
    ms = kind === 'error' ? 8000 : 4000,
    action?: ToastAction,
  ): number {
    const id = this.#next++;
    for (const dropped of this.#items.slice(0, -4)) this.#forget(dropped.id);
    this.#items = [...this.#items.slice(-4), { id, kind, message, action }];
    this.#timers.set(id, { ms, timer: setTimeout(() => this.dismiss(id), ms) });
    return id;
  }

  /**
   * Keeps a toast on screen while the user is on it (focus or pointer): it must not go away under
   * them. `release` gives it its whole time again, counted from then.
   */
  hold(id: number): void {
    const entry = this.#timers.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = undefined;
  }

  release(id: number): void {
    const entry = this.#timers.get(id);
    if (!entry || entry.timer !== undefined) return;
    entry.timer = setTimeout(() => this.dismiss(id), entry.ms);
  }

  /** Shows a failure; `action` says what was being done, e.g. "Could not change the status". */
  error(action: string, error: unknown): void {
    this.show(`${action}: ${describeError(error)}`, 'error');
  }

  dismiss(id: number): void {
    this.#forget(id);
    this.#items = this.#items.filter((toast) => toast.id !== id);
  }

  #forget(id: number): void {
    clearTimeout(this.#timers.get(id)?.timer);
    this.#timers.delete(id);
  }
}

export const toasts = new Toasts();

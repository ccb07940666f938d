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
    this.#items = [...this.#items.slice(-4), { id, kind, message, action }];
    setTimeout(() => this.dismiss(id), ms);
    return id;
  }

  /** Shows a failure; `action` says what was being done, e.g. "Could not change the status". */
  error(action: string, error: unknown): void {
    this.show(`${action}: ${describeError(error)}`, 'error');
  }

  dismiss(id: number): void {
    this.#items = this.#items.filter((toast) => toast.id !== id);
  }
}

export const toasts = new Toasts();

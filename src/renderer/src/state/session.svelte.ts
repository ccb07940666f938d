// Whether the core answered at start-up, and what it said about itself. Every other domain
// state waits for this before its first read.
import type { AppInfo } from '@shared/ipc/app';
import type { Bridge } from '../lib/bridge';
import { describeError } from '../lib/errors';

export class SessionState {
  #info = $state<AppInfo | undefined>();
  #error = $state<string | undefined>();
  readonly #bridge: Bridge;
  /**
   * Called once, when the core first answers, before the page draws anything for it: the app's
   * first reads are sent then, so the core answers them while the page draws its frame.
   */
  onFirstAnswer: (() => void) | undefined;
  #answered = false;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get info(): AppInfo | undefined {
    return this.#info;
  }
  get error(): string | undefined {
    return this.#error;
  }
  get ready(): boolean {
    return this.#info !== undefined;
  }

  async start(): Promise<void> {
    try {
      const info = await this.#bridge.invoke('app.info', {});
      if (!this.#answered) {
        this.#answered = true;
        this.onFirstAnswer?.();
      }
      this.#info = info;
      this.#error = undefined;
    } catch (err) {
      this.#error = describeError(err);
    }
  }
}

// Whether the core answered at start-up, and what it said about itself. Every other domain
// state waits for this before its first read.
import type { AppInfo } from '@shared/ipc/app';
import type { Bridge } from '../lib/bridge';
import { describeError } from '../lib/errors';

export class SessionState {
  #info = $state<AppInfo | undefined>();
  #error = $state<string | undefined>();
  readonly #bridge: Bridge;

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
      this.#info = await this.#bridge.invoke('app.info', {});
      this.#error = undefined;
    } catch (err) {
      this.#error = describeError(err);
    }
  }
}

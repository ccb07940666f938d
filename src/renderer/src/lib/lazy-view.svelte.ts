// A view whose code is a chunk of its own, loaded when the view is first opened (or, once the
// page is idle, before): the script the page evaluates at start-up holds only what the first
// views need, so My Work's first rows do not wait for the code of Settings, the calendar or CRM.
import type { Component } from 'svelte';

export class LazyView<Props extends Record<string, unknown>> {
  #component = $state.raw<Component<Props> | undefined>();
  #error = $state<string | undefined>();
  #loading: Promise<void> | undefined;
  readonly #load: () => Promise<{ default: Component<Props> }>;

  /** `load` is a dynamic `import()` of the view's module (the bundler makes it a chunk). */
  constructor(load: () => Promise<{ default: Component<Props> }>) {
    this.#load = load;
  }

  /** The view's component once its code is loaded. */
  get component(): Component<Props> | undefined {
    return this.#component;
  }
  /** Why its code could not be loaded (the chunk missing, a newer build served). */
  get error(): string | undefined {
    return this.#error;
  }

  /** Loads the view's code once; after a failure, the next call tries again. */
  load(): Promise<void> {
    this.#loading ??= this.#load().then(
      (module) => {
        this.#component = module.default;
        this.#error = undefined;
      },
      (err: unknown) => {
        this.#loading = undefined;
        this.#error = err instanceof Error ? err.message : String(err);
      },
    );
    return this.#loading;
  }
}
